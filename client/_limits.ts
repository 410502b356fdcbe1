/**
 * The contract's limits, checked synchronously where a registration is made
 * (host-contract.md: 32,000 characters of JSON in view.data + view.state +
 * extensions, 50 navigation targets, 32 actions, 16 attachments, action
 * names `^[A-Za-z0-9_-]{1,64}$`). The full protocol schema, limits included,
 * runs again on every built context; this is the early, zod-free subset.
 *
 * @module
 */
import type { Issue } from "./_protocol.ts";

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The limit problems of a context being assembled (empty when it is fine). */
export function checkLimits(context: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  for (const [key, max] of [["navigation", 50], ["actions", 32], ["attachments", 16]] as const) {
    const list = context[key] as unknown[] | undefined;
    if (list && list.length > max) {
      issues.push({
        path: key,
        message:
          `${key} has ${list.length} entries, over the limit of ${max}; keep the ones that matter most.`,
      });
    }
  }
  (context.actions as { name: string }[] | undefined)?.forEach((action, i) => {
    if (!NAME.test(action.name)) {
      issues.push({
        path: `actions.${i}.name`,
        message: `"${action.name}" is not a valid action name; use 1-64 letters, digits, _ or -.`,
      });
    }
  });
  const view = context.view as { data?: unknown; state?: unknown } | undefined;
  const chars = [view?.data, view?.state, context.extensions].reduce<number>(
    (n, v) => n + (v === undefined ? 0 : JSON.stringify(v).length),
    0,
  );
  if (chars > 32_000) {
    issues.push({
      path: "view.data",
      message:
        `view.data, view.state and extensions hold ${chars} characters of JSON, over the limit of 32,000; curate what the model needs.`,
    });
  }
  return issues;
}
