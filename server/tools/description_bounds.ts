/**
 * Tool descriptions within what the model's API accepts (OpenAI refuses a
 * function description over 1,024 characters with a 400): the runtime
 * refuses them first, naming the field and the limit, so no provider ever
 * does.
 *
 * @module
 */
import type { Issue } from "../../protocol/mod.ts";
import { validationError } from "../http/errors.ts";

/**
 * The issues of tools whose description is longer than `max` characters, with paths under `field`.
 *
 * @example
 * ```ts
 * descriptionIssues(context.actions, 1024, "host_context.actions", "openai:gpt-4o-mini");
 * ```
 */
export function descriptionIssues(
  tools: readonly { name: string; description?: string }[] | undefined,
  max: number,
  field: string,
  model: string,
): Issue[] {
  const issues: Issue[] = [];
  (tools ?? []).forEach((tool, index) => {
    const length = tool.description?.length ?? 0;
    if (length <= max) return;
    const path = `${field}[${index}].description`;
    issues.push({
      path,
      message:
        `${path} (${tool.name}) has ${length} characters; ${model} accepts tool descriptions of at most ${max}, so shorten it.`,
    });
  });
  return issues;
}

/**
 * Throws a 422 naming the first description over `max` characters.
 *
 * @example
 * ```ts
 * assertDescriptions(body.host_context?.actions, 1024, "host_context.actions", "openai:gpt-4o-mini");
 * ```
 */
export function assertDescriptions(
  tools: readonly { name: string; description?: string }[] | undefined,
  max: number,
  field: string,
  model: string,
): void {
  const issues = descriptionIssues(tools, max, field, model);
  if (issues.length) throw validationError(issues[0].message, issues);
}
