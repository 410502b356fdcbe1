/**
 * `npm test`: every test under Node and under Deno, the browser tests in
 * Chromium, and the size budgets; ends with one `N passed, N failed` line.
 *
 * `deno lint`, `deno fmt --check` and `deno check` run after the Deno suite, each counted as one
 * test.
 *
 * Test files: `*.test.ts` run on Node and Deno; `*.node.test.ts` only on Node
 * (they drive Chromium through playwright-core, which needs Node);
 * `*.browser.test.ts` run in Chromium through web-test-runner.
 *
 * The Node suite runs on the Node that runs this script and, with `TEST_NODE_LINES=22,24` (or
 * `all`), again on each line of `node_lines.ts` (Node 22 and 24, binaries from the npm
 * registry), one after the other, without the files that test what Deno runs (`DENO_DRIVEN`);
 * the run says which lines it left out. CI asks for both
 * (`.ci/run`). A Node that strips types itself (22.18 and later) runs the test files as they
 * are; Node 20 loads them through `tests/_ts_loader.mjs`. Each suite is `scripts/node_suite.ts`:
 * `TEST_CONCURRENCY` sets how many processes it runs at once (4); it starts the slowest files
 * (`SLOWEST`) first, and the quick files that Deno runs too share processes, about
 * `GROUP_SIZE` to one. See docs/architecture.md.
 */
import { spawn, spawnSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { NODE_LINES, nodeBinary } from "./node_lines.ts";
import { TS_LOADER } from "../tests/_ts_args.mjs";
import { warm } from "../tests/_ts_cache.mjs";

const root = new URL("..", import.meta.url).pathname;
/**
 * Node's compile cache, for every process the suites start (test files, the runtimes they
 * spawn): Node 22 and 24 keep each module's compiled code (TypeScript stripped too) and load it
 * again instead of compiling, which took a test runtime's start from 1.2 to 1.5 s of CPU to 0.8 s on
 * Node 24. Node 20 has no such cache and ignores it. Set `NODE_COMPILE_CACHE` to put it elsewhere.
 */
process.env.NODE_COMPILE_CACHE ??= join(root, "node_modules/.cache/tether-compile");
/** How long one Node test (or suite) may run; the slowest take about two minutes. */
const TEST_TIMEOUT_MS = 600_000;
/**
 * Test files of what Deno runs: they spawn Deno (a JSR dry run, the Deploy entry under
 * `deno serve`) and Node only drives them, so the Node line does not change what they test.
 * They run on this machine's line and not again on the lines of `TEST_NODE_LINES` (the JSR dry
 * runs alone take about a minute a line).
 */
const DENO_DRIVEN = new Set([
  "tests/jsr.node.test.ts",
  "tests/deploy.node.test.ts",
  "tests/deploy_isolates.node.test.ts",
  "tests/hostile/deploy_open.node.test.ts",
]);
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", ".tether", "test-output"]);
/**
 * The slowest Node test files, slowest first: each Node suite starts them before the rest, so a
 * long file does not start late and run on alone at the suite's end. Measured in the Node 24
 * suite, four files at a time, 2 cores, 2026-12-06 (seconds from each file's start to its end):
 * 84, 73, 58, 56, 40, 34, 30, 15, 14, 14, 13, 12, 11, 10, 7, 7; every other file took under 7.
 * `scripts/node_suite.ts` keeps this order (`node --test` would sort the files by name). A name
 * that is no longer a test file stops the run (see docs/architecture.md, "Test time").
 */
const SLOWEST = [
  "tests/readme_clone.node.test.ts",
  "tests/e2e/composed.node.test.ts",
  "tests/readme_packages.node.test.ts",
  "tests/hostile/room_race_processes.node.test.ts",
  "tests/browser/restart.node.test.ts",
  "tests/multiprocess/multiprocess.node.test.ts",
  "tests/hostile/room_race.test.ts",
  "tests/e2e/threads.node.test.ts",
  "tests/build.node.test.ts",
  "tests/providers/long.test.ts",
  "server/kv/_denokv_sole.test.ts",
  "tests/e2e/approvals.node.test.ts",
  "tests/e2e/demo.node.test.ts",
  "tests/hostile/replay_after_kill.node.test.ts",
  "tests/e2e/inspector.node.test.ts",
  "tests/browser/remote_actions.node.test.ts",
];

async function find(dir: string, out: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith(".")) {
        await find(join(dir, entry.name), out);
      }
    } else if (entry.name.endsWith(".test.ts")) out.push(relative(root, join(dir, entry.name)));
  }
  return out.sort();
}

/** Every TypeScript source of the project (tests included). */
async function listSources(dir: string, out: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith(".")) {
        await listSources(join(dir, entry.name), out);
      }
    } else if (entry.name.endsWith(".ts")) out.push(relative(root, join(dir, entry.name)));
  }
  return out.sort();
}

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  code: number;
  /** The failed tests' names and places, repeated in the summary (CI logs keep only the tail). */
  failures?: string[];
}

