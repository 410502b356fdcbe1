/**
 * One Node suite of `npm test` (`scripts/test.ts` starts it on each Node line): runs the test
 * files named on the command line, each in a process of its own, `TEST_CONCURRENCY` (4) at a
 * time, in the order given, and prints the spec reporter's output.
 *
 * `node --test a b c` sorts the files it is given by name, on Node 20 as on 24, so the order a
 * suite asks for (its slowest files first) is lost; `run()` of `node:test` keeps it. Each
 * file's process gets this process's Node flags (Node 20's TypeScript hook among them).
 *
 * Usage: `node [--import tests/_ts_loader.mjs] scripts/node_suite.ts <timeout ms> <file>...`;
 * the exit code is 1 when a test failed or was cancelled, 0 otherwise.
 *
 * @module
 */
import process from "node:process";
import { resolve } from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const [timeout, ...files] = process.argv.slice(2);
const stream = run({
  files: files.map((f) => resolve(f)),
  concurrency: Number(process.env.TEST_CONCURRENCY ?? 4),
  timeout: Number(timeout),
});
stream.on("test:fail", (data: { todo?: boolean | string }) => {
  // A failing `todo` test is reported and not counted, as `node --test` does.
  if (!data.todo) process.exitCode = 1;
});
stream.compose(new spec()).pipe(process.stdout);
