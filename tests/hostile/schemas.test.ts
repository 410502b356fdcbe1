/**
 * Hostile JSON schemas (points 1 and 2): recursive `$ref`s, alternatives that
 * multiply, references outside the schema and catastrophic patterns, over
 * HTTP and Socket.IO. Each is answered within ANSWER_BOUND_MS while /health
 * answers within HEALTH_BOUND_MS.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { client } from "../../server/transports/_test_kit.ts";
import { action, assertRefused, post, startTarget, type Target, underAttack } from "./_kit.ts";

let target: Target;
before(async () => (target = await startTarget()));
after(() => target.close());

const chat = (sid: string, parameters: unknown, content = "check name") =>
  post(target.url, "/api/chat", {
    session_id: sid,
    content,
    host_context: { version: 1, actions: [action(parameters)] },
  });

const chain = (levels: number) => {
  const defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
  for (let i = 0; i < levels; i++) {
    defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  return { type: "object", properties: { name: { $ref: "#/$defs/d0" } }, $defs: defs };
};

test("a schema whose anyOf refers back to itself is refused at submission, naming the parameters", async () => {
  const res = await underAttack(target, () =>
    chat("schema-loop", {
      type: "object",
      properties: {},
      anyOf: [{ $ref: "#" }, { $ref: "#" }],
    }));
  assertRefused(res, 422, "host_context.actions[0].parameters");
});

test("a loop through allOf, oneOf and not is refused too", async () => {
  const res = await underAttack(target, () =>
    chat("schema-loop-2", {
      type: "object",
      $defs: {
        a: { allOf: [{ $ref: "#/$defs/b" }] },
        b: { not: { oneOf: [{ $ref: "#/$defs/a" }] } },
      },
      properties: { name: { $ref: "#/$defs/a" } },
    }));
  assertRefused(res, 422, "host_context.actions[0].parameters.$defs");
});

test("anyOf chains that multiply to a million alternatives are refused", async () => {
  const res = await underAttack(target, () => chat("schema-chain", chain(20)));
  assertRefused(res, 422, "host_context.actions[0].parameters.$defs.d");
});

test("a reference outside the schema is refused, naming the $ref", async () => {
  const res = await underAttack(target, () =>
    chat("schema-ref", {
      type: "object",
      properties: { name: { $ref: "http://169.254.169.254/latest" } },
    }));
  assertRefused(res, 422, "host_context.actions[0].parameters.properties.name.$ref");
});

test("a schema of thousands of nodes is refused", async () => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 3_000; i++) properties[`p${i}`] = { type: "string" };
  const res = await underAttack(target, () => chat("schema-big", { type: "object", properties }));
  assertRefused(res, 422, "host_context.actions[0].parameters");
});

test("a catastrophic pattern is matched in linear time: the call fails, the process never stalls", async () => {
  const res = await underAttack(target, () =>
    chat(
      "schema-redos",
      {
        type: "object",
        properties: { name: { type: "string", pattern: "^(a+)+$" } },
        required: ["name"],
      },
      `check name "${"a".repeat(3_000)}!"`,
    ));
  assert.equal(res.status, 200);
  const messages = await fetch(`${target.url}/api/sessions/schema-redos/messages`).then((r) =>
    r.json()
  );
  const call = messages.messages[1].tool_calls[0];
  assert.equal(call.status, "failed");
  // On an idle machine the pattern is tested and fails; on a loaded one the 50 ms validation
  // deadline may come first. Either way the call fails and the process does not stall.
  assert.match(JSON.stringify(call), /must match the pattern|could not be checked within 50 ms/);
});

test("over Socket.IO the same schemas are refused on join and on message", async () => {
  const socket = await client(target.url);
  try {
    const hostile = {
      version: 1,
      actions: [action({ type: "object", anyOf: [{ $ref: "#" }] })],
    };
    const joined = await underAttack(
      target,
      () =>
        socket.ask("assistant_join_session", { session_id: "sio-schema", host_context: hostile }),
    );
    assert.equal(joined.ok, false);
    assert.equal(joined.error.type, "validation");
    assert.match(joined.error.message, /host_context\.actions\[0\]\.parameters/);
    const sent = await underAttack(target, () =>
      socket.ask("assistant_message", {
        session_id: "sio-schema",
        content: "check name",
        host_context: { version: 1, actions: [action(chain(22))] },
      }));
    assert.equal(sent.ok, false);
    assert.match(sent.error.message, /host_context\.actions\[0\]\.parameters/);
  } finally {
    socket.close();
  }
});
