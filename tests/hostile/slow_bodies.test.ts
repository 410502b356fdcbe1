/**
 * Slow bodies (point 8): a client trickling its body gets a 408 once
 * LIMITS__BODY_TIMEOUT_MS passes and its connection is closed; bodies read
 * at once are capped by LIMITS__MAX_BODY_READS (503 past it); /health keeps
 * answering throughout.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { startTarget, type Target, watchHealth } from "./_kit.ts";
import { HEALTH_BOUND_MS } from "./_kit.ts";

let target: Target;
before(
  async () => (target = await startTarget({
    LIMITS__BODY_TIMEOUT_MS: "800",
    LIMITS__MAX_BODY_READS: "10",
    // One client sends them all here, so its own cap (fair_bodies.test.ts) is lifted past the ceiling.
    LIMITS__MAX_BODY_READS_PER_CLIENT: "20",
  })),
);
after(() => target.close());

/** Opens a raw connection that sends headers and then one byte of body every `everyMs`. */
function trickle(everyMs: number): { answer: Promise<string>; socket: Socket } {
  const { port } = new URL(target.url);
  const socket = connect(Number(port), "127.0.0.1");
  let received = "";
  socket.write(
    "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{",
  );
  const timer = setInterval(() => socket.write(" "), everyMs);
  const answer = new Promise<string>((resolve) => {
    socket.on("data", (chunk) => (received += chunk));
    socket.on("close", () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.on("error", () => {});
  });
  return { answer, socket };
}

test("ten connections trickling a body each get a 408 and are closed", async () => {
  const stop = watchHealth(target.url);
  const started = performance.now();
  const slow = Array.from({ length: 10 }, () => trickle(200));
  const answers = await Promise.all(slow.map((s) => s.answer));
  const took = performance.now() - started;
  assert.ok((await stop()) < HEALTH_BOUND_MS);
  for (const answer of answers) {
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.match(answer, /LIMITS__BODY_TIMEOUT_MS/);
  }
  assert.ok(took < 3_000, `closed after ${took.toFixed(0)} ms`);
});

test("past the cap on bodies read at once a request is a 503 at once, and a slot frees up", async () => {
  const slow = Array.from({ length: 10 }, () => trickle(200));
  await new Promise((r) => setTimeout(r, 200));
  const refused = await fetch(`${target.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session_id: "cap", content: "hi" }),
  });
  assert.equal(refused.status, 503);
  assert.match(await refused.text(), /LIMITS__MAX_BODY_READS/);
  await Promise.all(slow.map((s) => s.answer));
  const served = await fetch(`${target.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session_id: "cap", content: "hi" }),
  });
  assert.equal(served.status, 200);
  await served.body?.cancel();
});
