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
 * The check itself then costs each message of the prompt its parse, every
 * request: the whole history at every turn, so a long session's turns cost
 * more and more (about 80 µs a message in a session of 200 turns, with the
 * garbage it leaves). A settled message of the history (`SETTLED`,
 * `server/session/_settled.ts`: read from the store, frozen deep) was
 * checked by the request of the turn that made it and cannot have changed
 * since, so the check passes it as it is; every other message (this turn's,
 * any copy the runtime made of an old one) is parsed as before. The check's
 * answer is the same: it only reports, and the SDK sends the messages it was
 * given.
 *
 * @module
 */
import { modelMessageSchema } from "ai";
import { SETTLED } from "../session/_settled.ts";

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
  // deno-lint-ignore no-explicit-any -- zod's internal run of a schema, (payload, ctx) => payload
  const internals = (modelMessageSchema as any)._zod as { run: (...args: any[]) => any };
  if (!(internals.run as { settled?: true }).settled) {
    const run = internals.run;
    const settled = (payload: { value: unknown }, ctx: unknown) =>
      typeof payload.value === "object" && payload.value !== null && SETTLED.has(payload.value)
        ? payload
        : run(payload, ctx);
    internals.run = Object.assign(settled, { settled: true as const });
  }
  modelMessageSchema.safeParse({
    role: "user",
    content: "",
    providerOptions: { tether: { settled: null } },
  });
}
