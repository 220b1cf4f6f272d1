/** The methods that change nothing: all a read-only run sends, whatever the server's document lists. */
export const READ_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS"];

/** A write the server took: a request by another method, answered with a 2xx. */
export const tookWrite = (method: string, status: number) => !READ_METHODS.includes(method) && status >= 200 && status < 300;
