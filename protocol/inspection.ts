/**
 * What `GET /api/sessions/{id}/inspect` answers (the runtime records it only
 * with `DEBUG__INSPECT=true`; see docs/inspector.md): one record per run of
 * a turn, and the call pending now.
 *
 * @module
 */
import type { PolicyAnswer } from "./verdict.ts";
import type { PendingAction } from "./pending_kinds.ts";

/** One fenced block the runtime put in the user message (`host_context`, `remote_context`, …). */
export interface ContextBlock {
  tag: string;
  text: string;
  /** An estimate: a token is about four characters. */
  tokens: number;
  /** Cut short: a run keeps 32,000 characters of context blocks. */
  truncated?: boolean;
}

/** One model request of a run. */
export interface RequestRecord {
  started_at: string;
  /** Milliseconds until the first part of the answer streamed in. */
  first_chunk_ms: number | null;
  duration_ms: number | null;
  finish_reason: string | null;
  usage: { input_tokens: number; output_tokens: number; cached_input_tokens: number } | null;
  /** Names of the tools the request offered. */
  tools: string[];
  error?: string;
}

/** One tool call of a run, with how the policy answered it. */
export interface CallInspection {
  call_id: string;
  tool_name: string;
  /** The call's category (its tool kind). */
  kind: string;
  status: string;
  waiting_for: string | null;
  policy: { decision: PolicyAnswer; reason: string | null } | null;
  verb?: string;
  error?: string;
}

/** The record of one run of a turn. */
export interface RunInspection {
  turn: number;
  started_at: string;
  duration_ms: number;
  model: string;
  output_mode: "text" | "host_tools";
  status: string;
  /** The context blocks of the last user message the model received, as rendered. */
  context: ContextBlock[];
  tools: { name: string; kind: string; verb?: string; description: string }[];
  requests: RequestRecord[];
  calls: CallInspection[];
  usage: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    model_requests: number;
  };
  error?: { type: string; message: string };
}

/**
 * The body of `GET /api/sessions/{id}/inspect`.
 *
 * @example
 * ```ts
 * const view: InspectionView = await (await fetch(`/api/sessions/${id}/inspect`)).json();
 * view.runs.at(-1)?.context[0]?.tag; // "host_context"
 * ```
 */
export interface InspectionView {
  session_id: string;
  /** The call the session waits on now (with its approval and reason when held). */
  pending: PendingAction | null;
  /** The recorded runs, oldest first (only runs made while inspection was on). */
  runs: RunInspection[];
}
