// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
/**
 * Finding 14 of the second hardening round, against a real runtime on
 * loopback: `?missing=null` answered an unknown session (200) apart from
 * another principal's (403); a session kept any number of large text
 * attachments (12 × 23 MB); `[::ffff:0:7f00:1]` and `[fec0::1]` passed the
 * tool-server address check. Bounds: every answer within 3 s, `/health`
 * within 100 ms during each attack.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startTarget } from "./_kit.ts";
import { withinBounds } from "./_bounds.ts";

const send = (url: string, path: string, who: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", "x-tether-principal": who },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  }).then(async (r) => ({ status: r.status, text: await r.text() }));

test("?missing=null answers another principal's session exactly as an unknown one", async () => {
  const target = await startTarget({ ACCESS__MODE: "header" });
  try {
    const made = await send(target.url, "/api/chat", "alice", {
      session_id: "taken",
      content: "hi",
    });
    assert.equal(made.status, 200);
    // Warm: the route's first use compiles it.
    await send(target.url, "/api/sessions/warm?missing=null", "bob");
    const [theirs, unknown] = await withinBounds(target.url, () =>
      Promise.all([
        send(target.url, "/api/sessions/taken?missing=null", "bob"),
        send(target.url, "/api/sessions/never-made?missing=null", "bob"),
      ]));
    assert.deepEqual(theirs, unknown);
    assert.deepEqual(theirs, { status: 200, text: "null" });
    const mine = await send(target.url, "/api/sessions/taken?missing=null", "alice");
    assert.equal(JSON.parse(mine.text).session_id, "taken");
  } finally {
    await target.close();
  }
});

test("a session keeps text attachments up to its quota; past it a message is a 413 naming attachments", async () => {
  const target = await startTarget({
    ACCESS__MODE: "header",
    LIMITS__MAX_SESSION_ATTACHMENT_CHARS: "3000000",
  });
  try {
    const text = "t".repeat(1_000_000);
    const message = (i: number) => ({
      session_id: "attach",
      content: `note ${i}`,
      attachments: [{ kind: "text", text: `${i}${text}` }],
    });
    for (let i = 0; i < 2; i++) {
      assert.equal((await send(target.url, "/api/chat", "alice", message(i))).status, 200);
    }
    // Built before the watch: the client shares this process's event loop with the runtime.
    const over = JSON.stringify({
      ...message(9),
      attachments: [{ kind: "text", text: "x".repeat(1_500_000) }],
    });
    const refused = await withinBounds(
      target.url,
      () => send(target.url, "/api/chat", "alice", over),
    );
    assert.equal(refused.status, 413, refused.text.slice(0, 300));
    assert.match(refused.text, /"attachments"/);
    assert.match(refused.text, /LIMITS__MAX_SESSION_ATTACHMENT_CHARS/);
    // Nothing of the refused message was kept; a message without attachments still goes.
    const plain = await send(target.url, "/api/chat", "alice", {
      session_id: "attach",
      content: "no files",
    });
    assert.equal(plain.status, 200);
    const kept = await send(target.url, "/api/sessions/attach/messages", "alice");
    assert.ok(!kept.text.includes("x".repeat(1000)), "the refused attachment is not stored");
    // The quota is per session: another session starts from nothing.
    assert.equal(
      (await send(target.url, "/api/chat", "alice", { ...message(3), session_id: "attach-2" }))
        .status,
      200,
    );
  } finally {
    await target.close();
  }
});

test("translated and site-local IPv6 forms are refused at registration", async () => {
  const admin = "smaller-admin-token-0123456789abc";
  const target = await startTarget({ ACCESS__ADMIN_TOKEN: admin });
  try {
    for (const host of ["[::ffff:0:7f00:1]", "[fec0::1]", "[::ffff:0:a00:1]", "[2001:0:4136::1]"]) {
      const res = await withinBounds(
        target.url,
        () =>
          fetch(`${target.url}/v1/integrations/generic-rest/connect`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
            body: JSON.stringify({
              workspace_id: "default",
              base_url: `http://${host}:7200/tools`,
              secret: "smaller-secret-0123456789abcdef",
            }),
          }).then(async (r) => ({ status: r.status, body: await r.json() as any })),
      );
      assert.equal(res.status, 422, `${host}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.error.message, /private, loopback or link-local/);
    }
  } finally {
    await target.close();
  }
});
