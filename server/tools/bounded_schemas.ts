/**
 * Refuses action schemas that validation could not finish in bounded work
 * (see `checkJsonSchema`), when a message or a join brings them. The browser
 * SDK does not carry this check: a page that hurts itself is its own
 * business, a page that could stall the runtime is not.
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
  const issues = schemaIssues(actions, field);
  if (issues.length) throw validationError(issues[0].message, issues);
}
