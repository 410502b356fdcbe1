/**
 * The README as a test: reads the marked blocks of a Markdown file and runs
 * them where a user would, checking what the text says they show.
 *
 * The marking: an HTML comment right before a fence,
 * `<!-- example ID: KIND [NAME] in PLACE[, serves][, …] -->`, where KIND is
 * how the block runs and PLACE where (the words after them are for the
 * reader):
 *
 * - `sh`: shell commands, run with bash in PLACE. A line `# → TEXT` after a
 *   command is what that command prints: every such line must match a line
 *   of its output, in order, `…` standing for any text. With `serves` the
 *   block starts servers and stays running while later blocks use them; its
 *   `# →` lines must each appear in the output (any order) before it counts
 *   as started.
 * - `file NAME`: the block is the file NAME in PLACE, written as is.
 * - `html`, `module NAME`, `chat`: run by the test that names the ID (a page
 *   in Chromium, a bundled module, what a person types into the demo).
 * - `install`: an `npm install` of packages; the test installs exactly those
 *   (Tether's own from the packed tarballs), with the packages the block's
 *   section names in its text (`npm install x`, "Install `@tether/web`").
 *
 * PLACE is `clone` (a fresh clone of this repository, with the working
 * tree's changes), `runtime-project` or `web-project` (empty projects with
 * the packed packages installed). Every fence of the README carries a marker
 * and every marker is run by one test (tests/readme_claims.test.ts checks).
 *
 * What may differ from the text, and only this: ports. A test never binds
 * the fixed ports the text shows (7100, 7200, 7300); each server listens on
 * a free port (`PORT=0`, `--port 0`, `port: 0`), the port it prints stands
 * for the text's in the `# →` check, and later commands, pages and files
 * get the actual port where the text has the fixed one.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("..", import.meta.url));

/** The fixed ports the text shows; a test gives each server a free one instead. */
export const FIXED_PORTS = [7100, 7200, 7300];

/** One marked block. */
export interface Example {
  id: string;
  /** `sh`, `file`, `html`, `module` or `chat`. */
  kind: string;
  /** The file a `file` or `module` block is. */
  name?: string;
  place: string;
  serves: boolean;
  /** The marker's text after the id. */
  how: string;
  /** The fence's language. */
  lang: string;
  code: string;
  /** The Markdown file and the fence's line (1-based). */
  source: string;
  line: number;
  /** The text from the block's section heading to the marker. */
  section: string;
}

const MARKER = /^<!-- example ([\w-]+): (.+?) -->$/;

/** Every fence of a Markdown file, with its marker when it has one. */
export function fences(
  markdown: string,
  source: string,
): { line: number; lang: string; code: string; marker?: string }[] {
  const lines = markdown.split("\n");
  const out: { line: number; lang: string; code: string; marker?: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    assert.ok(end > i, `${source}:${i + 1}: a fence that never closes`);
    const before = lines[i - 1] ?? "";
    out.push({
      line: i + 1,
      lang: open[1],
      code: lines.slice(i + 1, end).join("\n") + "\n",
      marker: MARKER.test(before) ? before : undefined,
    });
    i = end;
  }
  return out;
}

