import $RefParser from "@apidevtools/json-schema-ref-parser";

/**
 * The document dereferenced by @apidevtools/json-schema-ref-parser (the one $ref resolver of the
 * suite), on a copy: no file or URL is fetched (the document is the full one, and the tester's
 * disk is not its to read). Rejects with the dangling or external $ref.
 */
export function dereference(doc: unknown): Promise<any> {
  // A run dereferences the served document and the contract in several places (the contract's
  // schemas, the served model, the drift check, the report's drift): once each, the result shared
  // and read only. Keyed by the text, not the object: a document changed after being read is
  // dereferenced again.
  const key = JSON.stringify(doc);
  let done = DEREFERENCED.get(key);
  if (done) DEREFERENCED.delete(key);
  else done = $RefParser.dereference(structuredClone(doc) as any, { resolve: { file: false, http: false } });
  DEREFERENCED.set(key, done);
  // The most recent few, in the order last used: a test process reads many servers' documents.
  for (const old of DEREFERENCED.keys()) if (DEREFERENCED.size > DEREFERENCED_KEPT) DEREFERENCED.delete(old);
  return done;
}
const DEREFERENCED = new Map<string, Promise<any>>();
const DEREFERENCED_KEPT = 4;
