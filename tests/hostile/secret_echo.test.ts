/**
 * Issue 25, finding 11: a tool server that echoes its bearer secret (in a
 * tool's output, its context and a preview). Logs were redacted, but the
 * secret reached the events, the answer and the stored messages. Every
 * registered secret is now redacted from what a tool server answers, before
 * the model, the events or the store see it, and from every event. Bounds:
 * the answer within ANSWER_BOUND_MS (3 s), no stretch holding the event loop
 * for EVENT_LOOP_BOUND_MS (100 ms of processor time).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readSse } from "../../server/transports/_test_kit.ts";
import { scriptedModel } from "../../server/testing/scripted_model.ts";
import { type HandHost, handHost } from "../_remote_host.ts";
import { startTarget, type Target, underAttack } from "./_kit.ts";

const SECRET = "echoed-secret-7f3a9c2e5b1d8046";
const ADMIN = "admin-token-echo-0c9d8e7f6a5b";
let host: HandHost;
let target: Target;
// Twice: a first turn loads what the runtime imports lazily, the second is the one timed.
const model = scriptedModel([
  { calls: [{ name: "find_task", args: { q: "x" } }] },
  { text: "Found it." },
  { calls: [{ name: "find_task", args: { q: "x" } }] },
  { text: "Found it." },
]);
const findOver = async (session_id: string) => {
  const res = await fetch(`${target.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ session_id, content: "find x" }),
  });
  return await readSse(res);
};

before(async () => {
  host = await handHost(SECRET);
  // It echoes the Authorization header it received, whole and in pieces.
  host.behaviour.output = () => ({ auth: `Bearer ${SECRET}`, piece: SECRET.slice(3, 20) });
  host.behaviour.context = { project: "Apollo", token: SECRET };
  target = await startTarget({
    ACCESS__ADMIN_TOKEN: ADMIN,
    REMOTE_TOOLS__ALLOWED_HOSTS: "127.0.0.1",
    REMOTE_TOOLS__WORKSPACE: "default",
  }, { model });
  const res = await fetch(`${target.url}/v1/integrations/generic-rest/connect`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify({ workspace_id: "default", base_url: host.url, secret: SECRET }),
  });
  assert.equal(res.status, 201, await res.text());
  await findOver("echo-warm-up");
});
after(async () => {
  await target.close();
  await host.close();
});

test("a tool server echoing its secret gets it into no event, answer, stored message or prompt", async () => {
  const events = await underAttack(target, () => findOver("echo"), { eventLoop: true });
  assert.equal(host.to("POST /tools/execute").length, 2, "the tool ran");
  const messages = await fetch(`${target.url}/api/sessions/echo/messages`).then((r) => r.text());
  const result = events.find((e) => e.event === "assistant:tool_result");
  assert.ok(result, JSON.stringify(events).slice(0, 500));
  assert.match(JSON.stringify(result.data), /Bearer \[redacted\]/);
  const everything = [
    JSON.stringify(events),
    messages,
    JSON.stringify(model.prompts),
    ...target.logs,
  ].join("\n");
  for (const piece of [SECRET, SECRET.slice(3, 20), SECRET.slice(-8)]) {
    assert.ok(!everything.includes(piece), `${piece} left the server`);
  }
  assert.ok(messages.includes("[redacted]"), "the stored result keeps the rest of the answer");
});