/** The marked blocks of a Markdown file (relative to the repository), by id. */
export async function examples(file: string): Promise<Map<string, Example>> {
  const markdown = await readFile(join(ROOT, file), "utf8");
  const lines = markdown.split("\n");
  const found = new Map<string, Example>();
  for (const fence of fences(markdown, file)) {
    if (!fence.marker) continue;
    const [, id, how] = MARKER.exec(fence.marker)!;
    const words = /^(sh|file|html|module|chat|install)(?: ([\w.-]+))? in ([\w-]+)/.exec(how);
    assert.ok(words, `${file}:${fence.line - 1}: the marker of ${id} says how and where it runs`);
    assert.ok(!found.has(id), `${file}: the id ${id} is used twice`);
    let head = fence.line - 2;
    while (head > 0 && !/^#{1,6} /.test(lines[head])) head--;
    found.set(id, {
      id,
      kind: words[1],
      name: words[2],
      place: words[3],
      serves: /, serves\b/.test(how),
      how,
      lang: fence.lang,
      code: fence.code,
      source: file,
      line: fence.line,
      section: lines.slice(head, fence.line - 2).join("\n"),
    });
  }
  return found;
}

/** Looks up a block; fails the test when the text no longer has it. */
export function block(all: Map<string, Example>, id: string): Example {
  const found = all.get(id);
  assert.ok(found, `the text has no block marked ${id}`);
  return found;
}

/** Where blocks run: a folder, its environment, the ports its servers got. */
export class Place {
  readonly dir: string;
  readonly env: Record<string, string>;
  /** Fixed port of the text → the port the server took. */
  readonly ports = new Map<number, number>();
  readonly #servers: ChildProcess[] = [];

  constructor(dir: string, env: Record<string, string> = {}) {
    this.dir = dir;
    const base = { ...process.env } as Record<string, string>;
    delete base.NODE_OPTIONS; // no tsx loader inherited from the test runner
    for (const key of Object.keys(base)) if (/^(npm_|INIT_CWD)/.test(key)) delete base[key];
    delete base.FORCE_COLOR;
    this.env = { ...base, NO_COLOR: "1", PORT: "0", ...env };
  }

  /** The text with each fixed port the servers replaced by the port they took. */
  substitute(text: string): string {
    let out = text;
    for (const [fixed, actual] of this.ports) {
      out = out.replace(
        new RegExp(`(localhost|127\\.0\\.0\\.1):${fixed}\\b`, "g"),
        `127.0.0.1:${actual}`,
      );
    }
    return out.replace(/\blocalhost:(\d+)/g, "127.0.0.1:$1");
  }

  /** Writes a `file` block (with `port: 7200` made `port: 0`). */
  async write(example: Example): Promise<string> {
    assert.equal(example.kind, "file", `${example.id} is a file`);
    const path = join(this.dir, example.name!);
    await writeFile(path, freePorts(example.code));
    return path;
  }

  /**
   * Runs an `sh` block that ends by itself, in a shell of its own; checks each
   * `# →` line against its command's output.
   */
  async run(example: Example, timeoutMs = 180_000): Promise<string[]> {
    assert.equal(example.kind, "sh", `${example.id} is shell commands`);
    assert.ok(!example.serves, `${example.id} serves: start it with serve()`);
    const steps = shellSteps(this.substitute(example.code));
    const separator = "@@tether-readme-step@@";
    const script = [
      "set -eo pipefail",
      "exec 2>&1",
      ...steps.map((s) => `${s.script}\nprintf '\\n%s\\n' ${separator}`),
    ].join("\n");
    const { code, out: raw } = await runBash(script, this.dir, this.env, timeoutMs);
    const out = plain(raw);
    const outputs = out.split(`\n${separator}\n`);
    assert.equal(code, 0, `${where(example)}: the commands failed (exit ${code}):\n${out}`);
    steps.forEach((step, i) => checkLines(example, step.expected, outputs[i] ?? "", true, this));
    return outputs;
  }

  /** Starts an `sh` block that serves; resolves once each `# →` line has been printed. */
  async serve(example: Example, timeoutMs = 180_000): Promise<string> {
    assert.equal(example.kind, "sh", `${example.id} is shell commands`);
    assert.ok(example.serves, `${example.id} does not serve: run it with run()`);
    const steps = shellSteps(freePorts(this.substitute(example.code)));
    const expected = steps.flatMap((s) => s.expected);
    assert.ok(expected.length, `${where(example)}: a server block says what it prints`);
    const script = [
      "exec 2>&1",
      steps.map((s) => s.script).join("\n"),
      "wait",
    ].join("\n");
    const child = spawn("bash", ["-c", script], {
      cwd: this.dir,
      env: this.env,
      detached: true, // its own process group: stop() ends every process it started
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#servers.push(child);
    let out = "";
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${where(example)}: not started within ${timeoutMs} ms:\n${out}`)),
        timeoutMs,
      );
      const read = (chunk: Buffer) => {
        out += plain(String(chunk));
        if (expected.every((line) => lineMatch(line, out, this))) {
          clearTimeout(timer);
          checkLines(example, expected, out, false, this);
          resolve(out);
        }
      };
      child.stdout!.on("data", read);
      child.stderr!.on("data", read);
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${where(example)}: exited with ${code} before it printed:\n${out}`));
      });
    });
  }

  /** Stops every server this place started (their whole process groups). */
  async stop(): Promise<void> {
    await Promise.all(this.#servers.splice(0).map(stopGroup));
    this.ports.clear();
  }
}

/** Splits shell text at its `# →` lines: each step's commands and the lines they must print. */
export function shellSteps(code: string): { script: string; expected: string[] }[] {
  const steps: { script: string; expected: string[] }[] = [];
  let script: string[] = [];
  let expected: string[] = [];
  for (const line of code.replace(/\n$/, "").split("\n")) {
    const arrow = /^# → (.*)$/.exec(line);
    if (arrow) {
      expected.push(arrow[1]);
      continue;
    }
    if (expected.length) {
      steps.push({ script: script.join("\n"), expected });
      script = [];
      expected = [];
    }
    script.push(line);
  }
  steps.push({ script: script.join("\n"), expected });
  return steps.filter((s) => s.script.trim() || s.expected.length);
}

/** A `# →` line as a pattern: `…` is any text, a fixed port any port (captured). */
function pattern(expected: string): RegExp {
  const fixed = new RegExp(`\\b(${FIXED_PORTS.join("|")})\\b`, "g");
  const named = new Set<string>();
  const parts = expected.split("…").map((piece) =>
    piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(fixed, (port) => {
      if (named.has(port)) return "\\d+";
      named.add(port);
      return `(?<p${port}>\\d+)`;
    })
  );
  return new RegExp(`^${parts.join(".*")}$`, "m");
}

