/**
 * A stable tool list for providers that cache prompt prefixes. Tools come
 * first in every provider's cache order, so a page that adds one action
 * would otherwise change the start of every request. The page's actions
 * are kept as a roster, fixed from the session's first page until the next
 * compaction: the roster's tools are sent unchanged, in the same order,
 * turn after turn. An action the roster lacks (new, or changed) is listed
 * with its schema in the page's `<host_context>` and called through one
 * more tool that is always there, `page_action`; an action the page no
 * longer has stays in the list and is refused if called. Compaction, which
 * changes the cached prefix anyway, takes the current page's actions as
 * the new roster.
 *
 * @module
 */
import type { HostAction, HostContext } from "../../protocol/mod.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { ModelCall } from "./_messages.ts";

/** The tool that calls an action the roster lacks. */
export const PAGE_ACTION = "page_action";

/** The page_action tool as the model sees it. */
export const PAGE_ACTION_TOOL = {
  name: PAGE_ACTION,
  description:
    "Performs one of the page's actions that the latest host_context lists under \"more actions\" (they have no tool of their own). Give the action's name and its arguments, which must match that action's parameters.",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string", description: "The action's name, as listed." },
      arguments: { type: "object", description: "The action's arguments." },
    },
    required: ["name", "arguments"],
    additionalProperties: false,
  },
};

/** A tool as a request describes it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

const same = (a: HostAction, b: HostAction) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The page's actions the roster lacks (or has with another description or schema): they are
 * listed in the host_context and called through `page_action`.
 *
 * @example
 * ```ts
 * extraActions(context, state.actions); // [{ name: "archive", ... }]
 * ```
 */
export function extraActions(
  context: HostContext | null,
  roster: readonly HostAction[] | undefined,
): HostAction[] {
  if (!roster) return [];
  return (context?.actions ?? []).filter((a) => !roster.some((r) => same(r, a)));
}

/**
 * The tools of a request in a stable order: the runtime's own tools as the turn offers them,
 * then the roster's actions as first offered, then `page_action` (with a roster; without one,
 * every current tool in the turn's order).
 *
 * @example
 * ```ts
 * const list = orderedTools(ctx.tools, context, state.actions);
 * ```
 */
export function orderedTools(
  current: Map<string, TurnTool>,
  context: HostContext | null,
  roster: readonly HostAction[] | undefined,
): ToolDefinition[] {
  const own = (t: TurnTool): ToolDefinition => ({
    name: t.name,
    description: t.description,
    parameters: t.parameters,
  });
  if (!roster) return [...current.values()].map(own);
  const page = context?.actions ?? [];
  // The page's own actions come from the roster (or page_action); registered tools stay.
  const out = [...current.values()]
    .filter((t) => !page.some((a) => a.name === t.name && same(a, own(t))))
    .map(own);
  const taken = new Set(out.map((t) => t.name));
  for (const action of roster) {
    if (!taken.has(action.name)) out.push({ ...action, parameters: action.parameters });
  }
  if (!taken.has(PAGE_ACTION)) out.push(PAGE_ACTION_TOOL);
  return out;
}

/**
 * A `page_action` call as the call of the action it names (the model's own message keeps the
 * `page_action` call; the host sees the action).
 *
 * @example
 * ```ts
 * unwrapCall({ toolCallId: "c", toolName: "page_action", input: { name: "archive", arguments: {} } }, tools);
 * // { toolCallId: "c", toolName: "archive", input: {} }
 * ```
 */
export function unwrapCall(call: ModelCall, offered: readonly ToolDefinition[]): ModelCall {
  if (call.toolName !== PAGE_ACTION || !offered.some((t) => t === PAGE_ACTION_TOOL)) return call;
  const input = call.input as { name?: unknown; arguments?: unknown } | null;
  if (!input || typeof input.name !== "string") return call;
  return { ...call, toolName: input.name, input: input.arguments ?? {} };
}
