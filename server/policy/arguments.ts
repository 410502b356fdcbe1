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
import { readCommand, ShellParseError } from "./shell.ts";

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
function flatten(words: string[]): { text: string; starts: number[] } {
  const parts = words.map((w) => w.replace(/\s+/g, " ").trim()).filter(Boolean);
  const starts: number[] = [];
  let at = 0;
  for (const p of parts) {
    starts.push(at);
    at += p.length + 1;
  }
  return { text: parts.join(" "), starts };
}

function checkCommand(rules: ToolRules, tool: string, value: unknown, field: string) {
  const argv = Array.isArray(value);
  if (!(typeof value === "string" || (argv && value.every((w) => typeof w === "string")))) {
    return `${tool}: ${field} must be a string or a list of strings.`;
  }
  let reading;
  try {
    reading = readCommand(value as string | string[]);
  } catch (error) {
    if (!(error instanceof ShellParseError)) throw error;
    return `${tool}: the command in ${field} cannot be parsed (${error.message})`;
  }
  if (!reading.commands.length) return `${tool}: ${field} holds no command to check.`;
  if (rules.allowed && reading.ambiguous.length) {
    return `${tool}: the command uses ${
      reading.ambiguous.join(", ")
    }, which a shell may read differently, so it cannot match an allowed pattern.`;
  }
  for (const words of reading.commands) {
    const { text, starts } = flatten(words);
    for (const glob of rules.blocked) {
      if (starts.some((s) => globMatch(glob, s ? text.slice(s) : text))) {
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
  try {
    paths = pathsOf(input);
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
    const blocked = rules.blockedPaths.find((p) => isInside(path, p));
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
