/**
 * `tests/_ts_loader.mjs`, which runs the Node 20 suite's TypeScript: a file
 * loads as its current text (never a stale transform from the cache), and a
 * stack trace names the TypeScript line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { TS_LOADER } from "./_ts_args.mjs";

function run(file: string): { status: number | null; out: string; err: string } {
  const done = spawnSync(process.execPath, ["--import", TS_LOADER, file], { encoding: "utf8" });
  return { status: done.status, out: done.stdout.trim(), err: done.stderr };
}

test("a file edited after it was cached loads as edited, even at the same size", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-ts-loader-"));
  try {
    const file = join(dir, "answer.ts");
    await writeFile(file, "const n: number = 1;\nconsole.log(n);\n");
    assert.deepEqual(run(file), { status: 0, out: "1", err: "" });
    await writeFile(file, "const n: number = 2;\nconsole.log(n);\n");
    // The same size, and a modification time the cache has not seen.
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    assert.deepEqual(run(file), { status: 0, out: "2", err: "" });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a stack trace names the TypeScript line, types and all", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-ts-loader-"));
  try {
    const file = join(dir, "throws.ts");
    await writeFile(
      file,
      [
        "interface Shape {",
        "  size: number;",
        "}",
        "type Other = Shape | null;",
        "const shape: Other = { size: 1 };",
        'if (shape) throw new Error("from line six");',
        "",
      ].join("\n"),
    );
    const { status, err } = run(file);
    assert.notEqual(status, 0);
    assert.match(err, /from line six/);
    assert.match(err, new RegExp(`${file.replaceAll(".", "\\.")}:6:`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
