import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDoor } from "../core/run/door.js";
import { pathTo } from "../core/transport/client.js";
import { Api } from "../core/transport/api.js";
import { DoorRefused, type HttpClient } from "../core/transport/http.js";
import { type RunningReference, startReference } from "../reference/server.js";
import { settingsFor } from "./reference-run.js";

/**
 * The door's own refusals (core/run/door.ts), request by request against the reference: a request
 * sent on purpose without the key never reaches an object the server showed and the run did not
 * make; the deployment a write addresses is read by the table's matcher.
 */
describe("the door", () => {
  let ref: RunningReference;
  let door: HttpClient;
  let api: Api;
  const refused = async (p: Promise<unknown>) =>
    (await p.then(
      () => undefined,
      (err) => err,
    )) instanceof DoorRefused;

  beforeAll(async () => {
    ref = await startReference();
    // The plan names deployment 1 alone.
    door = openDoor(settingsFor(ref, { fixtures: { deploymentId: "1" } }));
    api = new Api(door, door.options.credential ?? null, []);
    // What the run has met: the deployments (E1) and deployment 1's folders.
    expect((await api.call("listDeployments")).status).toBe(200);
    expect((await api.call("listFolders", { deploymentId: "1" })).status).toBe(200);
  });
  afterAll(async () => {
    await door.close();
    await ref.close();
  });

  it("refuses a keyless DELETE of a listed deployment or folder, and sends one to an id that names nothing or to the run's own folder", async () => {
    const anonymous = api.with(null);
    const folders: any = (await api.call("listFolders", { deploymentId: "1" })).body;
    const listed = (folders.items ?? folders.data ?? folders)[0].id;
    expect(await refused(anonymous.call("deleteDeployment", { deploymentId: "1" }))).toBe(true);
    expect(await refused(anonymous.call("deleteFolder", { deploymentId: "1", folderId: listed }))).toBe(true);
    expect(door.refused.map((r) => r.line).join("\n")).toMatch(/without a key to 1, an object the server showed/);
    // An id that names nothing, and a folder of the run's own: sent, and refused by the server.
    expect((await anonymous.call("deleteFolder", { deploymentId: "1", folderId: "cf-nothing" })).status).toBe(401);
    const made = await api.call("createFolder", { deploymentId: "1" }, { body: { name: "cf-door-guard" } });
    expect(made.status).toBeLessThan(300);
    const body = made.body as { id?: string; data?: { id?: string } } | undefined;
    const own = (body?.id ?? body?.data?.id)!;
    expect((await anonymous.call("deleteFolder", { deploymentId: "1", folderId: own })).status).toBe(401);
    // With the key, a folder found is the run's to judge, not the door's.
    expect(await refused(api.call("deleteFolder", { deploymentId: "1", folderId: own }))).toBe(false);
  });

  it("reads the deployment a write addresses by the table's matcher: a segment that is no valid encoding is an id that names nothing", async () => {
    const odd = `${pathTo("listDeployments")}/%E0/workbooks/by-slug/cf-door-guard`;
    // Sent (the server refuses it); before, the door's own reading threw on it.
    expect((await api.send({ method: "PUT", path: odd, body: { name: "cf-door-guard" } })).status).toBeGreaterThanOrEqual(400);
    // A write the table does not name, under a listed deployment the plan does not name: refused.
    expect(await refused(api.send({ method: "POST", path: `${pathTo("listDeployments")}/2/not-in-the-table`, body: {} }))).toBe(true);
  });
});
