// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
/**
 * Point 4 of the hardening issue: in header access mode, principal B's socket
 * sends a message for session X while principal A's first POST creates X.
 * Whatever the timing, a refused socket must stay outside X's room and
 * receive none of X's events. 200 races per store, 0 leaks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { client, runtime, sleep } from "../../server/transports/_test_kit.ts";
import { sessionRoom } from "../../server/transports/_room_fanout.ts";
import { storesUnderTest } from "./_stores.ts";

const TRIALS = 200;

for (const under of storesUnderTest("Socket.IO room race")) {
  test(`a socket refused during a concurrent creation never joins the room (${under.name}, ${TRIALS} races)`, async () => {
    const { store, release } = await under.open();
    const rt = await runtime({ store, env: { ACCESS__MODE: "header" } });
    const bob = await client(rt.url, { extraHeaders: { "x-tether-principal": "bob" } });
    let refused = 0;
    const leaks: string[] = [];
    try {
      for (let i = 0; i < TRIALS; i++) {
        const sid = `race-${i}-${crypto.randomUUID().slice(0, 8)}`;
        const seen = bob.events.length;
        const post = fetch(`${rt.url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-tether-principal": "alice" },
          body: JSON.stringify({ session_id: sid, content: "hello" }),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
        // Vary who reaches the store first: from B ahead to B well behind.
        await sleep(i % 4);
        const asked = bob.ask("assistant_message", { session_id: sid, content: "hi" });
        const [alice, answer] = await Promise.all([post, asked]);
        if (answer.ok) {
          assert.equal(alice.status, 403, "one of the two owns the session");
          continue;
        }
        assert.equal(answer.error.type, "forbidden", JSON.stringify(answer));
        assert.equal(alice.status, 200);
        refused++;
        await sleep(2); // let anything in flight on the websocket arrive
        const got = bob.events.slice(seen).filter((e) => e.event !== "assistant:error");
        const members = await rt.io!.of("/assistant").in(sessionRoom(sid)).fetchSockets();
        if (got.length || members.some((s) => s.id === bob.socket.id)) {
          leaks.push(`${sid}: ${got.map((e: any) => e.event).join(",") || "in room"}`);
        }
      }
    } finally {
      bob.close();
      await rt.close();
      await release();
    }
    assert.deepEqual(leaks, [], `${leaks.length} of ${refused} refused sockets saw session X`);
    assert.ok(refused >= TRIALS / 4, `only ${refused} races ended with B refused`);
  });
}
