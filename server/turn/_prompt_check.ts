/**
 * Makes the AI SDK's check of every prompt cheap. `streamText` checks its
 * messages against `z.array(modelMessageSchema)`, a schema it builds anew on
 * each call, and zod 4.6 walks a new schema's whole tree for reference cycles
 * before its first parse. The walk stops at any subtree whose answer it has
 * cached, but it caches no answer for a subtree that holds a lazy schema not
 * yet resolved (the SDK's JSON value, inside `providerOptions`), so while no
 * prompt has carried provider options, every request walks every message
 * schema again (about 30 µs a request on this machine, more under load).
 *
 * One parse through that lazy schema resolves it for the life of the
 * process; after it, the walk ends at the first cached answer.
 *
 * @module
 */
import { modelMessageSchema } from "ai";

/**
 * Resolves the lazy JSON value schema inside the SDK's message schema, once.
 * Safe to call again: a later call parses one tiny message and changes nothing.
 *
 * @example
 * ```ts
 * settlePromptCheck(); // at module load, before the first streamText
 * ```
 */
export function settlePromptCheck(): void {
  modelMessageSchema.safeParse({
    role: "user",
    content: "",
    providerOptions: { tether: { settled: null } },
  });
}
