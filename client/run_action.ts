/**
 * Runs one host action's handler for a pending call and says what to tell
 * the runtime. It never throws: a missing handler, invalid arguments, a
 * thrown error and a timeout all become a failed outcome with a short reason.
 *
 * @module
 */
import { declinedResult } from "./_declined.ts";
import type { PendingToolCall } from "./events.ts";
import { checkArguments, type Parameters } from "./schema.ts";

/**
 * What a handler receives besides its arguments.
 *
 * @example
 * ```ts
 * host.action("load", { description: "Load the report." }, (_args, { signal }) => fetch(url, { signal }).then((r) => r.json()));
 * ```
 */
export interface ActionContext {
  /** Aborted on timeout and on `host.cancel()`; pass it on to fetches. */
  signal: AbortSignal;
  /** The runtime's call id. */
  callId: string;
  /** The action's name. */
  name: string;
}

/**
 * A host action's handler: returns any JSON value (a screenshot data URI inside is fine).
 *
 * @example
 * ```ts
 * const select: ActionHandler<{ number: number }> = ({ number }) => ({ selected: number });
 * ```
 */
// deno-lint-ignore no-explicit-any -- arguments arrive checked against the schema; `any` lets handlers destructure them without a cast
export type ActionHandler<Args = any> = (args: Args, context: ActionContext) => unknown;

/**
 * A registered action as the runner needs it.
 *
 * @example
 * ```ts
 * const definition: ActionDefinition = { name: "ping", description: "Ping.", handler: () => "pong" };
 * ```
 */
export interface ActionDefinition {
  name: string;
  description: string;
  parameters?: Parameters;
  handler: ActionHandler;
  /** Ms before the handler is abandoned and the call reported failed. */
  timeout?: number;
  /** Safe to run twice: after a reload cut it off, it runs again instead of being reported unknown. */
  idempotent?: boolean;
  /**
   * Asks the user first (a preview with Apply and Cancel); resolves true to
   * run the handler, false to decline the call. Until it resolves nothing has
   * run, so a reload asks again instead of reporting an unknown outcome.
   */
  confirm?: (args: Record<string, unknown>, context: ActionContext) => Promise<boolean>;
}

/**
 * What the runtime is told about a call.
 *
 * @example
 * ```ts
 * const { outcome, result } = await runAction(definition, call);
 * ```
 */
export interface ActionOutcome {
  /** `declined`: the user cancelled it (at its confirmation, or by Stop before it began); the wire says `failed`. */
  outcome: "success" | "failed" | "declined";
  result: unknown;
}

const failed = (reason: string): ActionOutcome => ({
  outcome: "failed",
  result: reason.slice(0, 500),
});

/** The JSON form of a handler's result (what the wire and the journal hold). */
const toJson = (value: unknown): unknown =>
  value === undefined ? null : JSON.parse(JSON.stringify(value));

/**
 * Runs a call's handler with its arguments checked, an AbortSignal and a timeout.
 * A signal already aborted (Stop pressed before the call began) runs nothing: the call is declined.
 *
 * @example
 * ```ts
 * const { outcome, result } = await runAction(definition, call, { timeout: 10_000 });
 * ```
 */
export async function runAction(
  definition: ActionDefinition | undefined,
  call: Pick<PendingToolCall, "call_id" | "tool_name" | "arguments">,
  options: {
    timeout?: number;
    signal?: AbortSignal;
    /** Called right before the handler starts (after a confirmation, if any). */
    started?: () => Promise<void> | void;
    /** Withdraws an open confirmation without an answer (the host left the conversation). */
    withdraw?: AbortSignal;
  } = {},
): Promise<ActionOutcome> {
  const name = call.tool_name;
  if (!definition) {
    return failed(`This page has no handler for the action ${name}; it was not performed.`);
  }
  const checked = await checkArguments(definition.parameters, call.arguments ?? {});
  if (!checked.ok) {
    const issues = checked.issues.slice(0, 3).map((i) => `${i.path} ${i.message}`).join("; ");
    return failed(`Invalid arguments for ${name}: ${issues}. The action was not performed.`);
  }
  // Stopped before it began (Stop pressed as the call arrived): nothing runs, and nothing changed.
  if (options.signal?.aborted) return { outcome: "declined", result: declinedResult(name) };
  if (definition.confirm) {
    // The question waits as long as the user needs; only Stop (the signal) or leaving withdraws it.
    const asking = new AbortController();
    const withdraw = () => asking.abort();
    for (const s of [options.signal, options.withdraw]) {
      if (s?.aborted) withdraw();
      s?.addEventListener("abort", withdraw, { once: true });
    }
    const signal = asking.signal;
    let applied = false;
    try {
      const args = checked.value as Record<string, unknown>;
      applied = await definition.confirm(args, { signal, callId: call.call_id, name });
    } catch (error) {
      return failed(`${name} could not ask for confirmation: ${(error as Error)?.message}`);
    }
    if (!applied) return { outcome: "declined", result: declinedResult(name) };
  }
  await options.started?.();
  const timeout = definition.timeout ?? options.timeout ?? 30_000;
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new DOMException(`${name} timed out after ${timeout} ms`, "TimeoutError");
        controller.abort(error);
        reject(error);
      }, timeout);
    });
    const value = await Promise.race([
      Promise.resolve().then(() =>
        definition.handler(checked.value, { signal: controller.signal, callId: call.call_id, name })
      ),
      expired,
    ]);
    try {
      return { outcome: "success", result: toJson(value) };
    } catch {
      return failed(`${name} returned a value that is not JSON.`);
    }
  } catch (error) {
    if ((error as Error)?.name === "TimeoutError") {
      return failed(`${(error as Error).message}; its outcome is unknown.`);
    }
    return failed(`${name} failed: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", abort);
  }
}
