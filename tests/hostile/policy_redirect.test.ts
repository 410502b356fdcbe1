/**
 * Issue 25, finding 9: a policy service that answers with a redirect. Followed,
 * it would carry `X-Zentinelle-Key` to the address it names and the runtime
 * would trust whatever allows there. The redirect must fail, and a failure
 * denies. Bounds: the answer within ANSWER_BOUND_MS (3 s), no stretch holding
 * the event loop for EVENT_LOOP_BOUND_MS (100 ms of processor time).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type Loopback, serveLoopback } from "../../server/testing/loopback.ts";
import { type ZentinelleDouble, zentinelleDouble } from "../zentinelle/double.ts";
import { action, post, startTarget, type Target, underAttack, warmUp } from "./_kit.ts";

let target: Target;
let z: ZentinelleDouble;
let elsewhere: Loopback;
let redirector: Loopback;
/** Keys that reached the address the redirect names. */
const keysElsewhere: string[] = [];

before(async () => {
  z = await zentinelleDouble(); // no policies: it allows every call
  // Elsewhere: records the key, then answers as Zentinelle would (allow).
  elsewhere = await serveLoopback(async (req) => {
    const key = req.headers.get("x-zentinelle-key");
    if (key) keysElsewhere.push(key);
    const url = new URL(req.url);
    return await fetch(`${z.url}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body: req.method === "GET" ? undefined : await req.text(),
    });
  });
  redirector = await serveLoopback((req) => {
    const url = new URL(req.url);
    return new Response(null, {
      status: 307,
      headers: { location: `${elsewhere.url}${url.pathname}${url.search}` },
    });
  });
  target = await startTarget({
    POLICY__BACKEND: "zentinelle",
    POLICY__ZENTINELLE_URL: redirector.url,
    POLICY__ZENTINELLE_KEY: z.key,
  });
  await warmUp(target);
});
after(async () => {
  await target.close();
  await redirector.close();
  await elsewhere.close();
  await z.close();
});

test("a policy service's redirect denies the call, and the key never reaches the address it names", async () => {
  const res = await underAttack(
    target,
    () =>
      post(target.url, "/api/chat", {
        session_id: "policy-redirect",
        content: 'check name "Ada"',
        host_context: {
          version: 1,
          actions: [action({ type: "object", properties: { name: { type: "string" } } })],
        },
      }),
    { eventLoop: true },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const messages = await fetch(`${target.url}/api/sessions/policy-redirect/messages`).then((r) =>
    r.json()
  );
  const call = messages.messages[1].tool_calls[0];
  assert.equal(call.status, "failed", JSON.stringify(call));
  assert.match(JSON.stringify(call), /policy/i);
  assert.deepEqual(keysElsewhere, []);
});
