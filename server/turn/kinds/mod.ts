/**
 * The tool kinds by category. A kind the runtime ships is one file
 * implementing `ToolKind` and one line in `BUILTIN`, whose type the
 * compiler checks against the wire's `TOOL_CATEGORIES`: a category without
 * an executor does not compile. A kind of one's own is registered with
 * {@linkcode registerToolKind} before the runtime starts.
 *
 * @module
 */
import type { ToolCategory } from "../../../protocol/mod.ts";
import type { TurnTool } from "../../tools/turn_tools.ts";
import { backendKind } from "./backend.ts";
import { hostKind } from "./host.ts";
import type { OfferContext, ToolKind } from "./kind.ts";
import { remoteKind } from "./remote.ts";

export type {
  ContinueContext,
  Continued,
  Offer,
  OfferContext,
  PendItem,
  ToolKind,
} from "./kind.ts";
export { modeOf } from "./kind.ts";

/**
 * A registry of the shipped kinds: an executor for every wire category,
 * none missing (a `Partial` would let a missing one compile and throw at run time).
 *
 * @example
 * ```ts
 * const kinds = { backend: backendKind, host: hostKind, remote: remoteKind } satisfies KindRegistry;
 * ```
 */
export type KindRegistry = { readonly [C in ToolCategory]: ToolKind };

/**
 * The shipped kinds, one per wire category, in the order their tools are
 * offered (the first kind to offer a name keeps it).
 *
 * @example
 * ```ts
 * BUILTIN.host.category; // "host"
 * ```
 */
export const BUILTIN = {
  backend: backendKind,
  host: hostKind,
  remote: remoteKind,
} satisfies KindRegistry;

const kinds = new Map<string, ToolKind>(Object.entries(BUILTIN));

/**
 * Registers a tool kind of one's own: its tools are offered after the
 * shipped kinds' (a name already offered stays the earlier kind's), and its
 * calls go through the same pipeline. Throws when the category is taken.
 * Returns a function that removes the kind again (a test's, or a plugin's
 * that is unloaded); a record that names its category then fails as a
 * category no kind has.
 *
 * @example
 * ```ts
 * const remove = registerToolKind({ category: "clock", offer: () => ({ tools: [clockTool] }), run: tellTime });
 * remove();
 * ```
 */
export function registerToolKind<T, C>(kind: ToolKind<T, C>): () => void {
  if (kinds.has(kind.category)) {
    throw new Error(`A tool kind with category ${kind.category} is already registered.`);
  }
  kinds.set(kind.category, kind as ToolKind);
  return () => {
    if (kinds.get(kind.category) === kind) kinds.delete(kind.category);
  };
}

/**
 * The executor of a category; throws for a category no kind has (a record
 * written by a runtime that had a kind this one lacks).
 *
 * @example
 * ```ts
 * kindOf("host").checkpoint?.(call); // false
 * ```
 */
export function kindOf(category: string): ToolKind {
  const kind = kinds.get(category);
  if (!kind) throw new Error(`No tool kind is registered for category ${category}.`);
  return kind;
}

/** The tools of one turn, by name, and the kinds' blocks for the user message. */
export interface Offered {
  tools: Map<string, TurnTool>;
  /** The kinds' untrusted-data blocks joined (a tool server's context), or null. */
  context: string | null;
}

/**
 * Asks every kind for its tools, all at once (discovery runs in parallel);
 * a name offered twice keeps the first kind's tool, and the rest is logged.
 *
 * @example
 * ```ts
 * const { tools, context } = await offerTools(offerContext);
 * ```
 */
export async function offerTools(ctx: OfferContext): Promise<Offered> {
  const offers = await Promise.all(
    [...kinds.values()].map(async (kind) => (await kind.offer?.(ctx)) ?? { tools: [] }),
  );
  const tools = new Map<string, TurnTool>();
  for (const offer of offers) {
    for (const tool of offer.tools) {
      if (tools.has(tool.name)) {
        ctx.warn(
          `${tool.category} tool ${tool.name} collides with a ${
            tools.get(tool.name)!.category
          } tool and is ignored`,
        );
      } else tools.set(tool.name, tool);
    }
  }
  const blocks = offers.map((o) => o.context).filter((c): c is string => !!c);
  return { tools, context: blocks.join("\n\n") || null };
}