function lineMatch(expected: string, output: string, place: Place): boolean {
  return output.split("\n").some((line) => matchOne(expected, line, place) !== null);
}

function matchOne(expected: string, line: string, place: Place): RegExpExecArray | null {
  const found = pattern(place.substitute(expected)).exec(line.replace(/\r$/, ""));
  return found;
}

/** Checks the expected lines against output (in order when `ordered`); records the ports servers took. */
function checkLines(
  example: Example,
  expected: string[],
  output: string,
  ordered: boolean,
  place: Place,
): void {
  const lines = output.split("\n");
  let from = 0;
  for (const want of expected) {
    const at = lines.findIndex((line, i) => i >= from && matchOne(want, line, place) !== null);
    assert.ok(
      at >= 0,
      `${where(example)}: the text says a command prints\n  ${want}\nbut it printed:\n${output}`,
    );
    const groups = matchOne(want, lines[at], place)!.groups ?? {};
    for (const [name, value] of Object.entries(groups)) {
      if (value !== undefined) place.ports.set(Number(name.slice(1)), Number(value));
    }
    if (ordered) from = at + 1;
  }
}

/** Fixed ports in commands and files become free ones. */
export function freePorts(text: string): string {
  let out = text;
  for (const port of FIXED_PORTS) {
    out = out.replace(new RegExp(`(--port[ =]|port: )${port}\\b`, "g"), "$10");
  }
  return out;
}

// deno-lint-ignore no-control-regex -- terminal colours some tools print whatever NO_COLOR says
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");
const where = (e: Example) => `${e.source}:${e.line} (${e.id})`;

/** Runs a bash script; resolves with its exit code and output. */
export function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const timer = setTimeout(() => {
      out += `\n(killed after ${timeoutMs} ms)`;
      void stopGroup(child);
    }, timeoutMs);
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Ends a process group started detached, and waits for its leader. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch { /* already gone */ }
  const late = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch { /* gone */ }
  }, 5_000);
  await exited;
  clearTimeout(late);
}

/** Runs a command (no shell); rejects with its output on a non-zero exit. */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  const full = { ...process.env, ...env } as Record<string, string>;
  delete full.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: full, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on(
      "close",
      (code) =>
        code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")}: ${code}\n${out}`)),
    );
  });
}

/**
 * A fresh clone of this repository with the working tree's changes: `git
 * clone` of the committed history, then every file of the working tree that
 * git tracks or would track (changed, new, deleted) put in the clone as it is
 * here. Ignored files (node_modules/, dist/, .tether/) stay out.
 */
export async function freshClone(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tether-clone-"));
  await run("git", ["clone", "--quiet", "--no-hardlinks", ROOT, dir], tmpdir());
  const listed = (await run(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    ROOT,
  )).split("\0").filter(Boolean);
  const inClone = (await run("git", ["ls-files", "-z"], dir)).split("\0").filter(Boolean);
  const wanted = new Set<string>();
  for (const file of listed) {
    if (!existsSync(join(ROOT, file))) continue; // deleted here, not yet committed
    wanted.add(file);
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(join(ROOT, file), join(dir, file));
    const { mode } = await stat(join(ROOT, file));
    await chmod(join(dir, file), mode);
  }
  for (const file of inClone) if (!wanted.has(file)) await rm(join(dir, file), { force: true });
  return dir;
}

/** npm's flags for installs in tests: the npm cache first, no audit or funding notices. */
export const NPM_INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund"];

/**
 * The packages the text tells the reader to install for a block: those its
 * section names (`npm install …`, "Install `@tether/…`") and those of the
 * `install` blocks of the same file and place.
 */
export function installsNamed(example: Example, all: Iterable<Example> = []): string[] {
  const names = new Set<string>();
  for (const other of all) {
    if (other.kind !== "install" || other.source !== example.source) continue;
    if (other.place !== example.place) continue;
    for (const m of other.code.matchAll(/^npm install (.+)$/gm)) {
      for (const name of m[1].trim().split(/\s+/)) if (!name.startsWith("-")) names.add(name);
    }
  }
  for (const m of example.section.matchAll(/`npm install ([^`]+)`/g)) {
    for (const name of m[1].trim().split(/\s+/)) if (!name.startsWith("-")) names.add(name);
  }
  for (const m of example.section.matchAll(/[Ii]nstall `(@tether\/[\w-]+)`/g)) names.add(m[1]);
  return [...names];
}

/** The packages a JavaScript block imports (bare specifiers, `node:` left out). */
export function importsOf(code: string): string[] {
  const names = new Set<string>();
  for (
    const m of code.matchAll(
      /\bfrom\s*["']([^"'.][^"']*)["']|\bimport\s*\(\s*["']([^"'.][^"']*)["']/g,
    )
  ) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith("node:")) continue;
    const parts = spec.split("/");
    names.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
  return [...names];
}
