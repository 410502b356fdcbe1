import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import { client, completed, mid, readSse, runtime } from "../transports/_test_kit.ts";

const JSON_HEADERS = { "content-type": "application/json" };

async function refused(
  promise: Promise<unknown>,
): Promise<{ message: string; data?: { type: string } }> {
  try {
    await promise;
  } catch (error) {
    return error as { message: string; data?: { type: string } };
  }
  throw new Error("the connection was accepted");
}

test("with ACCESS__TOKEN, HTTP needs the bearer token and Socket.IO needs auth.token", async () => {
  const rt = await runtime({ env: { ACCESS__TOKEN: "s3cret" } });
  const body = JSON.stringify({ id: mid(), session_id: "tok", content: "hi" });
  assert.equal(
    (await fetch(`${rt.url}/api/chat`, { method: "POST", headers: JSON_HEADERS, body })).status,
    401,
  );
  const wrong = await fetch(`${rt.url}/api/chat`, {
    method: "POST",
    headers: { ...JSON_HEADERS, authorization: "Bearer nope" },
    body,
  });
  assert.equal(wrong.status, 401);
  assert.match((await wrong.json()).error.message, /bearer token/);
  const right = await fetch(`${rt.url}/api/chat`, {
    method: "POST",
    headers: { ...JSON_HEADERS, authorization: "Bearer s3cret" },
    body,
  });
  assert.equal(right.status, 200);
  assert.equal((await fetch(`${rt.url}/api/sessions/tok/events?after=0`)).status, 401);
  for (const auth of [undefined, { token: "nope" }]) {
    const error = await refused(client(rt.url, { auth }));
    assert.equal(error.data?.type, "forbidden");
    assert.match(error.message, /bearer token/);
  }
  const ok = await client(rt.url, { auth: { token: "s3cret" } });
  assert.equal((await ok.ask("assistant_join_session", { session_id: "tok" })).ok, true);
  ok.close();
  await rt.close();
});

test("in header mode a session belongs to its creator: every route and event refuses another principal", async () => {
  const rt = await runtime({
    env: { ACCESS__MODE: "header" },
    model: scriptedModel([{ text: "private answer" }]),
  });
  const ann = { "x-tether-principal": "ann" };
  const bob = { "x-tether-principal": "bob" };
  const call = (path: string, init: RequestInit & { headers: Record<string, string> }) =>
    fetch(`${rt.url}${path}`, init);
  assert.equal(
    (await call("/api/chat", { method: "POST", headers: JSON_HEADERS, body: "{}" })).status,
    401,
  );
  const first = await call("/api/chat", {
    method: "POST",
    headers: { ...JSON_HEADERS, ...ann },
    body: JSON.stringify({ id: mid(), session_id: "own", content: "hi" }),
  });
  assert.equal(first.status, 200);
  const message = JSON.stringify({ id: mid(), session_id: "own", content: "mine now" });
  const agui = JSON.stringify({
    threadId: "own",
    runId: "r",
    messages: [{ id: "u", role: "user", content: "hi" }],
  });
  const attempts: [string, RequestInit & { headers: Record<string, string> }][] = [
    ["/api/sessions/own", { headers: bob }],
    ["/api/sessions/own/messages", { headers: bob }],
    ["/api/sessions/own/events?after=0", { headers: bob }],
    ["/api/chat", { method: "POST", headers: { ...JSON_HEADERS, ...bob }, body: message }],
    ["/api/chat", {
      method: "POST",
      headers: { ...JSON_HEADERS, ...bob, accept: "text/event-stream" },
      body: message,
    }],
    ["/api/chat/own/cancel", { method: "POST", headers: bob }],
    ["/api/agui", { method: "POST", headers: { ...JSON_HEADERS, ...bob }, body: agui }],
    ["/api/sessions/own", { method: "DELETE", headers: bob }],
  ];
  for (const [path, init] of attempts) {
    const res = await call(path, init);
    assert.equal(res.status, 403, `${init.method ?? "GET"} ${path}`);
    assert.equal((await res.json()).error.type, "forbidden");
  }
  const admin = await call("/api/sessions/own", {
    headers: { "x-tether-principal": "root", "x-tether-roles": "admin" },
  });
  assert.equal(admin.status, 200);

  const b = await client(rt.url, { extraHeaders: bob });
  for (
    const [event, payload] of [
      ["assistant_join_session", { session_id: "own" }],
      ["assistant_join_session", { session_id: "own", after: 0 }],
      ["assistant_message", { id: mid(), session_id: "own", content: "hi" }],
      ["assistant_cancel", { session_id: "own" }],
    ] as const
  ) {
    const answer = await b.ask(event, payload);
    assert.equal(answer.error?.type, "forbidden", `${event} ${JSON.stringify(payload)}`);
  }
  const a = await client(rt.url, { extraHeaders: ann });
  await a.ask("assistant_message", { id: mid(), session_id: "own", content: "again" });
  await a.until(completed);
  assert.deepEqual(b.events.map((e) => e.payload.type), [
    "forbidden",
    "forbidden",
    "forbidden",
    "forbidden",
  ], "bob saw none of ann's events");
  a.close();
  b.close();
  await rt.close();
});

