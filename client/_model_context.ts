/**
 * Where the browser exposes WebMCP: the one check the host makes before it
 * loads the bridge (`webmcp.ts`, a chunk of its own fetched on first use).
 *
 * @module
 */

/** The part of a browser's model context the bridge uses. */
export interface ModelContextLike {
  registerTool(tool: Record<string, unknown>, options?: { signal?: AbortSignal }): unknown;
  unregisterTool?(name: string): void;
}

/** A browser's model context and the shape of the API it speaks. */
export interface ModelContext {
  context: ModelContextLike;
  shape: "document" | "navigator";
}

/**
 * The browser's model context, current shape first, or undefined where WebMCP is not available.
 *
 * @example
 * ```ts
 * if (modelContext()) console.log("actions are offered to the browser agent too");
 * ```
 */
export const modelContext = (): ModelContext | undefined => {
  const current = (globalThis.document as unknown as { modelContext?: ModelContextLike })
    ?.modelContext;
  if (typeof current?.registerTool === "function") return { context: current, shape: "document" };
  const older = (globalThis.navigator as unknown as { modelContext?: ModelContextLike })
    ?.modelContext;
  if (typeof older?.registerTool === "function") return { context: older, shape: "navigator" };
  return undefined;
};
