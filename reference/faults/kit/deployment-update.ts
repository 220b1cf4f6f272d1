import { HttpError, type Fault } from "../../http.js";
import { versionEntries } from "../../routes/deployments.js";
import { deploymentOf } from "../../routes/common.js";

/**
 * A policy of E6 that, when the update is refused for its version, has stored the fields `stored` picks
 * from the body all the same (as if written while the body was read, before the version was checked),
 * and refuses with `status` (400 as the spec says, unless another is given).
 */
export const storedDespiteRefusedVersion =
  (stored: (body: Record<string, unknown>) => Record<string, unknown>, status?: number): NonNullable<Fault["handle"]> =>
  async ({ req, app, next }) => {
    try {
      return await next();
    } catch (err) {
      if (err instanceof HttpError && /^releaseChannelVersion/.test(err.message)) {
        const dep = deploymentOf(app, req);
        dep.settings = app.b.mergeSettings(dep.settings, stored(req.body));
        if (status !== undefined) throw new HttpError(status, err.message);
      }
      throw err;
    }
  };

/** An accepted update of the bodies `applies` takes stops recording the version left: one its channel does not mark latest drops out of E5. */
export function forgetsTheOneLeft(applies: (body: any) => boolean): NonNullable<Fault["handle"]> {
  return async ({ req, app, next }) => {
    const dep = deploymentOf(app, req);
    const left = applies(req.body) ? versionEntries(dep).find((v) => v.isCurrent && !v.isLatestInChannel) : undefined;
    const reply = await next();
    if (left && reply.status < 300 && !versionEntries(dep).some((v) => v.isCurrent && v.version === left.version))
      dep.versions = dep.versions.filter((v) => v.version !== left.version);
    return reply;
  };
}
