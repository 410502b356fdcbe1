/**
 * `host_context.navigation`: places the host can go.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject } from "./_keys.ts";

/**
 * A place the host can take the user, by name.
 *
 * @example
 * ```ts
 * const target: NavigationTarget = { name: "agents", description: "Running agents" };
 * ```
 */
export interface NavigationTarget {
  /** The name the model uses to ask for this place. */
  name: string;
  /** What the user finds there. */
  description?: string;
}

/**
 * The zod schema of one navigation target.
 *
 * @example
 * ```ts
 * navigationTargetSchema.safeParse({ name: "settings" }).success; // true
 * ```
 */
export const navigationTargetSchema: z.ZodMiniType<NavigationTarget, unknown> = contractObject({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
});
