/**
 * How the SDK recognises a failure it reported because it cannot know what
 * the action did (a handler cut off by a reload, or one that timed out): the
 * runtime records such a call as `failed`, the state shows it as `unknown`.
 *
 * @module
 */

const UNKNOWN = /outcome (?:of \S+ )?is unknown/i;

/**
 * Whether a failed call's result says that the action's outcome is unknown.
 *
 * @example
 * ```ts
 * isUnknownOutcome("The outcome of select_issue is unknown: the page was reloaded."); // true
 * ```
 */
export const isUnknownOutcome = (result: unknown): boolean =>
  typeof result === "string" && UNKNOWN.test(result);
