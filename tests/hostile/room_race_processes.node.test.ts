/**
 * Point 4 across processes: principal A creates session X through one
 * runtime process while principal B's socket on another process sends a
 * message for X (header access mode, shared store). A refused socket must
 * receive none of X's events, which reach every process through the store.
 * 200 races per shared store, 0 leaks.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { requireService } from "../../server/kv/store.case.ts";
import { client, sleep } from "../../server/transports/_test_kit.ts";
import { startCluster, stopAll } from "../multiprocess/_cluster.ts";
import { dropNamespace, freshNamespace, sharedStores } from "../multiprocess/_stores.ts";

after(stopAll);

const TRIALS = 200;

for (const shared of sharedStores()) {
  const url = requireService(
    shared.variable,
    `Socket.IO room race across processes on ${shared.kind}`,
  );
  if (!url) continue;
  test(
    `a socket refused on another process never receives the session's events (${shared.kind}, ${TRIALS} races)`,
    {
      timeout: 240_000,
    },
    async () => {
      const namespace = freshNamespace();
      const [one, two] = await startCluster(2, {
        STORE__URL: url,
        TEST_STORE_NAMESPACE: namespace,
        TEST_SCRIPT: "pend",
        ACCESS__MODE: "header",
      });
      const bob = await client(two.url, { extraHeaders: { "x-tether-principal": "bob" } });
      let refused = 0;
      const leaks: string[] = [];
      try {
        for (let i = 0; i < TRIALS; i++) {
          const sid = `xrace-${i}-${crypto.randomUUID().slice(0, 8)}`;
          const seen = bob.events.length;
          const post = fetch(`${one.url}/api/chat`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-tether-principal": "alice" },
            body: JSON.stringify({ session_id: sid, content: "select issue 42" }),
          }).then(async (r) => ({ status: r.status, body: await r.text() }));
          await sleep(i % 4);
          const asked = bob.ask("assistant_message", { session_id: sid, content: "hi" });
          const [alice, answer] = await Promise.all([post, asked]);
          if (answer.ok) continue;
          assert.equal(answer.error.type, "forbidden", JSON.stringify(answer));
          assert.equal(alice.status, 200, alice.body);
          refused++;
          await sleep(30); // events cross processes through the store
          const got = bob.events.slice(seen).filter((e) => e.event !== "assistant:error");
          if (got.length) leaks.push(`${sid}: ${got.map((e) => e.event).join(",")}`);
        }
      } finally {
        bob.close();
        await stopAll();
        await dropNamespace(url, namespace);
      }
      assert.deepEqual(leaks, [], `${leaks.length} of ${refused} refused sockets saw session X`);
      assert.ok(refused >= TRIALS / 4, `only ${refused} races ended with B refused`);
    },
  );
}
