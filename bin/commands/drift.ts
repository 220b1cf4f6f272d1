import { drift, driftLines } from "../../core/served/drift.js";
import { Api } from "../../core/transport/api.js";
import { readServed } from "../../core/served/read.js";
import { openDoor } from "../../core/run/door.js";
import { bundledOpenApi } from "../../core/api/schemas.js";
import { type RunSettings, UsageError } from "../../core/api/settings.js";

/** `conformance drift`: the served document against the bundled contract's E1–E13; exit 1 on a breaking difference with --strict. */
export async function driftCommand(settings: RunSettings, opts: { json?: boolean; strict?: boolean }, out: (line: string) => void): Promise<number> {
  const client = openDoor(settings);
  client.phase = "drift";
  try {
    const served = await readServed(new Api(client, client.options.credential ?? null, []));
    if (!served.model)
      throw new UsageError(`drift: ${served.problem.message}${served.problem.kind === "not-served" ? "; give one with --document <file|url>" : ""}`);
    if (served.source.startsWith("given")) out(`document: ${served.source}`);
    const report = await drift(await bundledOpenApi(), served.model.raw);
    if (opts.json) out(JSON.stringify(report, null, 2));
    else for (const line of driftLines(report)) out(line);
    return opts.strict && report.findings.some((f) => f.breaking) ? 1 : 0;
  } finally {
    await client.close();
  }
}
