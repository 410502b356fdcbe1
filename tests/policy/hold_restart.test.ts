/**
 * A hold survives a restart: the held call and its approval request are in
 * the store, and the next runtime on that store polls the hold again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client } from "../../server/transports/_test_kit.ts";
import { ask, holdPolicy, holdRuntime, operator } from "./_hold_kit.ts";

test("a held call survives a restart: approved on the new runtime, it runs there once", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-hold-"));
  const env = { STORE__URL: join(dir, "store.db") };
  try {
    const first = await holdRuntime({ document: holdPolicy() }, env);
    const { c, call } = await ask(first.rt, "hold-restart");
    c.close();
    await first.rt.close();
    assert.deepEqual(first.runs, []);

    const second = await holdRuntime({ document: holdPolicy() }, env);
    try {
      await second.clock.sleepers();
      const listed = await operator(second.rt, "GET", "/api/approvals");
      assert.deepEqual(listed.body.requests.map((r: { request_id: string }) => r.request_id), [
        call.approval.request_id,
      ]);
      const b = await client(second.rt.url);
      await b.ask("assistant_join_session", { session_id: "hold-restart" });
      await operator(second.rt, "POST", `/api/approvals/${call.approval.request_id}/decision`, {
        decision: "approve",
      });
      second.clock.advance(2_000);
      const result = await b.until((e) => e.event === "assistant:tool_result");
      assert.equal(result.payload.call_id, call.call_id);
      assert.deepEqual(second.runs, [{ command: "npm test" }]);
      b.close();
    } finally {
      await second.rt.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
