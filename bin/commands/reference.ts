import { writeFileSync } from "node:fs";
import { UsageError } from "../../core/api/settings.js";
import { STOP_SIGNALS } from "../cli-shared.js";

/** `conformance reference`: the bundled reference server, served until interrupted. */
export async function referenceCommand(
  opts: { host: string; port: number; fault?: string[]; variant?: string[]; latency?: number; listFaults?: boolean; writeConfig?: string },
  out: (l: string) => void,
): Promise<number> {
  const { startReference } = await import("../../reference/server.js");
  const { faults } = await import("../../reference/faults.js");
  if (opts.listFaults) {
    for (const f of faults) out(`${f.name.padEnd(40)} ${f.breaks.padEnd(20)} ${f.description}`);
    return 0;
  }
  // Listening for the signals before saying "listening": one sent on reading that line must not find the default (kill) in place.
  let stop = () => undefined as void;
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      for (const signal of STOP_SIGNALS) process.off(signal, stop);
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.once(signal, stop);
  });
  const ref = await startReference({ host: opts.host, port: opts.port, faults: opts.fault, variants: opts.variant, latencyMs: opts.latency }).catch(
    (e: Error) => {
      stop();
      throw new UsageError(e.message);
    },
  );
  if (opts.writeConfig) {
    writeFileSync(opts.writeConfig, JSON.stringify(ref.config(), null, 2) + "\n", { mode: 0o600 });
    out(`config written to ${opts.writeConfig}`);
  }
  out(
    `reference server listening on ${ref.url}${opts.fault?.length ? ` with faults: ${opts.fault.join(", ")}` : ""} (pid ${process.pid}: stop it with kill ${process.pid})`,
  );
  if (!opts.writeConfig) out(`token: pass --write-config <file> to get the tokens`);
  await stopped;
  await ref.close();
  return 0;
}
