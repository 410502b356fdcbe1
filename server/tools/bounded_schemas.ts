/**
 * Refuses action schemas that validation could not finish in bounded work
 * (see `checkJsonSchema`), when a message or a join brings them. The browser
 * SDK does not carry this check: a page that hurts itself is its own
 * business, a page that could stall the runtime is not.
 *
 * The list of actions the HTTP body parse found bounded last (it checks a
 * context once and then remembers it) is marked, and not walked again on
 * its way into the engine: a transport hands a parsed body to the engine
 * at once, and should another body be parsed in between, the engine simply
 * checks again. One list is kept, not a set: nothing to sweep, and the
 * garbage collector has no weak table to visit.
 *
 * @module
 */
import { checkJsonSchema, type HostAction, type Issue } from "../../protocol/mod.ts";
import { validationError } from "../http/errors.ts";

/**
 * The issues of every action's `parameters`, with paths under `field` (`host_context.actions`).
 *
 * @example
 * ```ts
 * schemaIssues(context.actions, "host_context.actions"); // [] when every schema is bounded
 * ```
 */
export function schemaIssues(actions: readonly HostAction[] | undefined, field: string): Issue[] {
  const issues: Issue[] = [];
  (actions ?? []).forEach((action, index) => {
    for (const issue of checkJsonSchema(action.parameters)) {
      const path = `${field}[${index}].parameters${issue.path ? `.${issue.path}` : ""}`;
      issues.push({ path, message: `${path}: ${issue.message}` });
    }
  });
  return issues;
}

/** The list of actions last found bounded, by identity (a parsed body's list is not changed after). */
let lastBounded: readonly HostAction[] | undefined;

/**
 * Records that every schema in `actions` was found bounded, so {@linkcode assertBoundedSchemas}
 * passes this same list without walking it again (until another list is marked).
 *
 * @example
 * ```ts
 * if (!schemaIssues(context.actions, "host_context.actions").length) markBounded(context.actions);
 * ```
 */
export function markBounded(actions: readonly HostAction[] | undefined): void {
  lastBounded = actions;
}

/**
 * Throws a 422 naming the first unbounded schema among `actions`.
 *
 * @example
 * ```ts
 * assertBoundedSchemas(body.host_context?.actions, "host_context.actions");
 * ```
 */
export function assertBoundedSchemas(
  actions: readonly HostAction[] | undefined,
  field: string,
): void {
  if (actions !== undefined && actions === lastBounded) return;
  const issues = schemaIssues(actions, field);
  if (issues.length) throw validationError(issues[0].message, issues);
}
