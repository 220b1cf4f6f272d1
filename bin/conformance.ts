#!/usr/bin/env node
import { dropOutputOnClosedPipe, exitWhenFlushed } from "./pipes.js";
import { boundHeapGrowth } from "../core/run/heap.js";

dropOutputOnClosedPipe();
// Before the rest is loaded: the bound holds the young generation while the modules load.
boundHeapGrowth();
const { main } = await import("./cli.js");

main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (err: unknown) => {
    // Anything that reaches here is a bug of the tool, not of the server under test.
    process.stderr.write(`conformance: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    return exitWhenFlushed(2);
  },
);
