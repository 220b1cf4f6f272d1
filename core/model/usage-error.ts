/**
 * A mistake of the user's (bad option, bad config, no token): one clear line, exit 2. At the bottom
 * layer, so that every layer that reads what the user gave (headers, a given document) can say so.
 */
export class UsageError extends Error {}
