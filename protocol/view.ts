/**
 * `host_context.view` (alias `page`): what is on screen.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject, hostObject } from "./_keys.ts";

/**
 * What the user is looking at; `data` and `state` belong to the host and keep their keys.
 *
 * @example
 * ```ts
 * const view: View = {
 *   name: "tasks",
 *   description: "The issue list, filtered to open bugs.",
 *   data: { issues: [{ number: 42, title: "Fix login" }] },
 *   state: { filters: { label: "bug" } },
 * };
 * ```
 */
export interface View {
  /** The screen's name; also selects page-scoped tools. */
  name: string;
  /** A sentence about the screen. */
  description?: string;
  /** Curated content, rendered as key-value pairs. */
  data?: Record<string, unknown>;
  /** Selection, filters, workflow state; passed as JSON. */
  state?: Record<string, unknown>;
}

/**
 * The zod schema of `host_context.view`; refuses the legacy `view.actions`.
 *
 * @example
 * ```ts
 * viewSchema.safeParse({ name: "board", data: { columnCount: 3 } }).success; // true
 * ```
 */
export const viewSchema: z.ZodMiniType<View, unknown> = contractObject({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  data: z.optional(hostObject()),
  state: z.optional(hostObject()),
}, {
  adjust(value, report) {
    if (value.actions !== undefined) {
      report(
        ["actions"],
        "view.actions is the old place for actions and is no longer read; declare them in host_context.actions instead.",
      );
    }
  },
});
