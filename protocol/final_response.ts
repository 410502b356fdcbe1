/**
 * The end of a turn: `assistant:final_response`, with the pending call or
 * the silent decision it may carry.
 *
 * @module
 */
import * as z from "zod/mini";
import type { Same } from "./_values.ts";
import { ERROR_TYPES, type ErrorType } from "./error_type.ts";
import { type PendingToolCall, pendingToolCallSchema } from "./pending_kinds.ts";

/**
 * The outcome of a silent host decision (`output_mode: "host_tools"`).
 *
 * @example
 * ```ts
 * const act = (decision: Decision) => decision === "pending";
 * ```
 */
export type Decision = "hold" | "pending" | "completed";

/**
 * Token and request counts of a turn, as the runtime reports them.
 *
 * @example
 * ```ts
 * const usage: Usage = { input_tokens: 1200, output_tokens: 80, requests: 1 };
 * ```
 */
export type Usage = Record<string, unknown>;

/**
 * `assistant:final_response`: the turn's result; `content` is null in host_tools mode.
 *
 * @example
 * ```ts
 * const waiting = (event: FinalResponse) => event.pending_tool_call != null;
 * ```
 */
export interface FinalResponse {
  type: "final_response";
  content: string | null;
  model: string | null;
  streamed: boolean;
  session_id: string;
  message_id: string;
  usage?: Usage | null;
  decision?: Decision | null;
  /** The pending call the turn ended on, with what it waits for. */
  pending_tool_call?: PendingToolCall | null;
  error?: string | null;
  error_type?: ErrorType | null;
  /** Position in the session's event stream; lets a reconnecting client resume. */
  seq?: number;
}

const finalRaw = z.object({
  type: z.literal("final_response"),
  content: z.nullable(z.string()),
  model: z.nullable(z.string()),
  streamed: z.boolean(),
  session_id: z.string(),
  message_id: z.string(),
  usage: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  decision: z.optional(z.nullable(z.enum(["hold", "pending", "completed"]))),
  pending_tool_call: z.optional(z.nullable(pendingToolCallSchema)),
  error: z.optional(z.nullable(z.string())),
  error_type: z.optional(z.nullable(z.enum(ERROR_TYPES))),
  seq: z.optional(z.number()),
});
const _final: Same<z.infer<typeof finalRaw>, FinalResponse> = true;

/**
 * The schema of {@linkcode FinalResponse}.
 *
 * @example
 * ```ts
 * z.safeParse(finalResponseSchema, payload).success;
 * ```
 */
export const finalResponseSchema: z.ZodMiniType<FinalResponse> = finalRaw;
