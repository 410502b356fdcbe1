import { test } from "node:test";
import assert from "node:assert/strict";
import type { BackendTool } from "../tools/backend_tool.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import { client, completed, mid, readSse, runtime, type SseEvent } from "./_test_kit.ts";

const lookup: BackendTool = {
  name: "lookup",
  description: "Look it up.",
  parameters: { type: "object", properties: {} },
  execute: () => "found",
};

/** A promise the test resolves when it is ready: the window to steer in, however loaded the machine. */
function gate(): { until: Promise<void>; open(): void } {
  let open!: () => void;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

/** Step 0 calls a backend tool and finishes only once `steered` opens; step 1 answers. */
const twoSteps = (steered: Promise<void>) =>
  scriptedModel((_o, i) =>
    i % 2 === 0
      ? { calls: [{ name: "lookup", args: {} }], until: steered }
      : { text: "Adjusted answer." }
  );

const userTexts = (prompt: { role: string; content: unknown }[]) =>
  prompt.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));

const SSE = { "content-type": "application/json", accept: "text/event-stream" };
const done = (e: SseEvent) => e.event === "assistant:status" && e.data.status === "completed";

test("steering over Socket.IO reaches the live turn at its next model step and cancels nothing", async (t) => {
  const steered = gate();
  const model = twoSteps(steered.until);
  const rt = await runtime({ model, backendTools: [lookup] });
  const a = await client(rt.url);
  t.after(() => (steered.open(), a.close(), rt.close()));
  const turn = a.ask("assistant_message", { id: mid(), session_id: "st1", content: "find it" });
  await a.until((e) => e.event === "assistant:status");
  const steer = await a.ask("assistant_message", {
    id: mid(),
    session_id: "st1",
    content: "only open ones",
    message_type: "steering",
  });
  assert.deepEqual(steer, { ok: true, session_id: "st1", steering: "delivered" });
  steered.open();
  const result = await turn;
  assert.equal(result.content, "Adjusted answer.");
  assert.equal(result.error_type, undefined);
  assert.equal(model.prompts.length, 2);
  assert.match(userTexts(model.prompts[1].prompt as never).at(-1)!, /only open ones/);
  assert.equal(
    a.events.filter((e) => e.event === "assistant:status").length,
    2,
    "one turn: started and completed",
  );
});

test("steering that arrives during the turn's last model step still reaches the model", async (t) => {
  const steered = gate();
  const model = scriptedModel([{ text: "First thoughts.", until: steered.until }, {
    text: "Also covered.",
  }]);
  const rt = await runtime({ model });
  const a = await client(rt.url);
  t.after(() => (steered.open(), a.close(), rt.close()));
  const turn = a.ask("assistant_message", { id: mid(), session_id: "st5", content: "go" });
  await a.until((e) => e.event === "assistant:text_delta");
  assert.equal(
    (await a.ask("assistant_message", {
      id: mid(),
      session_id: "st5",
      content: "cover X too",
      message_type: "steering",
    })).steering,
    "delivered",
  );
  steered.open();
  const result = await turn;
  assert.equal(model.prompts.length, 2);
  assert.match(userTexts(model.prompts[1].prompt as never).at(-1)!, /cover X too/);
  assert.match(result.content, /Also covered\./);
});

test("steering on an idle session is promoted to its own turn", async (t) => {
  const model = scriptedModel([{ text: "Promoted." }]);
  const rt = await runtime({ model });
  const a = await client(rt.url);
  t.after(() => (a.close(), rt.close()));
  const answer = await a.ask("assistant_message", {
    id: mid(),
    session_id: "st2",
    content: "change of plan",
    message_type: "steering",
  });
  assert.equal(answer.steering, "promoted");
  assert.equal(answer.content, "Promoted.");
  await a.until(completed);
  assert.match(userTexts(model.prompts[0].prompt as never).at(-1)!, /change of plan/);
  const stored = await (await fetch(`${rt.url}/api/sessions/st2/messages`)).json();
  assert.equal(
    stored.messages[0].message_type,
    "steering",
    "a promoted steering message is stored as steering",
  );
});

test("steering over SSE joins the live turn's stream; on an idle session it streams its own turn", async (t) => {
  const steered = gate();
  const model = twoSteps(steered.until);
  const rt = await runtime({ model, backendTools: [lookup] });
  t.after(() => (steered.open(), rt.close()));
  const post = (body: Record<string, unknown>) =>
    fetch(`${rt.url}/api/chat`, { method: "POST", headers: SSE, body: JSON.stringify(body) });
  const first = await post({ id: mid(), session_id: "st3", content: "find it" });
  const reading = readSse(first, done);
  await new Promise((r) => setTimeout(r, 50));
  const steer = await post({
    id: mid(),
    session_id: "st3",
    content: "newest first",
    message_type: "steering",
  });
  assert.equal(steer.status, 200);
  const tailing = readSse(steer, done);
  steered.open();
  const tail = await tailing;
  const whole = await reading;
  assert.deepEqual(
    tail,
    whole.slice(whole.length - tail.length),
    "the steering stream is the rest of the live turn",
  );
  assert.equal(whole.filter((e) => e.event === "assistant:status").length, 2);
  assert.match(userTexts(model.prompts[1].prompt as never).at(-1)!, /newest first/);
  const promoted = await readSse(
    await post({
      id: mid(),
      session_id: "st3",
      content: "and summarise",
      message_type: "steering",
    }),
    done,
  );
  assert.equal(promoted[0].data.status, "started");
  assert.ok(promoted.some((e) => e.event === "assistant:final_response"));
});

test("steering is refused for host_tools decisions, for continuations and over non-streaming HTTP", async (t) => {
  const rt = await runtime();
  const a = await client(rt.url);
  t.after(() => (a.close(), rt.close()));
  const silent = await a.ask("assistant_message", {
    id: mid(),
    session_id: "st4",
    content: "x",
    message_type: "steering",
    output_mode: "host_tools",
  });
  assert.equal(silent.error.type, "validation");
  assert.match(silent.error.message, /host_tools/);
  const cont = await a.ask("assistant_message", {
    id: mid(),
    session_id: "st4",
    content: "",
    message_type: "steering",
    tool_call_id: "c1",
    tool_result: 1,
  });
  assert.equal(cont.error.type, "validation");
  assert.match(cont.error.message, /continuation cannot be steering/);
  const plain = await fetch(`${rt.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: mid(), session_id: "st4", content: "x", message_type: "steering" }),
  });
  assert.equal(plain.status, 422);
  assert.match((await plain.json()).error.message, /streaming transport/);
  assert.equal(await rt.engine.repo.record("st4"), null, "nothing stored");
});