test("a host-supplied authenticate function decides for HTTP and Socket.IO, and a throwing one refuses", async () => {
  const rt = await runtime({
    access: {
      authenticate: (req: Request) => {
        const user = req.headers.get("x-user");
        if (user === "boom") throw new Error("identity service down");
        return user ? { id: user, roles: [] } : null;
      },
    } as never,
  });
  const post = (headers: Record<string, string>) =>
    fetch(`${rt.url}/api/chat`, {
      method: "POST",
      headers: { ...JSON_HEADERS, ...headers },
      body: JSON.stringify({ id: mid(), session_id: "fn", content: "hi" }),
    });
  assert.equal((await post({})).status, 401);
  assert.equal((await post({ "x-user": "boom" })).status, 401);
  assert.equal((await post({ "x-user": "cy" })).status, 200);
  assert.equal((await rt.engine.repo.record("fn"))!.value.owner_id, "cy");
  assert.equal((await refused(client(rt.url))).data?.type, "forbidden");
  const c = await client(rt.url, { extraHeaders: { "x-user": "cy" } });
  assert.equal((await c.ask("assistant_join_session", { session_id: "fn" })).ok, true);
  c.close();
  await rt.close();
});

test("state changes and Socket.IO connections from an Origin outside the allow-list are refused", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "ok" }]) });
  const post = (origin: string) =>
    fetch(`${rt.url}/api/chat`, {
      method: "POST",
      headers: { ...JSON_HEADERS, origin },
      body: JSON.stringify({ id: mid(), session_id: "or", content: "hi" }),
    });
  const evil = await post("https://evil.example");
  assert.equal(evil.status, 403);
  assert.match((await evil.json()).error.message, /ACCESS__CORS_ORIGINS/);
  for (const origin of ["http://localhost:5173", "http://127.0.0.1:3000", "http://[::1]:8080"]) {
    const res = await post(origin);
    assert.equal(res.status, 200, origin);
    assert.equal(res.headers.get("access-control-allow-origin"), origin);
    assert.equal(res.headers.get("vary"), "Origin");
  }
  // Without an Origin, a POST answer is left as it is; what a cache may keep still varies on it.
  const plain = await fetch(`${rt.url}/api/chat`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ id: mid(), session_id: "or", content: "hi" }),
  });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get("access-control-allow-origin"), null);
  assert.equal(plain.headers.get("vary"), null);
  assert.equal((await fetch(`${rt.url}/api/sessions/or`)).headers.get("vary"), "Origin");
  const preflight = await fetch(`${rt.url}/api/chat`, {
    method: "OPTIONS",
    headers: {
      origin: "http://localhost:5173",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "http://localhost:5173");
  assert.equal(
    (await fetch(`${rt.url}/api/sessions/or`, { headers: { origin: "https://evil.example" } }))
      .headers.get("access-control-allow-origin"),
    null,
  );
  const refusal = await refused(
    client(rt.url, { extraHeaders: { origin: "https://evil.example" } }),
  );
  assert.equal(refusal.data?.type, "forbidden");
  assert.match(refusal.message, /evil\.example/);
  const ok = await client(rt.url, { extraHeaders: { origin: "http://localhost:5173" } });
  ok.close();
  await rt.close();

  const custom = await runtime({ env: { ACCESS__CORS_ORIGINS: "https://app.example" } });
  assert.equal(
    (await refused(client(custom.url, { extraHeaders: { origin: "http://localhost:5173" } }))).data
      ?.type,
    "forbidden",
  );
  const app = await client(custom.url, { extraHeaders: { origin: "https://app.example" } });
  app.close();
  const sse = await fetch(`${custom.url}/api/chat`, {
    method: "POST",
    headers: { ...JSON_HEADERS, accept: "text/event-stream", origin: "https://app.example" },
    body: JSON.stringify({ id: mid(), session_id: "or2", content: "hi" }),
  });
  assert.equal(sse.status, 200);
  await readSse(sse);
  await custom.close();
});
