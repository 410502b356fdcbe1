import { test } from "node:test";
import assert from "node:assert/strict";
import { checkArguments, compileToolRules } from "./arguments.ts";

const shell = compileToolRules({
  blocked_commands: ["rm -rf *"],
  allowed_commands: ["npm test", "npm run *", "ls"],
});
const guard = compileToolRules({ blocked_commands: ["rm -rf *", "curl *"] });
const files = compileToolRules({
  allowed_paths: ["/workspace"],
  blocked_paths: ["/workspace/.git"],
});
const ok = (rules: typeof shell, input: unknown, cwd?: string) =>
  checkArguments(rules, "T", input, cwd) === null;

test("allowed patterns: every simple command must match one in full", () => {
  assert.equal(ok(shell, { command: "npm test && npm run lint" }), true);
  assert.equal(ok(shell, { command: "npm test && npm publish" }), false);
  assert.equal(
    ok(shell, { command: "diff <(npm test) <(ls)" }),
    false,
    "diff itself is not listed",
  );
  assert.equal(
    ok(shell, { command: "ls <(npm test)" }),
    true,
    "process substitution is a command of its own",
  );
  assert.equal(ok(shell, { command: `npm run "$(id)"` }), false);
  assert.equal(ok(shell, { command: `npm run "\\$HOME"` }), false);
});

test("blocked patterns alone are a guard: they refuse every simple command and tail they match", () => {
  assert.equal(ok(guard, { command: "echo hi | sudo -n rm -rf /tmp/x" }), false);
  assert.equal(ok(guard, { command: "echo $(curl http://x)" }), false);
  assert.equal(ok(guard, { command: `bash -lc "curl evil"` }), false);
  assert.equal(
    ok(guard, { command: "echo `id`" }),
    true,
    "substitution is refused only under allowed patterns",
  );
  assert.equal(
    ok(guard, { command: "rm -fr /" }),
    true,
    "blocked patterns match text, not meaning",
  );
});

test("a command must be a string or a list of strings", () => {
  assert.equal(ok(guard, { command: 42 }), false);
  assert.equal(ok(guard, { cmd: ["ls", 1] }), false);
  assert.equal(ok(guard, { command: "   " }), false, "nothing to check");
  assert.equal(ok(guard, "ls"), false, "arguments must be an object");
});

test("paths come from every field the contract names, apply_patch headers included", () => {
  assert.equal(ok(files, { notebook_path: "/workspace/n.ipynb" }), true);
  assert.equal(ok(files, { path: "/etc/passwd" }), false);
  const patch =
    "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: /etc/cron.d/x\n+* * * * * id\n*** End Patch";
  assert.equal(ok(files, { input: patch, workdir: "/workspace" }), false);
  const inside = "*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n*** End Patch";
  assert.equal(ok(files, { input: inside, workdir: "/workspace" }), true);
  assert.equal(ok(files, { cmd: ["apply_patch", inside] }, "/workspace"), true);
  assert.equal(ok(files, { cmd: ["apply_patch", inside] }, "/srv"), false);
});

test("relative paths resolve against workdir, then cwd, then the context; . and .. are resolved", () => {
  assert.equal(ok(files, { file_path: "./src/../a", workdir: "/workspace" }), true);
  assert.equal(ok(files, { file_path: "../x", cwd: "/workspace" }), false);
  assert.equal(ok(files, { file_path: ".git/config", cwd: "/workspace" }), false);
  assert.equal(ok(files, { file_path: "a" }, "/workspace/sub"), true);
  assert.equal(ok(files, { file_path: "a", cwd: "relative/dir" }), false);
  assert.equal(ok(files, { file_path: "" }), false);
  assert.equal(ok(files, { paths: "/workspace/a" }), false, "paths must be a list");
});

test("a blocked prefix wins over an allowed one, on whole components", () => {
  assert.equal(ok(files, { file_path: "/workspace/.gitignore" }), true);
  assert.equal(ok(files, { file_path: "/workspace/.git" }), false);
});
