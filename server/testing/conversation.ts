/**
 * A stored conversation for tests of the history: turns that each ask on the
 * last page (a note), act, and show the new page in full.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import { UNCHANGED_NOTE } from "../history/blocks.ts";
import type { StoredMessage } from "../session/records.ts";

/**
 * A page block of about 4,000 characters, numbered.
 *
 * @example
 * ```ts
 * page(3).includes("page: 3"); // true
 * ```
 */
export const page = (n: number) =>
  `<host_context>\nview: tracker\ndata:\n  page: ${n}${" x".repeat(2_000)}\n</host_context>`;

/**
 * A stored user message.
 *
 * @example
 * ```ts
 * user(0, "hello").message.role; // "user"
 * ```
 */
export function user(seq: number, text: string): { seq: number; message: StoredMessage } {
  return {
    seq,
    message: {
      role: "user",
      id: `u${seq}`,
      turn: seq,
      created_at: "",
      content: text,
      message_type: "standard",
      attachments: [],
      model: { role: "user", content: text },
    },
  };
}

/**
 * A stored assistant message: a call, its result, the new page, a line of text.
 *
 * @example
 * ```ts
 * assistant(1, "ok", page(1)).message.role; // "assistant"
 * ```
 */
export function assistant(
  seq: number,
  result: string,
  pageText: string,
): { seq: number; message: StoredMessage } {
  const steps: ModelMessage[] = [
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `c${seq}`, toolName: "close", input: {} }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: `c${seq}`,
        toolName: "close",
        output: { type: "json", value: result },
      }],
    },
    { role: "user", content: [{ type: "text", text: pageText }] },
    { role: "assistant", content: [{ type: "text", text: `done ${seq}` }] },
  ];
  return {
    seq,
    message: {
      role: "assistant",
      id: `a${seq}`,
      turn: seq,
      created_at: "",
      output_mode: "text",
      steps,
      calls: [],
      text: "",
      status: "completed",
      model: "m",
    },
  };
}

/**
 * `turns` turns: each asks on the last page (a note), acts, and shows the new page in full.
 *
 * @example
 * ```ts
 * conversation(10).length; // 20
 * ```
 */
export function conversation(turns: number) {
  const past: { seq: number; message: StoredMessage }[] = [];
  for (let t = 0; t < turns; t++) {
    past.push(user(2 * t, `${t === 0 ? page(0) : UNCHANGED_NOTE}\n\nclose ${t}`));
    past.push(assistant(2 * t + 1, t === 3 ? "r".repeat(3_000) : "ok", page(t + 1)));
  }
  return past;
}
