#!/usr/bin/env node
import { main } from "./cli.js";
import { dropOutputOnClosedPipe } from "./pipes.js";

dropOutputOnClosedPipe();

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Anything that reaches here is a bug of the tool, not of the server under test.
    process.stderr.write(`conformance: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(2);
  },
);
