/**
 * The tool kinds by category. A new kind is one file implementing `ToolKind`
 * and one line here.
 *
 * @module
 */
import type { ToolCategory } from "../../../protocol/mod.ts";
import { backendKind } from "./backend.ts";
import { hostKind } from "./host.ts";
import { remoteKind } from "./remote.ts";
import type { ToolKind } from "./kind.ts";

export type { ContinueContext, Continued, PendItem, ToolKind } from "./kind.ts";

const KINDS: Partial<Record<ToolCategory, ToolKind>> = {
  backend: backendKind,
  host: hostKind,
  remote: remoteKind,
};

/**
 * The executor of a category.
 *
 * @example
 * ```ts
 * kindOf("host").mode(call); // "pend"
 * ```
 */
export function kindOf(category: ToolCategory): ToolKind {
  const kind = KINDS[category];
  if (!kind) throw new Error(`No executor for tool category ${category}.`);
  return kind;
}
