/**
 * The controller API for silent decisions (`output_mode: "host_tools"`)
 * against a real runtime: hold, pending with one call, receipts, and a
 * duplicate receipt refused.
 */
import { createHost, type Host, memoryJournal, TetherError } from "../../client/mod.ts";
import { deepEqual, equal, match, ok, rejects } from "./_assert.ts";
import { runtimeUrls } from "./_runtime.ts";

describe("silent decisions", () => {
  let host: Host;
  let x = 0;

  beforeEach(async () => {
    const { proxied } = await runtimeUrls();
    host = createHost({
      runtimeUrl: proxied,
      journal: memoryJournal(),
      autoConnect: false,
      webmcp: false,
    });
    host.view(() => ({ name: "scene", data: { current_x: x } }));
    host.action("set_position", {
      description: "Set the controlled object's position.",
      parameters: {
        type: "object",
        properties: { x: { type: "number" } },
        required: ["x"],
        additionalProperties: false,
      },
    }, ({ x: next }: { x: number }) => (x = next, { x }));
  });
  afterEach(() => host.close());

  it("a decision naming an action is pending with that one call; its receipt completes it", async () => {
    const decision = await host.decide("set position 3");
    equal(decision.decision, "pending");
    if (decision.decision !== "pending") return;
    equal(decision.call.tool_name, "set_position");
    deepEqual(decision.call.arguments, { x: 3 });
    deepEqual(decision.call.queued, []);
    match(decision.sessionId, /^decision-/);
    const receipt = await host.receipt(decision.call.call_id, { x: 3 });
    equal(receipt.decision, "completed");
    equal(receipt.sessionId, decision.sessionId);
  });

  it("a duplicate receipt is refused with a 409 and never applied twice", async () => {
    const decision = await host.decide("set position 5");
    ok(decision.decision === "pending");
    await host.receipt(decision.call.call_id, { x: 5 });
    const error = await rejects(() =>
      host.receipt(decision.call.call_id, { x: 5 }, { sessionId: decision.sessionId })
    );
    ok(error instanceof TetherError);
    equal((error as TetherError).status, 409);
    equal((error as TetherError).type, "session_error");
    match(error.message, /already recorded/);
  });

  it("a failed receipt is recorded as failed and completes the decision", async () => {
    const decision = await host.decide("set position 9");
    ok(decision.decision === "pending");
    const receipt = await host.receipt(decision.call.call_id, "the motor is stalled", {
      failed: true,
    });
    equal(receipt.decision, "completed");
  });

  it("a decision naming no action holds, and every decision gets a fresh session", async () => {
    const first = await host.decide("nothing to do right now");
    equal(first.decision, "hold");
    const second = await host.decide("still nothing");
    ok(first.sessionId !== second.sessionId, "a fresh session per decision");
  });

  it("an action named hold is refused before anything is sent", async () => {
    host.action("hold", { description: "Wait." }, () => null);
    match((await rejects(() => host.decide("hold"))).message, /reserve/);
  });
});
