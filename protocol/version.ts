/**
 * The host contract version this package speaks.
 *
 * @module
 */

/**
 * The host_context contract version: the only value `version` may take.
 *
 * A context without `version` is read as this version; any other value is
 * rejected, because a new version may change what existing fields mean.
 *
 * @example
 * ```ts
 * const context = { version: HOST_CONTEXT_VERSION, view: { name: "tasks" } };
 * ```
 */
export const HOST_CONTEXT_VERSION = 1;
