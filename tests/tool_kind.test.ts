// A tool kind from outside the pipeline: registered through the runtime's public registry
// (`registerToolKind` from server/mod.ts), it offers its own tool, runs some calls inside the
// turn, pends others for the host and answers their continuations, with no file of the
// pipeline knowing it exists. docs/architecture.md ("Adding a tool kind") lists what it touched.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { type KindRegistry, registerToolKind, type ToolKind } from "../server/mod.ts";
import type { SessionEvent } from "../server/mod.ts";
import { harness } from "../server/testing/harness.ts";
import { scriptedModel } from "../server/testing/scripted_model.ts";

/** What the stamp kind keeps on its tool and on each call. */
interface Ink {
  colour: string;
}

const seen = { checkpoints: 0, runs: 0, pends: 0, continues: 0 };

const stampKind: ToolKind<Ink, Ink> = {
  category: "stamp",
  offer: ({ outputMode }) => ({
    tools: outputMode === "host_tools" ? [] : [{
      name: "stamp",
      description: "Stamp a page: now, or on paper the host brings.",
      parameters: {
        type: "object",
        properties: { on: { enum: ["screen", "paper"] } },
        required: ["on"],
      },
      category: "stamp",
      data: { colour: "red" },
    }],
  }),
  callData: (tool) => ({ colour: tool.data!.colour }),
  describe: () => ({}),
  checkpoint: (call) => {
    seen.checkpoints++;
    return call.arguments.on === "screen";
  },
  mode: (call) => (call.arguments.on === "screen" ? "run" : "pend"),
  async run(ctx, call) {
    seen.runs++;
    call.result = { stamped: call.data!.colour };
    call.status = "completed";
    await ctx.emit("assistant:tool_result", {
      type: "tool_result",
      tool_name: call.tool_name,
      call_id: call.call_id,
      output: call.result,
    });
  },
  pend() {
    seen.pends++;
    return Promise.resolve({ category: "stamp", waiting_for: "host" });
  },
  continue(_ctx, call, _pending, body) {
    seen.continues++;
    call.result = { stamped: call.data!.colour, paper: body.tool_result };
    call.status = "completed";
    return { kind: "recorded" };
  },
};

async function watch(h: ReturnType<typeof harness>, sid: string) {
  const events: SessionEvent[] = [];
  (await h.app.engine()).hub.subscribe(sid, (e) => events.push(e));
  return events;
}

// Registered for this file's tests and removed after them: the registry is the process's, and
// other test files may share this process (scripts/node_suite.ts).
describe("a kind registered through registerToolKind", () => {
  let remove = () => {};
  before(() => {
    remove = registerToolKind(stampKind);
  });
  after(() => remove());

  test("a registered kind's call runs inside the turn: its tool is offered, run() records the result", async () => {
    const model = scriptedModel([
      { calls: [{ name: "stamp", args: { on: "screen" } }] },
      { text: "Stamped." },
    ]);
    const h = harness({ model });
    const events = await watch(h, "k1");
    const before = { ...seen };
    const res = await h.chat({ session_id: "k1", content: "stamp it" });
    assert.equal(res.status, 200);
    assert.equal(res.body.content, "Stamped.");
    assert.equal(res.body.pending_tool_call, null);
    assert.equal(seen.runs, before.runs + 1);
    assert.equal(seen.checkpoints, before.checkpoints + 1, "the checkpoint was asked of the kind");
    const call = events.find((e) => e.event === "assistant:tool_call")!.payload;
    assert.equal(call.category, "stamp");
    const result = events.find((e) => e.event === "assistant:tool_result")!.payload;
    assert.deepEqual(result.output, { stamped: "red" });
    const messages = (await h.call("GET", "/api/sessions/k1/messages")).body;
    const stored = messages.messages.find((m: { role: string }) => m.role === "assistant");
    assert.equal(stored.tool_calls[0].category, "stamp");
    assert.equal(stored.tool_calls[0].status, "completed");
    await h.close();
  });

  test("a registered kind's call pends, survives in the session and is answered by a continuation", async () => {
    const model = scriptedModel([
      { calls: [{ name: "stamp", args: { on: "paper" } }] },
      { text: "Stamped on paper." },
    ]);
    const h = harness({ model });
    const before = { ...seen };
    const first = await h.chat({ session_id: "k2", content: "stamp the form" });
    const pending = first.body.pending_tool_call;
    assert.equal(pending.tool_name, "stamp");
    assert.equal(pending.category, "stamp");
    assert.equal(pending.waiting_for, "host");
    assert.equal(seen.pends, before.pends + 1);
    const view = (await h.call("GET", "/api/sessions/k2")).body;
    assert.equal(view.pending_action.tool_call_id, pending.call_id);
    assert.equal(view.pending_action.category, "stamp");
    const done = await h.chat({
      session_id: "k2",
      content: "",
      tool_call_id: pending.call_id,
      tool_result: { form: "B-7" },
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.content, "Stamped on paper.");
    assert.equal(seen.continues, before.continues + 1);
    const messages = (await h.call("GET", "/api/sessions/k2/messages")).body;
    const stored = messages.messages.find((m: { role: string }) => m.role === "assistant");
    assert.deepEqual(stored.tool_calls[0].result, { stamped: "red", paper: { form: "B-7" } });
    await h.close();
  });

  test("a category can be registered once", () => {
    assert.throws(() => registerToolKind({ ...stampKind }), /already registered/);
    assert.throws(
      () =>
        registerToolKind({ category: "host", pend: stampKind.pend, continue: stampKind.continue }),
      /already registered/,
    );
  });
});

test("a removed kind's tool is no longer offered, and its category can be registered again", async () => {
  const offered = async () => {
    const model = scriptedModel([{ text: "Nothing to stamp." }]);
    const h = harness({ model });
    await h.chat({ session_id: `k-${Date.now()}-${Math.random()}`, content: "hello" });
    const names = (model.prompts[0].tools ?? []).map((t) => t.name);
    await h.close();
    return names;
  };
  const remove = registerToolKind(stampKind);
  assert.ok((await offered()).includes("stamp"), "offered while registered");
  remove();
  assert.ok(!(await offered()).includes("stamp"), "not offered once removed");
  remove(); // a second call changes nothing
  registerToolKind({ ...stampKind })();
});

test("the compiler refuses an incomplete registry or kind (checked by the type check of npm test)", () => {
  const { run, pend, continue: answer } = stampKind;
  // @ts-expect-error: a registry without an executor for the "remote" category does not compile.
  const incomplete: KindRegistry = { backend: stampKind, host: stampKind };
  // @ts-expect-error: a kind that pends must say what a continuation means.
  const unanswered: ToolKind = { category: "a", pend };
  // @ts-expect-error: a kind that both runs and pends must say which, call by call (mode).
  const undecided: ToolKind = { category: "b", run, pend, continue: answer };
  // @ts-expect-error: a kind that neither runs nor pends does nothing with its calls.
  const idle: ToolKind = { category: "c" };
  const complete: KindRegistry = { backend: stampKind, host: stampKind, remote: stampKind };
  assert.equal(Object.keys(complete).length, 3);
  assert.ok(incomplete && unanswered && undecided && idle);
});
