/**
 * What the README and docs/ say, held to the repository: every block of a
 * README is marked and run by a test (tests/readme_clone.node.test.ts,
 * tests/readme_packages.node.test.ts), every link opens a file (and a
 * heading) that exists, every repository path the README names exists, the
 * bench parts it lists are the bench's, it stays under 350 lines, no text
 * cites the specification outside the repository, and the claims a
 * newcomer once found false stay true (each pinned here to the test or the
 * code that holds it).
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { BENCH_PARTS } from "../bench/parts.ts";
import { examples, fences } from "./_readme.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const read = (file: string) => readFile(join(root, file), "utf8");
const READMES = ["README.md", "packages/web/README.md", "packages/runtime/README.md"];
const RUNNERS = ["tests/readme_clone.node.test.ts", "tests/readme_packages.node.test.ts"];

async function docs(): Promise<string[]> {
  return (await readdir(join(root, "docs"))).filter((f) => f.endsWith(".md")).map((f) =>
    `docs/${f}`
  );
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

async function anchors(file: string): Promise<Set<string>> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let inFence = false;
  for (const line of (await read(file)).split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const h = !inFence && /^#{1,6} (.+)$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test("every block of every README is marked, and every marked block is run by a test", async () => {
  const runners = (await Promise.all(RUNNERS.map(read))).join("\n");
  for (const file of [...READMES, "docs/configuration.md"]) {
    const markdown = await read(file);
    if (READMES.includes(file)) {
      for (const fence of fences(markdown, file)) {
        assert.ok(fence.marker, `${file}:${fence.line}: a block without an example marker`);
      }
    }
    for (const [id, example] of await examples(file)) {
      if (example.kind === "install") continue; // what the packages test installs
      assert.ok(runners.includes(`"${id}"`), `${file}:${example.line}: no test runs ${id}`);
    }
  }
});

test("the README stays under 350 lines", async () => {
  const lines = (await read("README.md")).split("\n").length;
  assert.ok(lines < 350, `README.md has ${lines} lines; move detail to docs/`);
});

test("the bench parts the README lists are the bench's", async () => {
  const readme = await read("README.md");
  const sentence = /the\s+parts\s+being\s+((?:`\w+`(?:,\s+|\s+and\s+)?)+)/.exec(readme);
  assert.ok(sentence, "the README lists the bench parts");
  const listed = [...sentence[1].matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.deepEqual(listed, Object.keys(BENCH_PARTS));
});

test("every relative link in the READMEs and docs/ opens a file, and its heading", async () => {
  for (const file of [...READMES, ...(await docs())]) {
    const text = await read(file);
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const [path, anchor] = m[1].split("#");
      if (/^[a-z]+:/i.test(m[1])) continue;
      const target = path ? normalize(join(dirname(file), path)) : file;
      assert.ok(existsSync(join(root, target)), `${file} links ${m[1]}: ${target} does not exist`);
      if (anchor && target.endsWith(".md")) {
        assert.ok(
          (await anchors(target)).has(anchor),
          `${file} links ${m[1]}: ${target} has no heading #${anchor}`,
        );
      }
    }
  }
});

test("every repository path the READMEs and docs/ name exists", async () => {
  const top = /^(bench|client|demo|docs|elements|packages|protocol|scripts|server|tests)\//;
  // A build's output directory (`demo/dist/`) exists only once something has built it; named
  // exactly as `.gitignore` lists it, it is a real place, in a fresh clone too.
  const built = new Set((await read(".gitignore")).split("\n").map((line) => line.trim()));
  for (const file of [...READMES, ...(await docs())]) {
    for (const m of (await read(file)).matchAll(/`([\w./-]+)`/g)) {
      const path = m[1];
      if (!top.test(path) || path.includes("*") || built.has(path)) continue;
      assert.ok(existsSync(join(root, path)), `${file} names ${path}, which does not exist`);
    }
  }
});

test("code and docs cite docs/, never the specification outside the repository", async () => {
  const offenders: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (![".git", "node_modules", "dist", ".tether", "test-output"].includes(entry.name)) {
          await walk(path);
        }
      } else if (/\.(ts|mjs|js|md|json|html)$/.test(entry.name)) {
        const text = await read(path);
        if (/runtime-behaviour\.md|shared\/spec|\.\.\/shared\//.test(text)) offenders.push(path);
      }
    }
  };
  for (const dir of ["bench", "client", "demo", "docs", "elements", "packages", "protocol"]) {
    await walk(dir);
  }
  for (const dir of ["scripts", "server", "tests"]) await walk(dir);
  for (const file of ["README.md", "deno.json", "package.json"]) {
    if (/runtime-behaviour\.md|shared\/spec/.test(await read(file))) offenders.push(file);
  }
  // This file names what it looks for.
  const self = relative(root, fileURLToPath(import.meta.url));
  assert.deepEqual(offenders.filter((f) => f !== self), []);
});

test("a delete in the demo asks with the buttons the text names, never 'Apply twice'", async () => {
  const confirm = await read("elements/confirm.ts");
  for (const label of ["Continue…", "Yes, apply"]) {
    assert.ok(confirm.includes(label), `<tether-confirm> has a "${label}" button`);
  }
  const [readme, remote] = [await read("README.md"), await read("docs/remote-tools.md")];
  const demo = (await examples("README.md")).get("demo-delete")!;
  assert.match(demo.code, /^▸ Continue…\n▸ Yes, apply$/m, "the README's walkthrough presses both");
  assert.match(remote, /Continue…, then Yes, apply/);
  for (const text of [readme, remote]) assert.doesNotMatch(text, /Apply twice/);
});

test("the operator's refusals are worded as the runtime answers them (403 for a wrong token)", async () => {
  const walkthrough = (await examples("README.md")).get("policy-walkthrough")!;
  assert.match(walkthrough.code, /Bearer wrong'\n# → 403\n/, "the README runs a wrong token: 403");
  const demo = await read("docs/demo.md");
  assert.match(demo, /403: the token is wrong, or missing/);
  assert.doesNotMatch(demo, /token is refused \(401\)/);
});

test("whether POLICY__FILE was loaded shows at start and in /health, as the text says", async () => {
  const start = (await examples("README.md")).get("policy-start")!;
  assert.match(start.code, /"msg":"policy file loaded"/);
  const walkthrough = (await examples("README.md")).get("policy-walkthrough")!;
  assert.match(walkthrough.code, /"policy":\{"backend":"local","source":"file","policies":1\}/);
  assert.match(await read("docs/policy.md"), /The start logs `policy file loaded`/);
  assert.match(
    await read("server/policy/status.test.ts"),
    /a loaded policy file is logged at start and reported by \/health/,
  );
});

test("the docs agree that the runtime exports OTLP traces, and a test holds it", async () => {
  const host = await read("docs/agent-host.md");
  assert.doesNotMatch(host, /the runtime uses neither/);
  assert.match(host, /the\s+runtime sends its spans there when `OTEL_EXPORTER_OTLP_ENDPOINT`/);
  assert.match(await read("docs/policy.md"), /## Traces\n\nWith `OTEL_EXPORTER_OTLP_ENDPOINT` set/);
  assert.match(
    await read("server/trace/tracing.test.ts"),
    /exported as OTLP JSON spans with the session id/,
  );
});
