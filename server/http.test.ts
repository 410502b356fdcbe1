import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, ISSUE_CONTEXT } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";
import { DEFAULT_LIMITS } from "./config.ts";

test("/health names the model and the store", async () => {
  const h = harness();
  const res = await h.call("GET", "/health");
  assert.equal(res.status, 200);
  assert.equal(res.body.model, "offline");
  assert.equal(res.body.offline, true);
  assert.equal(res.body.store, "memory");
  await h.close();
});

test("bad input gets a clear 4xx naming the problem and changes nothing stored", async () => {
  const h = harness({
    model: scriptedModel([{ text: "ok" }]),
    limits: { ...DEFAULT_LIMITS, maxBodyBytes: 1_000 },
  });
  await h.chat({ session_id: "keep", content: "hello", host_context: ISSUE_CONTEXT });
  const before = JSON.stringify((await h.call("GET", "/api/sessions/keep/messages")).body);

  const malformed = await h.call("POST", "/api/chat", "{not json");
  assert.equal(malformed.status, 400);
  assert.match(malformed.body.error.message, /not valid JSON/);

  const notObject = await h.call("POST", "/api/chat", "[1,2]");
  assert.equal(notObject.status, 422);

  const unknown = await h.chat({ session_id: "keep", content: "x", colour: "red" });
  assert.equal(unknown.status, 422);
  assert.match(JSON.stringify(unknown.body.error), /colour/);

  const wrongType = await h.chat({ session_id: "keep", content: 5 });
  assert.equal(wrongType.status, 422);
  assert.match(JSON.stringify(unknown.body.error.issues), /path/);
  assert.ok(wrongType.body.error.issues.some((i: { path: string }) => i.path === "content"));

  const badContext = await h.chat({
    session_id: "keep",
    content: "x",
    host_context: { view: { name: "v", colour: 1 } },
  });
  assert.equal(badContext.status, 422);
  assert.ok(
    badContext.body.error.issues.some((i: { path: string }) => i.path.endsWith("view.colour")),
  );

  const big = await h.chat({ session_id: "keep", content: "x".repeat(2_000) });
  assert.equal(big.status, 413);

  const outcomeAlone = await h.chat({ session_id: "keep", content: "", tool_outcome: "failed" });
  assert.equal(outcomeAlone.status, 422);

  assert.equal((await h.call("GET", "/api/sessions/unknown")).status, 404);
  assert.equal((await h.call("GET", "/api/sessions/unknown/messages")).status, 404);
  assert.equal((await h.call("POST", "/api/chat/unknown/cancel")).status, 404);
  assert.equal((await h.call("DELETE", "/api/sessions/unknown")).status, 404);

  const after = JSON.stringify((await h.call("GET", "/api/sessions/keep/messages")).body);
  assert.equal(after, before);
  await h.close();
});

test("a steering message over non-streaming HTTP is refused, and hold is reserved in host_tools mode", async () => {
  const h = harness();
  const steering = await h.chat({ session_id: "st", content: "faster", message_type: "steering" });
  assert.equal(steering.status, 422);
  assert.match(steering.body.error.message, /streaming/);
  const hold = await h.chat({
    session_id: "ho",
    content: "x",
    output_mode: "host_tools",
    host_context: {
      actions: [{ name: "hold", description: "x", parameters: { type: "object", properties: {} } }],
    },
  });
  assert.equal(hold.status, 422);
  assert.match(hold.body.error.message, /reserved/);
  await h.close();
});

test("cancel ends the live turn as cancelled and keeps the session usable", async () => {
  const model = scriptedModel((_o, i) =>
    i === 0 ? { text: "slow words here", delayMs: 5_000 } : { text: "fresh" }
  );
  const h = harness({ model });
  const turn = h.chat({ session_id: "cx", content: "go" });
  await h.started("cx");
  const cancel = await h.call("POST", "/api/chat/cx/cancel");
  assert.deepEqual(cancel.body, { cancelled: true });
  const res = await turn;
  assert.equal(res.body.error_type, "cancelled");
  const messages = (await h.call("GET", "/api/sessions/cx/messages")).body.messages;
  assert.equal(messages[1].status, "cancelled");
  const next = await h.chat({ session_id: "cx", content: "again" });
  assert.equal(next.body.content, "fresh");
  await h.close();
});

test("turns of one session are serialised", async () => {
  let running = 0;
  let overlap = false;
  const model = scriptedModel(() => {
    running++;
    if (running > 1) overlap = true;
    setTimeout(() => running--, 20);
    return { text: "ok", delayMs: 20 };
  });
  const h = harness({ model });
  await Promise.all([1, 2, 3].map((n) => h.chat({ session_id: "ser", content: `m${n}` })));
  assert.equal(overlap, false);
  assert.equal((await h.call("GET", "/api/sessions/ser")).body.turn_number, 3);
  await h.close();
});

test("delete removes the session", async () => {
  const h = harness({ model: scriptedModel([{ text: "ok" }]) });
  await h.chat({ session_id: "del", content: "hi" });
  assert.equal((await h.call("DELETE", "/api/sessions/del")).status, 200);
  assert.equal((await h.call("GET", "/api/sessions/del")).status, 404);
  await h.close();
});

test("a session deleted and created again continues its event numbering", async () => {
  const h = harness({ model: scriptedModel([{ text: "ok" }]) });
  const engine = await h.app.engine();
  await h.chat({ session_id: "again", content: "hi" });
  const before = await engine.hub.lastSeq("again");
  assert.ok(before > 0);
  await h.call("DELETE", "/api/sessions/again");
  const seqs: number[] = [];
  const stop = engine.hub.subscribe("again", (e) => seqs.push(e.payload.seq));
  await h.chat({ session_id: "again", content: "hi again" });
  stop();
  assert.equal(seqs[0], before + 1);
  assert.deepEqual(
    await engine.hub.replay("again", 0).then((events) => events.map((e) => e.payload.seq)),
    seqs,
    "the old session's events are gone",
  );
  await h.close();
});

test("an internal failure is reported without its internals and logged on the server", async () => {
  const model = scriptedModel([{ error: new Error("db password is hunter2") }]);
  const h = harness({ model });
  const res = await h.chat({ session_id: "boom", content: "hi" });
  assert.equal(res.status, 200);
  assert.equal(res.body.error_type, "internal");
  assert.ok(!JSON.stringify(res.body).includes("hunter2"), "the cause is not sent to the client");
  assert.ok(h.warnings.some((w) => w.includes("hunter2")), "the cause is logged");
  const next = await h.chat({ session_id: "boom", content: "again" });
  assert.equal(next.status, 200, "the session stays usable");
  await h.close();
});
