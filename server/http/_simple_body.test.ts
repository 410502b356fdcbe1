import assert from "node:assert/strict";
import { test } from "node:test";
import { parseMessageBody } from "../../protocol/mod.ts";
import { simpleBody } from "./_simple_body.ts";

// Values each field may take: valid ones, and ones the contract refuses or that need the whole parse.
const VALUES: Record<string, unknown[]> = {
  id: ["m-1", "", "x".repeat(64), "x".repeat(65), 7, null],
  session_id: ["s-1", "a:b.c_d-e", "", "x".repeat(64), "x".repeat(65), "a b", "a/b", "é", 1, null],
  content: ["hi", "", 3, ["hi"], null],
  message_type: ["standard", "steering", "loud", null],
  output_mode: ["text", "host_tools", "json", null],
  tool_call_id: ["call_1", "", "c".repeat(256), "c".repeat(257), 5, null],
  tool_result: [{ ok: true }, "done", 0, false, [], null],
  tool_outcome: ["success", "failed", "maybe", null],
  sessionId: ["s-1"],
  toolCallId: ["call_1"],
  attachments: [[]],
  config: [{}],
  extra: [1],
};
const KEYS = Object.keys(VALUES);
/** How often a generated body holds each key: the common ones mostly, the odd ones rarely. */
const ODDS: Record<string, number> = {
  session_id: 0.95,
  content: 0.95,
  sessionId: 0.03,
  toolCallId: 0.03,
  attachments: 0.03,
  config: 0.03,
  extra: 0.03,
};

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function body(next: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Mostly the common fields, now and then the rest.
  for (const key of KEYS) {
    if (next() < (ODDS[key] ?? 0.3)) {
      const options = VALUES[key];
      // Valid values (the first ones) most of the time.
      const i = next() < 0.8 ? 0 : Math.floor(next() * options.length);
      out[key] = options[i];
    }
  }
  return out;
}

test("a simple body gets exactly what the whole parse gives; any other body is left to it", () => {
  let taken = 0;
  for (let seed = 0; seed < 5000; seed++) {
    const input = body(random(seed));
    const quick = simpleBody(structuredClone(input));
    if (quick === null) continue;
    taken++;
    const whole = parseMessageBody(structuredClone(input));
    assert.ok(whole.ok, `seed ${seed}: ${JSON.stringify(input)} is refused by the whole parse`);
    assert.deepStrictEqual(quick, whole.value, `seed ${seed}: ${JSON.stringify(input)}`);
    assert.equal(JSON.stringify(quick), JSON.stringify(whole.value), `seed ${seed}: key order`);
  }
  assert.ok(taken > 500, `the quick path took only ${taken} of 5000 bodies`);
});

test("the bodies pages send most take the quick path", () => {
  const first = { id: "m-1", session_id: "s-1", content: "select issue 42" };
  const answer = { session_id: "s-1", content: "", tool_call_id: "call_1", tool_result: { ok: 1 } };
  const silent = { session_id: "s-1", content: "", output_mode: "host_tools" };
  for (const input of [first, answer, silent]) {
    const whole = parseMessageBody(input);
    assert.ok(whole.ok);
    assert.deepStrictEqual(simpleBody(input), whole.value);
  }
  // The result is the sender's own value, as the whole parse passes it through.
  assert.equal(simpleBody(answer)!.tool_result, answer.tool_result);
});

test("what the whole parse must word or normalise is never taken", () => {
  for (
    const input of [
      { session_id: "s-1", content: "hi", tool_outcome: "failed" },
      { session_id: "s-1", content: "hi", tool_result: { x: 1 } },
      { sessionId: "s-1", content: "hi" },
      { session_id: "s-1", content: "hi", id: null },
      { session_id: "s 1", content: "hi" },
      { session_id: "s-1" },
      ["s-1", "hi"],
      "hi",
      null,
    ]
  ) {
    assert.equal(simpleBody(input), null, JSON.stringify(input));
  }
});
