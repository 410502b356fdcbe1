// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime in tests and benchmarks
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createRuntime } from "./app.ts";
import { redisStore } from "./kv/redis.ts";
import { requireService } from "./kv/store.case.ts";
import { scriptedModel } from "./testing/scripted_model.ts";
import { ISSUE_CONTEXT } from "./testing/harness.ts";
import type { SessionEvent } from "./events/hub.ts";
import { createClient } from "redis";

const url = requireService("REDIS_URL", "shared-store engine tests");
if (url !== undefined) {
  const namespace = `tether-engine-${crypto.randomUUID()}`;
  const script = () =>
    scriptedModel((o) =>
      o.prompt.at(-1)?.role === "user" && !JSON.stringify(o.prompt.at(-1)).includes("tool") &&
        o.prompt.filter((m) => m.role === "tool").length === 0
        ? { calls: [{ name: "select_issue", args: { number: 42 } }] }
        : { text: "Selected." }
    );
  const runtime = async (model: ReturnType<typeof scriptedModel>) => {
    const app = createRuntime({
      store: await redisStore(url, { namespace }),
      model,
      warn: () => {},
    });
    const post = async (body: unknown) => {
      const res = await app.request("/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() as any };
    };
    return { app, post, engine: await app.engine() };
  };

  test("two runtimes on one Redis: pended on A, answered on B, with A's subscribers seeing B's events in order", async () => {
    const modelA = script();
    const modelB = script();
    const a = await runtime(modelA);
    const b = await runtime(modelB);
    try {
      const seen: SessionEvent[] = [];
      const stop = a.engine.hub.subscribe("x1", (e) => seen.push(e));
      const first = await a.post({
        session_id: "x1",
        content: "select issue 42",
        host_context: ISSUE_CONTEXT,
      });
      const callId = first.body.pending_tool_call.call_id;
      const results = await Promise.all([
        b.post({ session_id: "x1", content: "", tool_call_id: callId, tool_result: 1 }),
        a.post({ session_id: "x1", content: "", tool_call_id: callId, tool_result: 2 }),
        b.post({ session_id: "x1", content: "", tool_call_id: callId, tool_result: 3 }),
      ]);
      assert.equal(results.filter((r) => r.status === 200).length, 1);
      assert.equal(
        modelA.prompts.length + modelB.prompts.length,
        2,
        "the model ran once per turn, resumed once",
      );
      await new Promise((r) => setTimeout(r, 100));
      stop();
      const seqs = seen.map((e) => e.payload.seq);
      assert.deepEqual(
        seqs,
        seqs.map((_, i) => seqs[0] + i),
        "consecutive sequence numbers across both processes",
      );
      assert.equal(
        seen.filter((e) => e.event === "assistant:status" && e.payload.status === "completed")
          .length,
        2,
      );
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });

  after(async () => {
    const client = createClient({ url });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `{${namespace}}:*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  });
}