/** Runs one suite and counts its results; its output goes to this process's as it comes. */
function run(
  name: string,
  cmd: string,
  args: string[],
  parse: (out: string) => Omit<SuiteResult, "name" | "code">,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SuiteResult> {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ").slice(0, 200)}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const tee = (chunk: Buffer, stream: NodeJS.WriteStream) => {
      out += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on("data", (c) => tee(c, process.stdout));
    child.stderr.on("data", (c) => tee(c, process.stderr));
    child.on("close", (code) => {
      // deno-lint-ignore no-control-regex -- strips the runners' colour codes
      const counts = parse(out.replace(/\x1b\[[0-9;]*m/g, ""));
      console.log(`=== ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
      resolve({ name, code: code ?? 1, ...counts });
    });
  });
}

/**
 * The failed tests a runner listed in its closing section (after `heading`): the lines `keep`
 * accepts, at most 40, so the summary names them however long each test's own output was.
 */
function failures(text: string, heading: RegExp, keep: RegExp): string[] {
  const at = text.search(heading);
  if (at < 0) return [];
  return text.slice(at).split("\n").slice(1).map((l) => l.trim()).filter((l) => keep.test(l))
    .slice(0, 40);
}

/** The last match wins: runners print progress lines before their closing summary. */
const num = (text: string, re: RegExp) => {
  const all = [
    ...text.matchAll(new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g")),
  ];
  return Number(all.at(-1)?.[1] ?? 0);
};

const only = process.argv.slice(2);
const want = (suite: string) => only.length === 0 || only.includes(suite);
const files = await find(root);
const browser = files.filter((f) => f.endsWith(".browser.test.ts"));
const nodeOnly = files.filter((f) => f.endsWith(".node.test.ts"));
const both = files.filter((f) => !browser.includes(f) && !nodeOnly.includes(f));
const stale = SLOWEST.filter((f) => !files.includes(f));
if (stale.length) {
  console.error(`scripts/test.ts names test files that are gone in SLOWEST: ${stale.join(", ")}`);
  process.exit(1);
}
/**
 * How many test files share one process (`scripts/node_suite.ts`): the files that run on Node
 * and Deno alike and are not among the slowest. They start no browser and no other Node, and
 * Deno still runs each of them alone. Measured on 2 cores, 2026-12-07, the 155 such files on
 * their own: Node 20 68 s and 116 s of CPU one process each, 29 s and 34 s twenty to a process;
 * Node 24 38 s and 55 s, 26 s and 25 s (docs/architecture.md, "Test time").
 */
const GROUP_SIZE = 20;

/**
 * A suite's entries for `scripts/node_suite.ts`: the files of SLOWEST first, slowest first, each
 * alone; then the files that run on Deno too, in groups of about `GROUP_SIZE` (dealt in turn,
 * so each group holds files from all over the tree); then the other Node-only files, alone.
 */
function suiteEntries(list: string[]): string[] {
  const rest = list.filter((f) => !SLOWEST.includes(f));
  const shared = rest.filter((f) => both.includes(f));
  const count = Math.ceil(shared.length / GROUP_SIZE);
  const groups = Array.from(
    { length: count },
    (_, g) => shared.filter((_, i) => i % count === g).join(","),
  );
  return [
    ...SLOWEST.filter((f) => list.includes(f)),
    ...groups,
    ...rest.filter((f) => !both.includes(f)),
  ];
}
const results: SuiteResult[] = [];

/** The Node lines besides this one that `TEST_NODE_LINES` names. */
function otherLines() {
  const asked = process.env.TEST_NODE_LINES ?? "";
  const majors = asked.split(",").map((m) => m.trim()).filter(Boolean);
  return NODE_LINES.filter((l) =>
    `v${l.major}.` !== process.version.slice(0, `v${l.major}.`.length) &&
    (majors.includes("all") || majors.includes(String(l.major)))
  );
}

/** Whether Node `version` runs TypeScript files by itself (type stripping is on by default). */
function stripsTypes(version: string): boolean {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}

if (want("node")) {
  // `npm start`'s build, once, before any suite: the end-to-end files run it too, and several of
  // them (across suites, too) building dist/ at once would replace files another one is loading.
  const prestart = spawnSync(process.execPath, [join(root, "scripts/prestart.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (prestart.status !== 0) {
    console.error("\n=== node: the build npm start runs first failed; the Node suites would fail");
  }
  const nodeSuite = (
    name: string,
    node: string,
    version: string,
    env?: NodeJS.ProcessEnv,
    files = suiteEntries([...both, ...nodeOnly]),
  ) =>
    run(
      name,
      node,
      [
        ...(stripsTypes(version) ? [] : ["--import", TS_LOADER]),
        join(root, "scripts/node_suite.ts"),
        // A test that hangs is cancelled with its name after ten minutes. On Node 22 and 24 its
        // file's process then still waits on whatever the test left open; `forceExit` would end
        // it, but it also drops the tests a file registers after its first ones have run (nine
        // of the policy rule tables', measured).
        String(TEST_TIMEOUT_MS),
        ...files,
      ],
      (out) => ({
        passed: num(out, /^\s*ℹ pass (\d+)/m),
        failed: num(out, /^\s*ℹ fail (\d+)/m) + num(out, /^\s*ℹ cancelled (\d+)/m),
        skipped: num(out, /^\s*ℹ skipped (\d+)/m),
        failures: failures(out, /^✖ failing tests:/m, /^(test at |✖ )/),
      }),
      env,
    );
  if (!stripsTypes(process.version)) {
    // Every source's JavaScript made once, before the suite's processes ask for it together.
    const sources = await listSources(root);
    await warm(sources.filter((f) => !f.endsWith(".browser.test.ts")).map((f) => join(root, f)));
  }
  results.push(
    await nodeSuite(`node ${process.version}`, process.execPath, process.version),
  );
  const lines = otherLines();
  const left = NODE_LINES.filter((l) =>
    !lines.includes(l) && !process.version.startsWith(`v${l.major}.`)
  );
  if (left.length) {
    console.log(
      `\nNOTE: the Node suite ran on this machine's Node ${process.version} only; TEST_NODE_LINES=${
        left.map((l) => l.major).join(",")
      } runs it on Node ${left.map((l) => l.major).join(" and ")} too.`,
    );
  }
  // The other lines run one after another, four files at a time each, like this machine's line.
  // Run together (three files each, as until 2026-12-05) they took more processor time than the
  // two one after another: on 2 cores, 1363 s of it and 688 s of wall time for Node 22 and 24
  // together, against 548 s and 281 s for Node 24 alone (docs/architecture.md).
  const files = suiteEntries([...both, ...nodeOnly].filter((f) => !DENO_DRIVEN.has(f)));
  for (const line of lines) {
    let node: string;
    try {
      node = nodeBinary(line);
    } catch (error) {
      console.error(`\n=== node ${line.major}: ${(error as Error).message}`);
      results.push({ name: `node v${line.version}`, passed: 0, failed: 1, skipped: 0, code: 1 });
      continue;
    }
    // Children that run `node` or `npm` by name (the README tests) get this line's Node too.
    const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` };
    results.push(await nodeSuite(`node v${line.version}`, node, line.version, env, files));
  }
}
if (want("deno")) {
  results.push(
    await run("deno", process.execPath, [
      join(root, "node_modules/deno/bin.cjs"),
      "test",
      "-A",
      "--unstable-kv",
      "--parallel",
      "--no-check",
      ...both,
    ], (out) => ({
      passed: num(out, /(\d+) passed/),
      failed: num(out, /(\d+) failed/),
      skipped: num(out, /(\d+) ignored/),
      failures: failures(out, /^ FAILURES\s*$/m, / => /),
    })),
  );
}
if (want("static")) {
  // Lint, formatting and types: one check each, counted like tests. Browser test files run in
  // Chromium with mocha's globals, so the type check covers everything else.
  const deno = join(root, "node_modules/deno/bin.cjs");
  const sources = (await listSources(root)).filter((f) => !f.endsWith(".browser.test.ts"));
  for (
    const [name, args] of [
      ["lint", ["lint"]],
      ["fmt", ["fmt", "--check"]],
      ["types", ["check", ...sources]],
    ] as const
  ) {
    results.push(
      await run(
        name,
        process.execPath,
        [deno, ...args],
        () => ({ passed: 0, failed: 0, skipped: 0 }),
      ),
    );
    const last = results.at(-1)!;
    if (last.code === 0) last.passed = 1;
  }
}
if (want("browser") && browser.length) {
  results.push(
    await run("browser", process.execPath, [
      join(root, "node_modules/@web/test-runner/dist/bin.js"),
      "--config",
      "web-test-runner.config.mjs",
    ], (out) => ({
      passed: num(out, /(\d+) passed/),
      failed: num(out, /(\d+) failed/),
      skipped: num(out, /(\d+) skipped/),
    })),
  );
}

console.log("\n=== summary");
let passed = 0;
let failed = 0;
let skipped = 0;
for (const r of results) {
  const broken = r.code !== 0 && r.failed === 0 ? 1 : 0;
  console.log(
    `${r.name}: ${r.passed} passed, ${r.failed + broken} failed, ${r.skipped} skipped${
      broken ? ` (exit code ${r.code})` : ""
    }`,
  );
  for (const f of r.failures ?? []) console.log(`  ${f}`);
  passed += r.passed;
  failed += r.failed + broken;
  skipped += r.skipped;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
