/**
 * Two runtime processes on loopback sharing one store (Redis, Postgres, one
 * Deno KV file through `@deno/kv`, and the test-only `relay:` store
 * registered by scheme, which declares itself shared):
 * continuations cross processes exactly once, events of a turn reach clients
 * attached to the other process, and a killed process's session is taken
 * over once its lease expires. Node only: it spawns Node processes.
 */
import { after, before, describe, test } from "node:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { requireService } from "../../server/kv/store.case.ts";
import { ISSUE_CONTEXT } from "../../server/testing/harness.ts";
import { completed, type Loose, type Recorder, request, socketClient, sse } from "./_clients.ts";
import { type Proc, startCluster, stopAll } from "./_cluster.ts";
import { dropNamespace, freshNamespace, openStore, sharedStores } from "./_stores.ts";
import { checkTurns } from "./_turns.ts";

const LEASE_TTL_MS = 1_500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fresh = (label: string) => `mp-${label}-${crypto.randomUUID().slice(0, 8)}`;
const chat = (p: Proc, body: unknown, timeoutMs?: number) =>
  request(`${p.url}/api/chat`, "POST", body, timeoutMs);
const readMessages = (p: Proc, sid: string) => request(`${p.url}/api/sessions/${sid}/messages`);
const messages = async (p: Proc, sid: string) =>
  (await readMessages(p, sid)).body.messages as Loose[];
const pend = (p: Proc, sid: string) =>
  chat(p, { session_id: sid, content: "select issue 42", host_context: ISSUE_CONTEXT });
const answer = (sid: string, callId: string, result: unknown = { selected: 42 }) => ({
  session_id: sid,
  content: "",
  tool_call_id: callId,
  tool_result: result,
});

/** Runs `body`, adding the processes' stderr to a failure so a broken process explains itself. */
async function withLogs(procs: Proc[], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const logs = procs.filter(Boolean).map((p) =>
      `--- ${p.name} stderr ---\n${p.log().slice(-3_000)}`
    ).join("\n");
    if (error instanceof Error) error.message += `\n${logs}`;
    throw error;
  }
}

