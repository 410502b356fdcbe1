/**
 * `host_context.host`: descriptive metadata about the application.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject } from "./_keys.ts";

/**
 * The kinds of host version 1 knows; a new kind needs a new contract version.
 *
 * @example
 * ```ts
 * HOST_KINDS.includes("browser"); // true
 * ```
 */
export const HOST_KINDS = ["browser", "mobile", "desktop", "terminal", "service", "other"] as const;

/**
 * One of {@linkcode HOST_KINDS}.
 *
 * @example
 * ```ts
 * const kind: HostKind = "terminal";
 * ```
 */
export type HostKind = (typeof HOST_KINDS)[number];

/**
 * What the application says about itself; rendered for the model, never trusted.
 *
 * @example
 * ```ts
 * const host: HostInfo = { name: "web-dashboard", kind: "browser", version: "2.1" };
 * ```
 */
export interface HostInfo {
  /** The application's name. */
  name?: string;
  /** What sort of application it is. */
  kind?: HostKind;
  /** The application's own version (not the contract version). */
  version?: string;
}

/**
 * The zod schema of `host_context.host`.
 *
 * @example
 * ```ts
 * hostInfoSchema.safeParse({ name: "cli", kind: "terminal" }).success; // true
 * ```
 */
export const hostInfoSchema: z.ZodMiniType<HostInfo, unknown> = contractObject({
  name: z.optional(z.string()),
  kind: z.optional(z.enum(HOST_KINDS)),
  version: z.optional(z.string()),
});
