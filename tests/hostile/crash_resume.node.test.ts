/**
 * Point 5 of the hardening issue: a runtime killed (SIGKILL) while a turn's
 * events are flowing, restarted on the same Deno KV file, must never reuse an
 * event number a client has seen: a client resuming with `Last-Event-ID`
 * gets every logged event after its last id, none twice, and the next turn
 * in full.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startProcess, stopAll } from "../multiprocess/_cluster.ts";
import { readSse, type SseEvent } from "../../server/transports/_test_kit.ts";

after(stopAll);

const SID = "crash-1";
// A slow disk under the event log: the kill lands while delivered events are not yet logged.
const ENTRY = fileURLToPath(new URL("./_slow_log_process.ts", import.meta.url));
const post = (url: string, content: string, accept = "application/json") =>
  fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify({ session_id: SID, content }),
  });
const seqOf = (e: SseEvent) => Number(e.id);
const isStatus = (status: string) => (e: SseEvent) =>
  e.event === "assistant:status" && e.data.status === status;

test("events numbered before a SIGKILL are never numbered again after the restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tether-crash-"));
  const env = { STORE__URL: join(dir, "store.db"), TEST_LOG_DELAY_MS: "400" };
  try {
    // A first turn runs to its end; the second is killed while its deltas stream.
    const first = await startProcess("A", { ...env, TEST_DELAY_MS: "10" }, ENTRY);
    const seen: SseEvent[] = await readSse(
      await post(first.url, "hello", "text/event-stream"),
      isStatus("completed"),
    );
    const streaming = await post(first.url, "hello again", "text/event-stream");
    let killed: Promise<void> | null = null;
    let count = 0;
    seen.push(
      ...await readSse(streaming, () => {
        // Kill the moment a few deltas arrived, before the turn's log writes can settle.
        if (++count < 12) return false;
        killed = first.kill("SIGKILL");
        return true;
      }),
    );
    assert.ok(killed, "the process was killed mid-turn");
    await killed;
    const lastSeen = seqOf(seen.at(-1)!);
    const ids = seen.map(seqOf);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "ids before the crash increase");
    assert.equal(new Set(ids).size, ids.length);

    const second = await startProcess("B", { ...env, TEST_DELAY_MS: "10" }, ENTRY);
    const follow = fetch(`${second.url}/api/sessions/${SID}/events`, {
      headers: { accept: "text/event-stream", "last-event-id": String(lastSeen) },
      // A client that never sees the next turn start is the failure this test looks for.
      signal: AbortSignal.timeout(15_000),
    });
    let started = false;
    const resumedP = follow.then((r) =>
      readSse(r, (e) => {
        if (isStatus("started")(e)) started = true;
        return started && isStatus("completed")(e);
      })
    );
    const answer = await post(second.url, "third message");
    assert.equal(answer.status, 200, await answer.clone().text());
    const resumed = await resumedP;
    const resumedIds = resumed.map(seqOf);
    assert.ok(resumedIds.every((id) => id > lastSeen), `resumed ${resumedIds} after ${lastSeen}`);
    assert.deepEqual(resumedIds, [...new Set(resumedIds)].sort((a, b) => a - b));
    assert.ok(resumed.some(isStatus("started")), "the new turn's start reached the client");

    // The log from the start: what the client saw keeps its number; what came after is all resumed.
    const log = await readSse(
      await fetch(`${second.url}/api/sessions/${SID}/events?after=0`, {
        headers: { accept: "text/event-stream" },
      }),
      (e) => seqOf(e) >= resumedIds.at(-1)!,
    );
    const byId = new Map(seen.map((e) => [seqOf(e), e]));
    for (const entry of log.filter((e) => seqOf(e) <= lastSeen)) {
      assert.deepEqual(entry.data, byId.get(seqOf(entry))?.data, `id ${entry.id} was reused`);
    }
    assert.deepEqual(log.filter((e) => seqOf(e) > lastSeen).map(seqOf), resumedIds);
    await second.kill();
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
});
