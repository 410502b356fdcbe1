/**
 * The WebMCP bridge: where the browser exposes `document.modelContext` (or
 * the older `navigator.modelContext`), the host's actions are offered there
 * too, so an in-browser agent calls the same handlers. Absent the API,
 * nothing happens.
 *
 * @module
 */
import type { JsonSchema } from "./_protocol.ts";
import type { ActionOutcome } from "./run_action.ts";

interface ModelContextLike {
  registerTool(tool: Record<string, unknown>, options?: { signal?: AbortSignal }): unknown;
  unregisterTool?(name: string): void;
}

/**
 * The browser's model context, or undefined where WebMCP is not available.
 *
 * @example
 * ```ts
 * if (modelContext()) console.log("actions are offered to the browser agent too");
 * ```
 */
export const modelContext = (): ModelContextLike | undefined => {
  const candidate =
    (globalThis.document as unknown as { modelContext?: ModelContextLike })?.modelContext ??
      (globalThis.navigator as unknown as { modelContext?: ModelContextLike })?.modelContext;
  return typeof candidate?.registerTool === "function" ? candidate : undefined;
};

/**
 * Offers one action to WebMCP; returns the function that withdraws it (a no-op where WebMCP is absent).
 *
 * @example
 * ```ts
 * const withdraw = offerToWebMcp("select_issue", "Select an issue.", schema, (args) => runIt(args));
 * withdraw();
 * ```
 */
export function offerToWebMcp(
  name: string,
  description: string,
  inputSchema: JsonSchema,
  run: (args: Record<string, unknown>) => Promise<ActionOutcome>,
): () => void {
  const context = modelContext();
  if (!context) return () => {};
  const registration = new AbortController();
  let handle: unknown;
  try {
    handle = context.registerTool({
      name,
      description,
      inputSchema,
      // A rejection loses its reason on the way to the agent, so failures resolve too, marked isError.
      execute: async (args: Record<string, unknown>) => {
        const { outcome, result } = await run(args ?? {});
        return {
          content: [{ type: "text", text: JSON.stringify(result) }],
          isError: outcome === "failed",
        };
      },
    }, { signal: registration.signal });
    (handle as Promise<unknown>)?.catch?.(() => {});
  } catch {
    return () => {};
  }
  return () => {
    registration.abort();
    try {
      const unregister = (handle as { unregister?: () => void })?.unregister;
      if (unregister) unregister.call(handle);
      else context.unregisterTool?.(name);
    } catch {
      // Already withdrawn by the abort signal.
    }
  };
}
