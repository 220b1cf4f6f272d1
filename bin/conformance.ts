#!/usr/bin/env node
import { main } from "./cli.js";
import { dropOutputOnClosedPipe, exitWhenFlushed } from "./pipes.js";
import { boundHeapGrowth } from "../core/run/heap.js";

dropOutputOnClosedPipe();
boundHeapGrowth();

main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (err: unknown) => {
    // Anything that reaches here is a bug of the tool, not of the server under test.
    process.stderr.write(`conformance: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    return exitWhenFlushed(2);
  },
);
