/**
 * --document: an OpenAPI document the user gives (a file or an http(s) URL) for a server that
 * serves none yet. Set once per run from its settings; read on first use and kept. The served
 * document always wins (core/served/read.ts, readServed); the reports say which was used.
 */
import { readFile } from "node:fs/promises";
import { UsageError } from "../model/usage-error.js";

let source: string | undefined;
let loaded: Promise<{ source: string; text: string; doc: unknown }> | undefined;

/** The run's --document (undefined: none); a new run forgets the last one's. */
export function useGivenDocument(given: string | undefined): void {
  source = given;
  loaded = undefined;
}

/** The given document, read and parsed once (a URL through the run's door: `download`); a file or URL that cannot be read, or is not JSON, is the user's mistake. */
export function readGivenDocument(download: (url: string) => Promise<string>): Promise<{ source: string; text: string; doc: unknown }> | undefined {
  if (source === undefined) return undefined;
  const from = source;
  loaded ??= (async () => {
    let text: string;
    try {
      text = /^https?:\/\//i.test(from) ? await download(from) : await readFile(from, "utf8");
    } catch (err) {
      throw new UsageError(`--document ${from}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    try {
      return { source: from, text, doc: JSON.parse(text) };
    } catch (err) {
      throw new UsageError(`--document ${from}: not JSON (${(err as Error).message})`);
    }
  })();
  return loaded;
}
