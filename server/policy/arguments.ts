/**
 * The argument rules of one tool (`tool_configs` of a `tool_permission`
 * policy): blocked and allowed command patterns, allowed and blocked path
 * prefixes. A refusal here is always a denial; no approval can release it.
 *
 * @module
 */
import { compileGlob, type Glob, globMatch } from "./glob.ts";
import { isInside, normalizeAbsolute, PathReadError, pathsOf, resolvePath } from "./paths.ts";
import { workingDirectory } from "./paths.ts";
import {
  commandName,
  commandStart,
  readCommand,
  ShellParseError,
  type ShellReading,
} from "./shell.ts";

/** The rules as written in a policy. */
export interface ToolConfig {
  blocked_commands?: string[];
  allowed_commands?: string[];
  allowed_paths?: string[];
  blocked_paths?: string[];
}

/** The rules compiled once per policy load. */
export interface ToolRules {
  blocked: Glob[];
  /** null: no allowlist for commands. */
  allowed: Glob[] | null;
  allowedPaths: string[] | null;
  blockedPaths: string[];
}

/**
 * Compiles a tool's rules (globs and normalised prefixes).
 *
 * @example
 * ```ts
 * const rules = compileToolRules({ blocked_commands: ["rm -rf *"] });
 * ```
 */