function sharedSuite(kind: string, url: string): void {
  const namespace = freshNamespace();
  const base = { STORE__URL: url, TEST_STORE_NAMESPACE: namespace };
  after(async () => {
    await stopAll();
    await dropNamespace(url, namespace);
  });

  describe(`continuations and events across two processes (${kind})`, () => {
    let a!: Proc, b!: Proc;
    before(async () => void ([a, b] = await startCluster(2, { ...base, TEST_SCRIPT: "pend" })), {
      timeout: 45_000,
    });
    after(() => Promise.all([a?.kill(), b?.kill()]));

    test(
      "a call pended on A and answered on B resumes once",
      { timeout: 30_000 },
      () =>
        withLogs([a, b], async () => {
          const sid = fresh("resume");
          const pended = await pend(a, sid);
          assert.equal(pended.status, 200, JSON.stringify(pended.body));
          const call = pended.body.pending_tool_call;
          assert.equal(call.tool_name, "select_issue");
          assert.equal(
            (await request(`${b.url}/api/sessions/${sid}`)).body.pending_action?.tool_call_id,
            call.call_id,
            "B reads A's pending call",
          );
          const resumed = await chat(b, answer(sid, call.call_id));
          assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
          assert.equal(resumed.body.content, "Selected issue 42 on B.");
          const again = await chat(a, answer(sid, call.call_id));
          assert.equal(again.status, 409, "a repeat on A is refused");
          assert.equal(again.body.error.type, "session_error");
          const stored = await messages(a, sid);
          assert.deepEqual(stored.map((m) => m.role), ["user", "assistant"]);
          assert.equal(
            stored[1].content,
            "Selected issue 42 on B.",
            "the model resumed exactly once",
          );
          assert.equal(stored[1].status, "completed");
          assert.deepEqual(stored[1].tool_calls.map((c: Loose) => [c.status, c.result]), [[
            "completed",
            { selected: 42 },
          ]]);
          assert.equal((await request(`${a.url}/api/sessions/${sid}`)).body.pending_action, null);
        }),
    );

    test("100 duplicate continuations spread over A and B are applied once; 99 get 409", {
      timeout: 60_000,
    }, () =>
      withLogs([a, b], async () => {
        const sid = fresh("dup");
        const call = (await pend(a, sid)).body.pending_tool_call;
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            chat(i % 2 ? b : a, answer(sid, call.call_id, { n: i }), 45_000)),
        );
        const won = answers.flatMap((r, i) => (r.status === 200 ? [i] : []));
        const statuses = [
          ...new Set(answers.map((r) =>
            r.status
          )),
        ].sort();
        assert.equal(won.length, 1, `exactly one continuation applies; statuses seen: ${statuses}`);
        assert.equal(
          answers.filter((r) => r.status === 409 && r.body.error?.type === "session_error").length,
          99,
        );
        const stored = await messages(b, sid);
        assert.deepEqual(stored.map((m) => m.role), ["user", "assistant"]);
        assert.deepEqual(
          stored[1].tool_calls.map((c: Loose) => c.result),
          [{ n: won[0] }],
          "the stored result is the winner's",
        );
        assert.equal(
          stored[1].content,
          `Selected issue 42 on ${won[0] % 2 ? "B" : "A"}.`,
          "the model resumed exactly once",
        );
      }));

    test(
      "clients attached to A see every event of turns run on B, in order",
      { timeout: 45_000 },
      () =>
        withLogs([a, b], async () => {
          const sid = fresh("events");
          const first = await sse(`${a.url}/api/chat`, {
            session_id: sid,
            content: "select issue 42",
            host_context: ISSUE_CONTEXT,
          });
          await first.until(completed);
          first.close();
          const lastSeq = first.events.at(-1)!.payload.seq as number;
          const callId = first.events.find((e) =>
            e.event === "assistant:final_response"
          )!.payload.pending_tool_call.call_id;
          const clients: [string, Recorder][] = [
            ["SSE on A", await sse(`${a.url}/api/sessions/${sid}/events?after=${lastSeq}`)],
            ["Socket.IO on A", await socketClient(a.url, sid, lastSeq)],
          ];
          try {
            await sleep(300); // subscriptions across processes settle before B publishes
            const resumed = await chat(b, answer(sid, callId));
            assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
            const pendedOnB = await chat(b, { session_id: sid, content: "select issue 42 again" });
            assert.equal(pendedOnB.status, 200, JSON.stringify(pendedOnB.body));
            // A runs the last turn: its numbering must continue after B's events.
            const onA = await sse(
              `${a.url}/api/chat`,
              answer(sid, pendedOnB.body.pending_tool_call.call_id),
            );
            await onA.until(completed);
            onA.close();
            const failures: string[] = [];
            for (const [label, client] of clients) {
              try {
                await client.until(
                  (e) =>
                    completed(e) && e.payload.seq >= (onA.events.at(-1)!.payload.seq as number),
                  10_000,
                );
                assertSawTurns(
                  label,
                  client,
                  lastSeq,
                  pendedOnB.body.pending_tool_call.call_id,
                  onA,
                );
              } catch (error) {
                failures.push(`${label}: ${(error as Error).message}`);
              }
            }
            assert.deepEqual(failures, [], failures.join("\n\n"));
          } finally {
            for (const [, client] of clients) client.close();
          }
        }),
    );
  });

  describe(`a process killed mid-turn (${kind})`, () => {
    let a!: Proc, b!: Proc;
    const env = {
      ...base,
      TEST_SCRIPT: "slow",
      TEST_DELAY_MS: "100",
      LIMITS__LEASE_TTL_MS: String(LEASE_TTL_MS),
      LIMITS__TOOL_TIMEOUT_MS: "600000",
    };
    before(async () => void ([a, b] = await startCluster(2, env)), { timeout: 45_000 });
    after(() => Promise.all([a?.kill(), b?.kill()]));

    test(
      "killing A mid-turn lets B take the session over after the lease expires; the calls are unknown",
      { timeout: 45_000 },
      () =>
        withLogs([a, b], async () => {
          const sid = fresh("kill");
          const store = await openStore(url, namespace);
          try {
            const stream = await sse(`${a.url}/api/chat`, {
              session_id: sid,
              content: "please wait for it",
            });
            const call = await stream.until((e) => e.event === "assistant:tool_call");
            assert.equal(call.payload.tool_name, "wait_forever");
            let last: unknown;
            await waitFor(
              async () => {
                const read = await readMessages(b, sid);
                last = { status: read.status, body: read.body };
                return read.body.messages?.[1]?.tool_calls?.[0]?.status === "running";
              },
              "the running call to be stored",
              10_000,
              () => last,
            );
            const lease = await store.get<{ expiresAt?: number }>(["lease", sid]);
            assert.ok(lease, 'A holds the lease ["lease", session] while its turn runs');
            await a.kill("SIGKILL");
            const killedAt = Date.now();
            const expiresAt =
              (await store.get<{ expiresAt?: number }>(["lease", sid]))?.value.expiresAt ??
                killedAt;
            stream.close();

            let reply = await chat(b, { session_id: sid, content: "are you there?" }, 20_000);
            while (
              [409, 423, 503].includes(reply.status) &&
              Date.now() - killedAt < LEASE_TTL_MS + 15_000
            ) {
              await sleep(200); // B may refuse while A's lease is still valid; it must accept once it lapsed
              reply = await chat(b, { session_id: sid, content: "are you there?" }, 20_000);
            }
            const answeredAt = Date.now();
            assert.equal(reply.status, 200, JSON.stringify(reply.body));
            assert.match(reply.body.content, /on B\.$/);
            assert.ok(
              answeredAt >= expiresAt - 50,
              `B ran the session ${expiresAt - answeredAt} ms before A's lease expired`,
            );
            const stored = await messages(b, sid);
            assert.deepEqual(stored.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
            assert.deepEqual(stored[1].tool_calls.map((c: Loose) => [c.tool_name, c.status]), [[
              "wait_forever",
              "unknown",
            ]]);
            assert.notEqual(stored[1].status, "running");
            assert.equal(stored[3].status, "completed");
          } finally {
            await store.close();
          }
        }),
    );
  });
}

