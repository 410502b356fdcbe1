/**
 * Checks a recorded event stream against the order of docs/runtime-wire.md:
 * per turn `status started`, deltas and tool events, `final_response`,
 * `status completed`, with consecutive sequence numbers throughout.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Loose, Received } from "./_clients.ts";

/**
 * One turn as a client saw it.
 *
 * @example
 * ```ts
 * const [turn]: SeenTurn[] = checkTurns(events, 1, "SSE");
 * ```
 */
export interface SeenTurn {
  /** The event names in order, without the `assistant:` prefix. */
  names: string[];
  /** The concatenated text deltas. */
  text: string;
  final: Record<string, Loose>;
}

const MIDDLE = new Set(["text_delta", "thinking_delta", "tool_call", "tool_result", "tool_error"]);

/**
 * Asserts the events form whole turns with seq `firstSeq`, `firstSeq + 1`, … and returns the turns.
 *
 * @example
 * ```ts
 * const turns = checkTurns(stream.events, 5);
 * assert.equal(turns[0].final.content, "Selected issue 42 on B.");
 * ```
 */
export function checkTurns(events: Received[], firstSeq: number, label: string): SeenTurn[] {
  const seqs = events.map((e) => e.payload.seq);
  const expected = events.map((_, i) => firstSeq + i);
  assert.deepEqual(
    seqs,
    expected,
    `${label}: seq numbers must run ${firstSeq}, ${firstSeq + 1}, … without a gap or a repeat`,
  );
  for (const e of events) {
    if (e.id !== undefined) assert.equal(e.id, String(e.payload.seq), `${label}: SSE id = seq`);
  }
  const turns: SeenTurn[] = [];
  let current: Received[] = [];
  for (const e of events) {
    current.push(e);
    if (e.event === "assistant:status" && e.payload.status === "completed") {
      turns.push(turnOf(current, `${label} turn ${turns.length + 1}`));
      current = [];
    }
  }
  assert.equal(
    current.length,
    0,
    `${label}: the stream ends inside a turn: ${current.map((e) => e.event).join(", ")}`,
  );
  return turns;
}

function turnOf(events: Received[], label: string): SeenTurn {
  const names = events.map((e) => e.event.replace(/^assistant:/, ""));
  const shape = `${label}: ${names.join(", ")}`;
  assert.equal(names[0], "status", shape);
  assert.equal(events[0].payload.status, "started", shape);
  assert.equal(names.at(-2), "final_response", shape);
  assert.ok(
    names.slice(1, -2).every((n) => MIDDLE.has(n)),
    `${shape}: only deltas and tool events between started and final_response`,
  );
  const text = events.filter((e) => e.event === "assistant:text_delta").map((e) =>
    e.payload.content
  ).join("");
  return { names, text, final: events.at(-2)!.payload };
}
