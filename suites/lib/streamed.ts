import { CsvError, parse } from "csv-parse";
import { pipeline } from "node:stream";
import type { Api } from "../../core/transport/api.js";
import type { Response } from "../../core/transport/http.js";
import { CheckFailure } from "../../core/model/outcome.js";

/** An answer of Api.stream: status and headers read, the body still to come. */
export type Streamed = Awaited<ReturnType<Api["stream"]>>;

const PEEK = 2000;

/**
 * The answer as a Response for the expect helpers, from at most the first 2000 characters of its
 * body (enough for an error message, or to show the start of a file that should not have come);
 * the rest is never read.
 */
export async function peek(answer: Streamed): Promise<Response> {
  let text = "";
  const body = answer.body as NodeJS.ReadableStream & { destroy(): void };
  try {
    for await (const chunk of body) {
      text += chunk.toString();
      if (text.length >= PEEK) break;
    }
  } finally {
    body.destroy();
  }
  text = text.slice(0, PEEK);
  // The report shows what was read (the runner redacts every result before it is shown).
  answer.exchange.responseExcerpt = text;
  let json: { ok: boolean; value: any } = { ok: false, value: undefined };
  try {
    if (/json/i.test(answer.headers["content-type"] ?? "")) json = { ok: true, value: JSON.parse(text) };
  } catch {
    /* not JSON after all: isJson stays false */
  }
  return { status: answer.status, headers: answer.headers, text, body: json.value, isJson: json.ok, exchange: answer.exchange };
}

/**
 * Parses a streamed CSV body as it arrives, never holding it whole: `onRecord` sees each record
 * (the header first) and returns false to stop early, which closes the stream. Returns how many
 * records were read and whether the body was read to its end. A body that is not CSV fails the
 * check; a broken connection is not a verdict and is thrown as it is.
 */
export async function scanCsv(
  answer: Streamed,
  onRecord: (record: string[], index: number) => boolean | void,
): Promise<{ records: number; complete: boolean }> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  pipeline(answer.body, parser, () => {
    /* errors reach the loop below through the parser */
  });
  let records = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (onRecord(record, records++) === false) return { records, complete: false };
    }
  } catch (err) {
    // Not every csv-parse error code starts with CSV_ (INVALID_OPENING_QUOTE does not): the class says it.
    if (err instanceof CsvError)
      throw new CheckFailure(`the body is not valid CSV: ${err.message}`, {
        expected: "RFC 4180 CSV",
        got: err.message,
        exchange: answer.exchange,
        reason: "not-csv",
      });
    throw err;
  } finally {
    parser.destroy();
  }
  return { records, complete: true };
}
