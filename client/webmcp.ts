/**
 * The WebMCP bridge: where the browser exposes a model context, the host's
 * actions are offered there too, so an in-browser agent calls the same
 * handlers, through the same confirmations. Absent the API, nothing happens.
 *
 * Two shapes are spoken, the current one first:
 *
 * - the draft's `document.modelContext` (webmachinelearning/webmcp, and
 *   Chrome's origin trial): `registerTool(tool, {signal})` answers a
 *   promise, the signal's abort withdraws the tool, agents list tools with
 *   `getTools()` and call them with `executeTool()`;
 * - the older `navigator.modelContext` (Chrome before the move to
 *   `document`, behind `--enable-features=WebMCP`): `registerTool()` answers
 *   at once (or with a registration to `unregister()`), `unregisterTool(name)`
 *   withdraws.
 *
 * Each tool carries the draft's hints, from what the action does:
 * `readOnlyHint` when the page declared it changes nothing (`readOnly`),
 * `consequentialHint` when the page asks the user before it runs
 * (`confirm`).
 *
 * @module
 */
import type { JsonSchema } from "./_protocol.ts";
import type { ActionOutcome } from "./run_action.ts";
import type { ModelContext } from "./_model_context.ts";

/** The draft's hints about a tool. */
export interface ToolAnnotations {
  /** The tool changes nothing; an agent may call it freely. */
  readOnlyHint: boolean;
  /** The tool's action is significant or cannot be undone; an agent should be careful. */
  consequentialHint: boolean;
}

/** What an action does, as its declaration says. */
export interface ActionNature {
  /** It only reads: nothing changes when it runs. */
  readOnly?: boolean;
  /** The page asks the user before it runs. */
  confirms?: boolean;
}

/**
 * The hints of an action: read-only only when declared so (an action that
 * asks the user first is never read-only), consequential when it asks.
 *
 * @example
 * ```ts
 * webMcpAnnotations({ readOnly: true }); // { readOnlyHint: true, consequentialHint: false }
 * ```
 */
export function webMcpAnnotations(nature: ActionNature): ToolAnnotations {
  const consequentialHint = !!nature.confirms;
  return { readOnlyHint: !!nature.readOnly && !consequentialHint, consequentialHint };
}

/**
 * Offers one action to the model context `found` (what `modelContext()` from the SDK's entry
 * answers); returns the function that withdraws it.
 *
 * @example
 * ```ts
 * const found = modelContext();
 * const withdraw = found
 *   ? offerToWebMcp(found, "select_issue", "Select an issue.", schema, (args) => runIt(args), { readOnly: false })
 *   : () => {};
 * withdraw();
 * ```
 */
export function offerToWebMcp(
  found: ModelContext,
  name: string,
  description: string,
  inputSchema: JsonSchema,
  run: (args: Record<string, unknown>) => Promise<ActionOutcome>,
  nature: ActionNature = {},
): () => void {
  const { context, shape } = found;
  const registration = new AbortController();
  let handle: unknown;
  try {
    handle = context.registerTool({
      name,
      description,
      inputSchema,
      annotations: webMcpAnnotations(nature),
      // A rejection loses its reason on the way to the agent, so failures resolve too, marked
      // isError; so does a call the user declined, since nothing was done.
      execute: async (args: Record<string, unknown>) => {
        const { outcome, result } = await run(args ?? {});
        return {
          content: [{ type: "text", text: JSON.stringify(result) }],
          isError: outcome !== "success",
        };
      },
    }, { signal: registration.signal });
    // The current shape answers a promise that rejects for a name taken, or once withdrawn.
    (handle as Promise<unknown>)?.catch?.(() => {});
  } catch {
    return () => {};
  }
  return () => {
    registration.abort();
    if (shape === "document") return;
    try {
      const unregister = (handle as { unregister?: () => void })?.unregister;
      if (unregister) unregister.call(handle);
      else context.unregisterTool?.(name);
    } catch {
      // Already withdrawn.
    }
  };
}