/** Asserts a client on A saw B's resumed turn, B's pended turn and A's resumed turn, numbered from `lastSeq + 1`. */
function assertSawTurns(
  label: string,
  client: Recorder,
  lastSeq: number,
  pendedCallId: string,
  onA: Recorder,
): void {
  const turns = checkTurns(client.events, lastSeq + 1, label);
  assert.equal(turns.length, 3, `${label}: three turns`);
  assert.equal(turns[0].final.content, "Selected issue 42 on B.");
  assert.equal(turns[0].text, "Selected issue 42 on B.", `${label}: every text delta of B's turn`);
  assert.deepEqual(turns[1].names, ["status", "tool_call", "final_response", "status"]);
  assert.equal(turns[1].final.pending_tool_call.call_id, pendedCallId);
  assert.equal(turns[2].final.content, "Selected issue 42 on A.");
  const own = client.events.slice(-onA.events.length).map((e) => e.payload);
  assert.deepEqual(
    own,
    onA.events.map((e) => e.payload),
    `${label}: A's own turn as its sender saw it`,
  );
}

/** Polls `check` until it holds; on timeout the error ends with what `seen` says was last seen. */
async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
  seen?: () => unknown,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) {
      const last = seen ? `; last seen: ${JSON.stringify(seen())}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}`);
    }
    await sleep(50);
  }
}

for (const shared of sharedStores()) {
  const url = requireService(shared.variable, `multi-process tests on ${shared.kind}`);
  if (url !== undefined) {
    describe(`several runtime processes on ${shared.kind}`, () => sharedSuite(shared.kind, url));
  }
}

// Stores that need no service: one Deno KV file opened by both processes, and the same file
// behind the test-only `relay:` store, which the runtime knows only by what it declares.
const dir = await mkdtemp(join(tmpdir(), "tether-mp-kv-"));
after(() => rm(dir, { recursive: true, force: true }));
describe(
  "several runtime processes on one Deno KV file",
  () => sharedSuite("denokv", `denokv:${join(dir, "shared.db")}`),
);
describe(
  "several runtime processes on a store registered by scheme (relay:)",
  () => sharedSuite("relay", `relay:denokv:${join(dir, "relay.db")}`),
);
