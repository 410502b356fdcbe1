/**
 * `scripts/node_suite.ts`, which runs each Node suite of `npm test`: files joined by `,` share
 * one process and every member's tests run, after all of them are loaded; a member that fails to
 * load is a failed test named after it, the rest of its group still runs, and the suite's exit
 * code says so.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { tsArgs } from "./_ts_args.mjs";

const SUITE = new URL("../scripts/node_suite.ts", import.meta.url).pathname;

/** Runs the suite on `entries` in `dir`; the spec reporter's output, colours off. */
function suite(dir: string, entries: string[]): { status: number | null; out: string } {
  const done = spawnSync(process.execPath, [...tsArgs(), SUITE, "60000", ...entries], {
    cwd: dir,
    encoding: "utf8",
    // Without NODE_TEST_CONTEXT, which tells `run()` it is inside a test file and should not
    // run files (this test's own process has it).
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return { status: done.status, out: done.stdout + done.stderr };
}

/** A test file whose one test records its process id in a file named after it. */
const pidTest = (name: string) =>
  `import { test } from "node:test";\nimport { writeFileSync } from "node:fs";\n` +
  `test(${JSON.stringify(name)}, () => writeFileSync(${
    JSON.stringify(name + ".pid")
  }, String(process.pid)));\n`;

test("a group's files share one process and each of their tests runs", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-suite-test-"));
  try {
    for (const name of ["a", "b", "c"]) await writeFile(join(dir, `${name}.mjs`), pidTest(name));
    const { status, out } = suite(dir, ["a.mjs,b.mjs", "c.mjs"]);
    assert.equal(status, 0, out);
    assert.match(out, /ℹ pass 3/);
    const pid = async (name: string) =>
      (await import("node:fs/promises")).readFile(join(dir, `${name}.pid`), "utf8");
    assert.equal(await pid("a"), await pid("b"), "a and b ran in one process");
    assert.notEqual(await pid("a"), await pid("c"), "c ran alone");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("no test of a group runs before every member is loaded", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-suite-test-"));
  try {
    await writeFile(
      join(dir, "first.mjs"),
      `import { test } from "node:test";\nimport assert from "node:assert/strict";\n` +
        `test("the last member's top-level code ran", () => assert.equal(globalThis.lastLoaded, true));\n`,
    );
    // A member that takes a while to load, as one importing the server's modules does.
    await writeFile(
      join(dir, "last.mjs"),
      `await new Promise((resolve) => setTimeout(resolve, 200));\nglobalThis.lastLoaded = true;\n`,
    );
    const { status, out } = suite(dir, ["first.mjs,last.mjs"]);
    assert.equal(status, 0, out);
    assert.match(out, /ℹ pass 1/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a member that fails to load fails the suite by name, and its group runs on", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-suite-test-"));
  try {
    await writeFile(join(dir, "broken.mjs"), `throw new Error("this file cannot load");\n`);
    await writeFile(join(dir, "fine.mjs"), pidTest("fine"));
    const { status, out } = suite(dir, ["broken.mjs,fine.mjs"]);
    assert.equal(status, 1, out);
    assert.match(out, /loading broken\.mjs/);
    assert.match(out, /this file cannot load/);
    assert.match(out, /ℹ pass 1/);
    assert.match(out, /ℹ fail 1/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
