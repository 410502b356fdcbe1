/**
 * Finding 6 of the second hardening round: 70 uploads from one client, each
 * dripping a byte every 5 s, took every reading slot, and other clients got
 * 503 for 21 s. Reading is now capped per client (a principal at one address)
 * under the runtime's ceiling: the dripping client's extra bodies are 429 at
 * once, and every other client's POSTs are answered. Against a real runtime
 * on loopback, by address (`trusted_local`: the attacker connects from
 * 127.0.0.2) and by principal (header mode, one address). Bounds: every
 * other client's answer within 3 s, `/health` within 100 ms during the attack.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { startTarget, type Target } from "./_kit.ts";
import { withinBounds } from "./_bounds.ts";

const UPLOADS = 70;

/** One upload that sends its headers and `{`, then a byte every 5 s; resolves with what came back. */
function drip(
  target: Target,
  from: string,
  headers: string,
): { received: () => string; socket: Socket } {
  const socket = connect({
    port: Number(new URL(target.url).port),
    host: "127.0.0.1",
    localAddress: from,
  });
  let received = "";
  socket.write(
    `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n${headers}content-length: 100000\r\n\r\n{`,
  );
  const timer = setInterval(() => socket.write(" "), 5_000);
  socket.on("data", (chunk) => (received += chunk));
  socket.on("close", () => clearInterval(timer));
  socket.on("error", () => {});
  return { received: () => received, socket };
}

async function attack(
  target: Target,
  from: string,
  attacker: string,
  victim: Record<string, string>,
) {
  // Warm: a process's first turn compiles the turn's code, which is not the attack's cost.
  await (await fetch(`${target.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...victim },
    body: JSON.stringify({ session_id: "fair-warm", content: "hello" }),
  })).text();
  const uploads = Array.from({ length: UPLOADS }, () => drip(target, from, attacker));
  try {
    await new Promise((r) => setTimeout(r, 500)); // every upload is being read (or refused)
    const body = (i: number) => JSON.stringify({ session_id: `fair-${i}`, content: "hello" });
    const answers = await withinBounds(
      target.url,
      () =>
        Promise.all(Array.from({ length: 5 }, (_, i) =>
          fetch(`${target.url}/api/chat`, {
            method: "POST",
            headers: { "content-type": "application/json", ...victim },
            body: body(i),
          }).then(async (r) => ({ status: r.status, text: await r.text() })))),
    );
    for (const a of answers) assert.equal(a.status, 200, a.text.slice(0, 300));
    // The attacker's own extra uploads were refused, naming the per-client limit (their answers
    // may still be on their way on a loaded machine: a few seconds are allowed for them).
    const refusedNow = () =>
      uploads.map((u) => u.received()).filter((a) => a.startsWith("HTTP/1.1 429"));
    const deadline = Date.now() + 5_000;
    while (refusedNow().length < UPLOADS - 32 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // A moment more: a refusal too many would show here.
    await new Promise((r) => setTimeout(r, 300));
    const refused = refusedNow();
    // Half the ceiling (64) may go to one client while the rest is free; the rest is the others'.
    assert.equal(refused.length, UPLOADS - 32, "all but half the ceiling's slots were refused");
    assert.match(refused[0], /LIMITS__MAX_BODY_READS_PER_CLIENT/);
  } finally {
    for (const u of uploads) u.socket.destroy();
  }
}

test(`one address's ${UPLOADS} dripping uploads leave other clients served`, async () => {
  const target = await startTarget();
  try {
    await attack(target, "127.0.0.2", "", {});
  } finally {
    await target.close();
  }
});

test(`one principal's ${UPLOADS} dripping uploads leave other principals served`, async () => {
  const target = await startTarget({ ACCESS__MODE: "header" });
  try {
    await attack(target, "127.0.0.1", "x-tether-principal: mallory\r\n", {
      "x-tether-principal": "alice",
    });
  } finally {
    await target.close();
  }
});
