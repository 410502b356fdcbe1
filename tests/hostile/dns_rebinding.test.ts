/**
 * Issue 25, finding 3: DNS rebinding. The address check resolved a tool
 * server's name, then `fetch` resolved it again to connect, so a name that
 * answered a public address to the check and 127.0.0.1 to the connection
 * reached loopback with the bearer secret. Here the name `localhost` answers
 * a public address (198.51.100.7) to the runtime's resolver, while the
 * system's resolver (which a second resolution would use) says 127.0.0.1,
 * where a server records what reaches it. Bounds: the answer within
 * ANSWER_BOUND_MS (3 s), no stretch holding the event loop for
 * EVENT_LOOP_BOUND_MS (100 ms of processor time).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HandHost, handHost } from "../_remote_host.ts";
import { post, startTarget, type Target, underAttack, warmUp } from "./_kit.ts";

const SECRET = "rebinding-secret-5e4d3c2b1a09f8e7";
const ADMIN = "admin-token-rebind-1f2e3d4c5b6a";
let inside: HandHost;
let target: Target;
const asked: string[] = [];

before(async () => {
  inside = await handHost(SECRET); // on 127.0.0.1: what rebinding would reach
  target = await startTarget({ ACCESS__ADMIN_TOKEN: ADMIN }, {
    remoteTools: {
      allowedHosts: [],
      timeoutMs: 1_000,
      workspace: "default",
      resolve: (host) => (asked.push(host), Promise.resolve(["198.51.100.7"])),
    },
  });
  await warmUp(target);
});
after(async () => {
  await target.close();
  await inside.close();
});

test("a name checked at a public address is connected there, never resolved again to loopback", async () => {
  const port = new URL(inside.url).port;
  const connect = await underAttack(target, async () => {
    const res = await fetch(`${target.url}/v1/integrations/generic-rest/connect`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({
        workspace_id: "default",
        base_url: `http://localhost:${port}`,
        secret: SECRET,
      }),
    });
    return { status: res.status, body: await res.text() };
  }, { eventLoop: true });
  assert.equal(connect.status, 201, connect.body);
  // A turn discovers the server's tools: the connection goes to 198.51.100.7, which is not there.
  const res = await underAttack(
    target,
    () => post(target.url, "/api/chat", { session_id: "rebind", content: "hello" }),
    { eventLoop: true },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assert.ok(asked.includes("localhost"), "the runtime's resolver answered the check");
  assert.deepEqual(inside.seen, [], "nothing reached loopback");
  assert.ok(
    target.logs.some((l) => l.includes("remote tool server failed")),
    target.logs.join("\n").slice(0, 500),
  );
});
