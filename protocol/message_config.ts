/**
 * `config` on a message body: per-request overrides.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject } from "./_keys.ts";

/**
 * Per-request overrides; the runtime applies a limit only when it is lower
 * than its own and a model only when it is allowed.
 *
 * @example
 * ```ts
 * const config: MessageConfig = { max_tool_calls: 3, tool_timeout_ms: 10_000 };
 * ```
 */
export interface MessageConfig {
  /** The most model requests this turn may make. */
  max_model_requests?: number;
  /** The most tool calls this turn may make. */
  max_tool_calls?: number;
  /** How long one tool call may take, in milliseconds. */
  tool_timeout_ms?: number;
  /** The model to use, if the runtime allows it. */
  model?: string;
}

const count = (field: string, min: number) => {
  const error =
    `${field} must be a whole number of at least ${min}; send such a limit or leave it out.`;
  return z.int({ error }).check(z.minimum(min, { error }));
};

/**
 * The zod schema of `config`; camelCase keys are accepted, unknown keys rejected.
 *
 * @example
 * ```ts
 * messageConfigSchema.safeParse({ maxToolCalls: 2 }).success; // true
 * ```
 */
export const messageConfigSchema: z.ZodMiniType<MessageConfig, unknown> = contractObject({
  max_model_requests: z.optional(count("max_model_requests", 1)),
  max_tool_calls: z.optional(count("max_tool_calls", 0)),
  tool_timeout_ms: z.optional(count("tool_timeout_ms", 1)),
  model: z.optional(z.string().check(z.minLength(1))),
});
