/**
 * One Node suite of `npm test` (`scripts/test.ts` starts it on each Node line): runs the test
 * files named on the command line, `TEST_CONCURRENCY` (4) processes at a time, in the order
 * given, and prints the spec reporter's output.
 *
 * An argument is one test file, run in a process of its own, or several joined by `,`: a group,
 * whose files share one process, imported one after the other (their tests run in that order).
 * A process that loads the server's modules costs 0.4 s of CPU on Node 24 and 0.9 s on Node 20
 * before its first test; a group pays it once. A member that fails to load is reported as a
 * failed test named after it, and the group's other files still run.
 *
 * `node --test a b c` sorts the files it is given by name, on Node 20 as on 24, so the order a
 * suite asks for (its slowest files first) is lost; `run()` of `node:test` keeps it. Each
 * file's process gets this process's Node flags (Node 20's TypeScript hook among them).
 *
 * Usage: `node [--import tests/_ts_loader.mjs] scripts/node_suite.ts <timeout ms> <file or
 * file,file,...>...`; the exit code is 1 when a test failed or was cancelled, 0 otherwise.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import process from "node:process";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { pathToFileURL } from "node:url";

const [timeout, ...entries] = process.argv.slice(2);
const groups = entries.filter((e) => e.includes(","));
const dir = groups.length ? mkdtempSync(join(tmpdir(), "tether-suite-")) : undefined;
process.on("exit", () => dir && rmSync(dir, { recursive: true, force: true }));

/**
 * The module a group's process runs: each member imported in turn, and no test run until all
 * are (a hook of the process's root test waits for them), so a member's top-level code never
 * runs in the middle of another member's test. A member whose import throws becomes one
 * failing test that names it.
 */
function groupModule(members: string[]): string {
  const lines = [
    `import { before, test } from "node:test";`,
    `let loaded;`,
    `const all = new Promise((resolve) => { loaded = resolve; });`,
    `before(() => all);`,
  ];
  for (const member of members) {
    const url = JSON.stringify(pathToFileURL(resolve(member)).href);
    const name = JSON.stringify(`loading ${relative(process.cwd(), resolve(member))}`);
    lines.push(`try { await import(${url}); } catch (e) { test(${name}, () => { throw e; }); }`);
  }
  lines.push(`loaded();`);
  return lines.join("\n") + "\n";
}

const files = entries.map((entry) => {
  if (!entry.includes(",")) return resolve(entry);
  const members = entry.split(",");
  const file = join(dir!, `group-${groups.indexOf(entry) + 1}-of-${members.length}.mjs`);
  writeFileSync(file, groupModule(members));
  return file;
});

const stream = run({
  files,
  concurrency: Number(process.env.TEST_CONCURRENCY ?? 4),
  timeout: Number(timeout),
});
stream.on("test:fail", (data: { todo?: boolean | string }) => {
  // A failing `todo` test is reported and not counted, as `node --test` does.
  if (!data.todo) process.exitCode = 1;
});
stream.compose(new spec()).pipe(process.stdout);