export function compileToolRules(config: ToolConfig): ToolRules {
  const prefixes = (list: string[]) => list.map((p) => normalizeAbsolute(p) ?? p);
  return {
    blocked: (config.blocked_commands ?? []).map(compileGlob),
    allowed: config.allowed_commands ? config.allowed_commands.map(compileGlob) : null,
    allowedPaths: config.allowed_paths ? prefixes(config.allowed_paths) : null,
    blockedPaths: prefixes(config.blocked_paths ?? []),
  };
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** The simple command's text, and the start of every word in it (for tails). */
function flatten(words: string[]): { text: string; starts: number[]; parts: string[] } {
  const parts = words.map((w) => w.replace(/\s+/g, " ").trim()).filter(Boolean);
  const starts: number[] = [];
  let at = 0;
  for (const p of parts) {
    starts.push(at);
    at += p.length + 1;
  }
  return { text: parts.join(" "), starts, parts };
}

/**
 * The patches a command hands to `apply_patch` (Codex's form, `bash -lc "apply_patch <<'EOF' ..."`,
 * or `apply_patch '<patch>'`): its here-document or here-string, else its first operand.
 */
function commandPatches(tool: string, args: Record<string, unknown>): string[] | string {
  const patches: string[] = [];
  for (const field of ["command", "cmd"]) {
    if (args[field] === undefined) continue;
    const reading = read(tool, args[field], field);
    if (typeof reading === "string") return reading;
    reading.commands.forEach((words, i) => {
      const at = commandStart(words);
      if (!["apply_patch", "applypatch"].includes(commandName(words[at] ?? ""))) return;
      const patch = reading.inputs[i] ?? words[at + 1];
      if (patch !== undefined) patches.push(patch);
    });
  }
  return patches;
}

/** Reads a `command`/`cmd` value; a refusal string when it is not a string or argv, or cannot be read. */
function read(tool: string, value: unknown, field: string): ShellReading | string {
  // The command rules and the path rules of one call read the same value: read it once.
  if (value === last.value && field === last.field && tool === last.tool) return last.reading;
  const reading = readUncached(tool, value, field);
  Object.assign(last, { value, field, tool, reading });
  return reading;
}
const last: { value: unknown; field: string; tool: string; reading: ShellReading | string } = {
  value: undefined,
  field: "",
  tool: "",
  reading: "",
};

function readUncached(tool: string, value: unknown, field: string): ShellReading | string {
  const argv = Array.isArray(value);
  if (!(typeof value === "string" || (argv && value.every((w) => typeof w === "string")))) {
    return `${tool}: ${field} must be a string or a list of strings.`;
  }
  try {
    return readCommand(value as string | string[]);
  } catch (error) {
    if (!(error instanceof ShellParseError)) throw error;
    return `${tool}: the command in ${field} cannot be parsed (${error.message})`;
  }
}

/**
 * The tails a blocked pattern is tried on: from every word, as written and with that word's
 * path removed (`/bin/rm -rf /` and `./rm -rf /` are tried as `rm -rf /`). Under `xargs` each is
 * tried with a word added too: xargs appends the words it reads, which are not in the text.
 */
function tails(words: string[]): string[] {
  const { text, starts, parts } = flatten(words);
  const out: string[] = [];
  starts.forEach((start, i) => {
    const tail = start ? text.slice(start) : text;
    out.push(tail);
    const slash = parts[i].lastIndexOf("/");
    if (slash >= 0 && slash < parts[i].length - 1) out.push(tail.slice(slash + 1));
  });
  return parts.some((p) => commandName(p) === "xargs")
    ? [...out, ...out.map((t) => `${t} …`)]
    : out;
}

function checkCommand(rules: ToolRules, tool: string, value: unknown, field: string) {
  const reading = read(tool, value, field);
  if (typeof reading === "string") return reading;
  if (!reading.commands.length) return `${tool}: ${field} holds no command to check.`;
  // What a shell could read differently cannot be matched, against a blocked pattern or an allowed one.
  if (reading.ambiguous.length) {
    return `${tool}: the command uses ${
      reading.ambiguous.join(", ")
    }, which a shell may read differently from its text, so its rules cannot be checked.`;
  }
  for (const words of reading.commands) {
    const { text } = flatten(words);
    const tried = rules.blocked.length ? tails(words) : [];
    for (const glob of rules.blocked) {
      if (tried.some((tail) => globMatch(glob, tail))) {
        return `${tool}: the command '${clip(text)}' matches the blocked pattern '${glob.source}'.`;
      }
    }
    if (rules.allowed && !rules.allowed.some((g) => globMatch(g, text))) {
      return `${tool}: the command '${clip(text)}' is not among the allowed commands.`;
    }
  }
  return null;
}

function checkPaths(rules: ToolRules, tool: string, input: Record<string, unknown>, cwd: unknown) {
  let paths: string[];
  const patches = commandPatches(tool, input);
  if (typeof patches === "string") return patches;
  try {
    paths = pathsOf(input, patches);
  } catch (error) {
    if (!(error instanceof PathReadError)) throw error;
    return `${tool}: the arguments cannot be read (${error.message})`;
  }
  const workdir = workingDirectory(input, cwd);
  if (!paths.length) {
    if (workdir === null) return `${tool}: the call names no path and no working directory.`;
    paths = [workdir];
  }
  for (const raw of paths) {
    const path = resolvePath(raw, workdir);
    if (path === null) {
      return `${tool}: the path '${clip(raw)}' is relative and there is no working directory.`;
    }
    // Blocked prefixes match whatever the case: on a case-insensitive disk `.GIT` is `.git`.
    const blocked = rules.blockedPaths.find((p) => isInside(path.toLowerCase(), p.toLowerCase()));
    if (blocked) return `${tool}: the path '${clip(path)}' is inside the blocked '${blocked}'.`;
    if (rules.allowedPaths && !rules.allowedPaths.some((p) => isInside(path, p))) {
      return `${tool}: the path '${clip(path)}' is outside the allowed paths.`;
    }
  }
  return null;
}

/**
 * Checks one set of tool arguments; returns the refusal, or null when they pass.
 *
 * @example
 * ```ts
 * checkArguments(rules, "Bash", { command: "rm -rf /" }, undefined); // "Bash: the command ..."
 * ```
 */
export function checkArguments(
  rules: ToolRules,
  tool: string,
  input: unknown,
  contextCwd: unknown,
): string | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return `${tool}: the arguments are not an object, so they cannot be checked.`;
  }
  const args = input as Record<string, unknown>;
  if (rules.blocked.length || rules.allowed) {
    const fields = ["command", "cmd"].filter((f) => args[f] !== undefined);
    if (!fields.length) return `${tool}: the call carries no command to check.`;
    for (const f of fields) {
      const refusal = checkCommand(rules, tool, args[f], f);
      if (refusal) return refusal;
    }
  }
  if (rules.allowedPaths || rules.blockedPaths.length) {
    return checkPaths(rules, tool, args, contextCwd);
  }
  return null;
}
