/**
 * Issue 25, finding 1: patterns whose compiled program is large. RE2's work
 * on one test is the text's length times the program's size, so a schema
 * with 150 copies of `(.*){999}$` and a 3,000-character argument once held
 * the event loop for 28 s. Bounds: every answer within ANSWER_BOUND_MS (3 s),
 * no stretch holding the event loop for EVENT_LOOP_BOUND_MS (100 ms of
 * processor time), `/health` answering throughout.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  action,
  assertRefused,
  post,
  startTarget,
  type Target,
  underAttack,
  warmUp,
} from "./_kit.ts";

const copies = (pattern: string, n: number) => ({
  type: "object",
  properties: { name: { type: "string", allOf: Array.from({ length: n }, () => ({ pattern })) } },
  required: ["name"],
});

const chat = (sid: string, parameters: unknown, name: string) =>
  post(target.url, "/api/chat", {
    session_id: sid,
    content: `check name "${name}"`,
    host_context: { version: 1, actions: [action(parameters)] },
  });

let target: Target;
before(async () => {
  target = await startTarget();
  await warmUp(target);
});
after(() => target.close());

test("150 copies of (.*){999}$ are refused at submission, naming the pattern", async () => {
  const res = await underAttack(
    target,
    () => chat("pattern-999", copies("(.*){999}$", 150), "a".repeat(3_000)),
    { eventLoop: true },
  );
  assertRefused(res, 422, "host_context.actions[0].parameters.properties.name.allOf.");
  assert.match(JSON.stringify(res.body), /compiles to about 3,999 instructions/);
});

test("a counted repeat over 1,000 is refused at submission", async () => {
  const res = await underAttack(
    target,
    () => chat("pattern-repeat", copies("x{5000}", 1), "x"),
    { eventLoop: true },
  );
  assertRefused(res, 422, "host_context.actions[0].parameters.properties.name.allOf.0.pattern");
});

test("patterns within the bounds are charged by size times text: the call fails, the loop never stalls", async () => {
  // 403 instructions each: accepted, yet 150 tests on 3,000 characters would take seconds.
  const res = await underAttack(
    target,
    () => chat("pattern-100", copies("(.*){100}$", 150), "a".repeat(3_000)),
    { eventLoop: true },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const messages = await fetch(`${target.url}/api/sessions/pattern-100/messages`).then((r) =>
    r.json()
  );
  const call = messages.messages[1].tool_calls[0];
  assert.equal(call.status, "failed");
  assert.match(JSON.stringify(call), /could not be checked within/);
});
