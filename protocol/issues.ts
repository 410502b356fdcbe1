/**
 * Validation results that never throw, and one readable message for them.
 *
 * @module
 */

/**
 * One problem found in the input, with where it is and what to do about it.
 *
 * `path` joins object keys and array indexes with dots ("actions.0.name");
 * it is "" for the input as a whole.
 *
 * @example
 * ```ts
 * const issue: Issue = { path: "view.name", message: "name is required; add it." };
 * ```
 */
export interface Issue {
  /** Dotted location of the problem; "" for the whole input. */
  readonly path: string;
  /** One sentence: what was wrong and what to do. */
  readonly message: string;
}

/**
 * The outcome of a parse: the canonical value, or the issues that prevented it.
 *
 * @example
 * ```ts
 * const result: Result<number> = { ok: false, issues: [{ path: "", message: "bad" }] };
 * if (!result.ok) console.log(result.issues.length);
 * ```
 */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: Issue[] };

/** How many issues {@linkcode formatIssues} spells out before summarising the rest. */
const SHOWN = 10;

/**
 * Joins issues into one readable message, each prefixed with its path.
 *
 * `root` names what was parsed ("host_context"); it prefixes every path, so
 * an issue at "view.colour" reads "host_context.view.colour: ...".
 *
 * @example
 * ```ts
 * const text = formatIssues(
 *   [{ path: "view.colour", message: "colour is not a field of view; remove it." }],
 *   "host_context",
 * );
 * // "host_context.view.colour: colour is not a field of view; remove it."
 * ```
 */
export function formatIssues(issues: readonly Issue[], root = ""): string {
  const parts: string[] = [];
  for (const issue of issues.slice(0, SHOWN)) {
    const where = root && issue.path ? `${root}.${issue.path}` : root || issue.path;
    parts.push(where ? `${where}: ${issue.message}` : issue.message);
  }
  if (issues.length > SHOWN) {
    parts.push(`(${issues.length - SHOWN} more issues not shown.)`);
  }
  return parts.join(" ");
}
