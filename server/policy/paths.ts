/**
 * The paths a tool call touches, as the argument rules read them: from
 * `file_path`, `path`, `notebook_path`, `paths` and the file headers of an
 * apply_patch patch (in `patch` or `input`, or handed to `apply_patch` in a
 * command, Codex's `bash -lc "apply_patch <<'EOF' ..."` included), resolved against `workdir` or `cwd` in the arguments (or
 * the context's `cwd`), with `.` and `..` resolved. Symbolic links are not
 * visible here.
 *
 * @module
 */

const MAX_PATHS = 256;
const MAX_PATH_CHARS = 4_096;
// Codex reads a header with whitespace before it the same as one without.
const PATCH_HEADER = /^[ \t]*\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/** Arguments the rules cannot read (a path that is not a string, too many paths). */
export class PathReadError extends Error {
  override name = "PathReadError";
}

/**
 * The raw path strings of a tool input, in order; empty when it names none. `patches` are patch
 * texts found in its command.
 *
 * @example
 * ```ts
 * pathsOf({ file_path: "src/a.ts" }); // ["src/a.ts"]
 * ```
 */
export function pathsOf(input: Record<string, unknown>, patches: readonly string[] = []): string[] {
  const found: string[] = [];
  const take = (value: unknown, field: string) => {
    if (typeof value !== "string" || value === "") {
      throw new PathReadError(`${field} must be a non-empty string.`);
    }
    if (value.length > MAX_PATH_CHARS || value.includes("\0")) {
      throw new PathReadError(`${field} is not a readable path.`);
    }
    if (found.length >= MAX_PATHS) throw new PathReadError(`More than ${MAX_PATHS} paths.`);
    found.push(value);
  };
  for (const field of ["file_path", "path", "notebook_path"]) {
    if (input[field] !== undefined) take(input[field], field);
  }
  if (input.paths !== undefined) {
    if (!Array.isArray(input.paths)) throw new PathReadError("paths must be a list of strings.");
    input.paths.forEach((p, i) => take(p, `paths[${i}]`));
  }
  for (const patch of [...patchTexts(input), ...patches]) {
    for (const m of patch.matchAll(PATCH_HEADER)) take(m[1].trim(), "the patch's file headers");
  }
  return found;
}

/** apply_patch texts: `patch` or `input` strings, or the second word of an `apply_patch` argv. */
function patchTexts(input: Record<string, unknown>): string[] {
  const texts: string[] = [];
  for (const field of ["patch", "input"]) {
    const v = input[field];
    if (typeof v === "string" && v.includes("*** Begin Patch")) texts.push(v);
  }
  for (const field of ["command", "cmd"]) {
    const v = input[field];
    if (Array.isArray(v) && v[0] === "apply_patch" && typeof v[1] === "string") texts.push(v[1]);
  }
  return texts;
}

/**
 * The working directory of a call: `workdir` or `cwd` in its arguments, else the context's.
 *
 * @example
 * ```ts
 * workingDirectory({ cwd: "/w" }, undefined); // "/w"
 * ```
 */
export function workingDirectory(
  input: Record<string, unknown>,
  contextCwd: unknown,
): string | null {
  for (const v of [input.workdir, input.cwd, contextCwd]) {
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}

/**
 * Resolves `.` and `..` in an absolute POSIX path, or returns null for a relative one.
 *
 * @example
 * ```ts
 * normalizeAbsolute("/workspace/../etc/passwd"); // "/etc/passwd"
 * ```
 */
export function normalizeAbsolute(path: string): string | null {
  if (!path.startsWith("/")) return null;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
}

/**
 * Resolves a path against a working directory; null when it stays relative.
 *
 * @example
 * ```ts
 * resolvePath("src/a.py", "/workspace"); // "/workspace/src/a.py"
 * ```
 */
export function resolvePath(path: string, cwd: string | null): string | null {
  if (path.startsWith("/")) return normalizeAbsolute(path);
  const base = cwd === null ? null : normalizeAbsolute(cwd);
  return base === null ? null : normalizeAbsolute(`${base}/${path}`);
}

/**
 * Whether a resolved path is the prefix or below it, on whole components.
 *
 * @example
 * ```ts
 * isInside("/workspace2/x", "/workspace"); // false
 * ```
 */
export function isInside(path: string, prefix: string): boolean {
  if (prefix === "/") return true;
  return path === prefix || (path.startsWith(prefix) && path[prefix.length] === "/");
}
