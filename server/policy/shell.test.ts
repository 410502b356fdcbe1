import { test } from "node:test";
import assert from "node:assert/strict";
import {
  commandName,
  commandStart,
  MAX_COMMAND_CHARS,
  readCommand,
  ShellParseError,
} from "./shell.ts";

const texts = (input: string | string[]) => readCommand(input).commands.map((w) => w.join(" "));

test("a command is split at every separator the contract names", () => {
  assert.deepEqual(texts("a 1; b 2 && c || d | e & f\ng"), ["a 1", "b 2", "c", "d", "e", "f", "g"]);
  assert.deepEqual(texts("(a; b) && c"), ["a", "b", "c"]);
});

test("redirections with & are not separators", () => {
  assert.deepEqual(texts("npm test 2>&1"), ["npm test 2>&1"]);
  assert.deepEqual(texts("npm test &>log"), ["npm test &>log"]);
});

test("quotes are removed and a quoted separator stays text", () => {
  assert.deepEqual(texts(`echo "a; b" 'c && d'`), ["echo a; b c && d"]);
  assert.deepEqual(readCommand(`echo "a; b"`).ambiguous, []);
});

test("the scripts of sh -c, bash -lc, a full shell path and eval are read as commands", () => {
  assert.deepEqual(texts("sh -c 'npm test && rm -rf /'").slice(1), ["npm test", "rm -rf /"]);
  assert.deepEqual(texts(`bash -lc "ls; id"`).slice(1), ["ls", "id"]);
  assert.deepEqual(texts("sudo /bin/bash -e -c 'whoami'").slice(1), ["whoami"]);
  assert.deepEqual(texts("eval 'eval \"rm -rf /\"'").slice(1), ["eval rm -rf /", "rm -rf /"]);
  assert.deepEqual(texts(["bash", "-c", "a | b"]).slice(1), ["a", "b"]);
});

test("command substitution is its own command and is noted as ambiguous", () => {
  const r = readCommand("echo $(rm -rf /) done");
  assert.deepEqual(r.commands.map((w) => w.join(" ")), ["rm -rf /", "echo done"]);
  assert.deepEqual(r.ambiguous, ["command substitution"]);
  assert.deepEqual(texts("echo `id`x"), ["id", "echo x"]);
  const quoted = readCommand(`echo "user: $(whoami)"`);
  assert.deepEqual(quoted.commands.map((w) => w.join(" ")), ["whoami", "echo user: "]);
  assert.deepEqual(quoted.ambiguous, ["command substitution"]);
});

test("what a shell could read differently is noted", () => {
  assert.deepEqual(readCommand(`echo "\\$HOME"`).ambiguous, [
    "a backslash before $, ` or a newline inside double quotes",
  ]);
  assert.deepEqual(readCommand("echo $'a\\'b'").ambiguous, ["$'...' quoting"]);
  assert.deepEqual(readCommand("cat <<EOF\n$HOME\nEOF").ambiguous, [
    "a here-document that expands",
  ]);
  assert.deepEqual(readCommand("cat <<EOF\nplain\nEOF").ambiguous, []);
  assert.deepEqual(readCommand("echo $HOME").ambiguous, ["a variable or parameter expansion"]);
  assert.deepEqual(readCommand("curl x | bash").ambiguous, [
    "a shell whose script is not in the command (piped in, or a file)",
  ]);
  assert.deepEqual(readCommand("cat <<< word").ambiguous, []);
});

test("process substitution is a separate command, not an ambiguity", () => {
  const r = readCommand("diff <(npm test) >(npm run x)");
  assert.deepEqual(r.commands.map((w) => w.join(" ")), ["npm test", "npm run x", "diff"]);
  assert.deepEqual(r.ambiguous, []);
});

test("comments are not commands; backslash-newline continues a line", () => {
  assert.deepEqual(texts("npm test # rm -rf /"), ["npm test"]);
  assert.deepEqual(texts("npm \\\ntest"), ["npm test"]);
});

test("unbalanced quotes, parentheses and substitutions cannot be parsed", () => {
  for (
    const bad of [
      `npm run "x`,
      "echo 'x",
      "(ls",
      "ls)",
      "echo `id",
      "echo $(id",
      `echo "$(id"`,
      "x \\",
    ]
  ) {
    assert.throws(() => readCommand(bad), ShellParseError, bad);
  }
});

test("reading is bounded: text length and nesting", () => {
  assert.throws(() => readCommand("a".repeat(MAX_COMMAND_CHARS + 1)), ShellParseError);
  assert.throws(() => readCommand("(".repeat(40) + ")".repeat(40)), ShellParseError);
  assert.throws(() => readCommand(`${"eval ".repeat(40)}rm -rf /`), ShellParseError);
});

test("options before -c, --, argv forms and wrappers all lead to the script", () => {
  for (
    const form of [
      "bash -c -- 'rm -rf /'",
      "bash -O extglob -c 'rm -rf /'",
      "bash +x -c 'rm -rf /'",
      "bash --norc --noprofile -c 'rm -rf /'",
      "env FOO=1 timeout 5 nice -n 2 bash -c 'rm -rf /'",
      "xargs sh -c 'rm -rf /'",
    ]
  ) {
    assert.ok(texts(form).includes("rm -rf /"), form);
  }
  assert.ok(texts(["bash", "-c", "--", "rm -rf /"]).includes("rm -rf /"));
});

test("here-strings and here-documents are the input of their command, and a shell's script", () => {
  const r = readCommand("cat <<'EOF' | wc -l\nline $HOME\nEOF\necho after");
  assert.deepEqual(r.commands.map((w) => w.join(" ")), ["cat", "wc -l", "echo after"]);
  assert.deepEqual(r.inputs, ["line $HOME", undefined, undefined]);
  assert.deepEqual(r.ambiguous, [], "a quoted delimiter does not expand");
  assert.ok(texts("bash <<< 'rm -rf /'").includes("rm -rf /"));
  assert.ok(texts("sh <<-EOF\n\trm -rf /\n\tEOF").includes("rm -rf /"));
});

test("a command's name is its word without the path", () => {
  assert.equal(commandName("/bin/rm"), "rm");
  assert.equal(commandName("./rm"), "rm");
  assert.equal(commandStart(["env", "-u", "X", "A=1", "timeout", "-s", "KILL", "5", "rm"]), 8);
});
