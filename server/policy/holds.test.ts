import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import { createLogger } from "../log.ts";
import { PolicyGate } from "./gate.ts";
import type { Verdict } from "../../protocol/mod.ts";
import { HoldWatcher } from "./holds.ts";
import { localBackend } from "./local_backend.ts";
import { LocalPolicyEngine } from "./local_engine.ts";
import { manualClock } from "./testing/manual_clock.ts";

const POLICY = {
  policies: [{
    id: "p",
    name: "P",
    type: "tool_permission" as const,
    version: 1,
    config: { requires_approval: ["Bash"] },
  }],
};
const call = {
  sessionId: "s1",
  userId: "ann",
  callId: "c1",
  toolName: "Bash",
  input: { command: "ls" },
};

function world() {
  const store = memoryStore();
  const clock = manualClock();
  const engine = new LocalPolicyEngine({ store, policies: POLICY, now: clock.now, log: () => {} });
  const gate = new PolicyGate(localBackend(engine, "tether"), { harness: "test" });
  const released: Verdict[] = [];
  const watcher = () =>
    new HoldWatcher({
      store,
      gate,
      clock,
      pollMs: 2_000,
      release: (_s, _c, verdict) => Promise.resolve(void released.push(verdict)),
      logger: createLogger(() => {}),
    });
  return { store, clock, engine, gate, released, watcher };
}

test("two processes watching one hold: the approved call is released once, with one token use", async () => {
  const w = world();
  const a = w.watcher();
  const b = w.watcher();
  const ask = await w.gate.evaluate(call);
  assert.equal(ask.decision, "ask");
  if (ask.decision !== "ask") return;
  await a.add(call, ask.approval);
  await b.rescan();
  await w.clock.sleepers(2);
  await w.engine.approvals.decide(ask.approval.request_id, "approve", "ops");
  w.clock.advance(2_000);
  for (let i = 0; i < 100 && w.released.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(w.released, [{ decision: "allow" }]);
  assert.deepEqual(await w.store.list(["policy_hold"]), [], "the hold is gone once claimed");
  await a.stop();
  await b.stop();
});

test("a hold left by a process that stopped is picked up by another on its next scan", async () => {
  const w = world();
  const gone = w.watcher();
  const ask = await w.gate.evaluate(call);
  if (ask.decision !== "ask") throw new Error("expected ask");
  await gone.add(call, ask.approval);
  await gone.stop();
  const other = w.watcher();
  await other.start();
  await w.clock.sleepers(1);
  await w.engine.approvals.decide(ask.approval.request_id, "deny", "ops", "not now");
  w.clock.advance(2_000);
  for (let i = 0; i < 100 && w.released.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(w.released.length, 1);
  assert.equal(w.released[0].decision, "deny");
  assert.match((w.released[0] as { reason: string }).reason, /not now/);
  await other.stop();
});
