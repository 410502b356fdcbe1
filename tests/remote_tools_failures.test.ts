// deno-lint-ignore-file no-explicit-any -- JSON of the wire, read in tests
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvStore } from "../server/kv/denokv.ts";
import { scriptedModel } from "../server/testing/scripted_model.ts";
import { handHost } from "./_remote_host.ts";
import { payloads, remoteRig } from "./_remote_rig.ts";

const SECRET = "failures-secret-0123456789abcdef";

test("a wrong secret: the host's 401 marks the integration rejected, and the turn goes on without its tools", async () => {
  const host = await handHost(SECRET);
  const model = scriptedModel([{ text: "No tools today." }]);
  const rig = remoteRig({ model });
  const made = await rig.connect(host.url, "a-different-secret-0123456789");
  const res = await rig.chat({ session_id: "w", content: "hi" });
  assert.equal(res.body.content, "No tools today.");
  assert.deepEqual((model.prompts[0].tools ?? []).map((t: any) => t.name), ["look_at_screen"]);
  const list = await rig.call("GET", "/v1/integrations/generic-rest/connect?workspace_id=default");
  const listed = list.body.integrations.find((i: any) => i.id === made.id);
  assert.equal(listed.secret_status, "rejected");
  assert.ok(Date.parse(listed.secret_rejected_at));
  assert.ok(rig.warnings.some((l) => l.includes('"status":401')), "the log keeps the status");
  await rig.close();
  await host.close();
});

test("a 500 from execute: the user sees a generic message, the model a failed result, the log the status and the host's text", async () => {
  const host = await handHost(SECRET);
  const model = scriptedModel([{ calls: [{ name: "find_task", args: { q: "x" } }] }, {
    text: "That failed.",
  }]);
  const rig = remoteRig({ model });
  await rig.connect(host.url, SECRET);
  host.behaviour.failWith = {
    status: 500,
    error: "db connection pool exhausted at 10.0.0.7",
    endpoint: "POST /tools/execute",
  };
  await rig.watch("f500");
  const res = await rig.chat({ session_id: "f500", content: "find" });
  assert.equal(res.body.content, "That failed.");
  const error = payloads(rig, "assistant:tool_error")[0];
  assert.match(error.error, /could not be completed: the tool server answered 500/);
  assert.ok(
    !JSON.stringify(rig.events).includes("pool exhausted"),
    "the host's text never reaches a client",
  );
  const told = JSON.stringify(model.prompts[1].prompt.at(-1));
  assert.match(told, /error-text/);
  assert.ok(!told.includes("pool exhausted"), "nor the model");
  const line = rig.warnings.find((l) => l.includes("pool exhausted"));
  assert.ok(line, "the log keeps the host's error text");
  assert.match(line!, /"status":500/);
  await rig.close();
  await host.close();
});

test("a tool server slower than REMOTE_TOOLS__TIMEOUT_MS fails the call and the turn goes on", async () => {
  const host = await handHost(SECRET);
  const model = scriptedModel([{ calls: [{ name: "find_task", args: { q: "x" } }] }, {
    text: "Too slow.",
  }]);
  const rig = remoteRig({
    model,
    remoteTools: { allowedHosts: ["127.0.0.1"], timeoutMs: 600, workspace: "default" },
  });
  await rig.connect(host.url, SECRET);
  host.behaviour.executeDelayMs = 5_000;
  await rig.watch("slow");
  const started = Date.now();
  const res = await rig.chat({ session_id: "slow", content: "find" });
  assert.ok(Date.now() - started < 4_000, "the runtime did not wait for the slow server");
  assert.equal(res.body.content, "Too slow.");
  assert.match(payloads(rig, "assistant:tool_error")[0].error, /did not answer in time/);
  assert.ok(rig.warnings.some((l) => l.includes('"reason":"timeout"')));
  await rig.close();
  await host.close();
});

test("an answer that is not JSON, or not the contract's shape, is a failed call", async () => {
  const host = await handHost(SECRET);
  const model = scriptedModel([
    { calls: [{ name: "find_task", args: { q: "x" } }] },
    { calls: [{ name: "find_task", args: { q: "y" } }] },
    { text: "Broken." },
  ]);
  const rig = remoteRig({ model });
  await rig.connect(host.url, SECRET);
  await rig.watch("shape");
  host.behaviour.rawExecute = (b) =>
    b.arguments.q === "x" ? "<html>oops</html>" : JSON.stringify({ result: "no output field" });
  const res = await rig.chat({ session_id: "shape", content: "find" });
  assert.equal(res.body.content, "Broken.");
  const errors = payloads(rig, "assistant:tool_error");
  assert.equal(errors.length, 2);
  for (const e of errors) assert.match(e.error, /did not follow the contract/);
  await rig.close();
  await host.close();
});

test("hostile tool lists are bounded: bad entries are skipped, the rest offered", async () => {
  const host = await handHost(SECRET);
  let deep: any = { type: "object" };
  for (let i = 0; i < 40; i++) deep = { type: "object", properties: { x: deep } };
  host.behaviour.tools = [
    { name: "ok_tool", description: "Fine.", verb: "get", inputSchema: { type: "object" } },
    { name: "bad name!", description: "x", verb: "get", inputSchema: { type: "object" } },
    { name: "no_verb", description: "x", verb: "destroy", inputSchema: { type: "object" } },
    { name: "array_schema", description: "x", verb: "get", inputSchema: { type: "array" } },
    { name: "deep", description: "x", verb: "get", inputSchema: deep },
    {
      name: "recursive",
      description: "x",
      verb: "get",
      inputSchema: { type: "object", properties: {}, anyOf: [{ $ref: "#" }, { $ref: "#" }] },
    },
    {
      name: "huge",
      description: "x",
      verb: "get",
      inputSchema: { type: "object", description: "y".repeat(20_000) },
    },
    ...Array.from(
      { length: 100 },
      (_, i) => ({ name: `t${i}`, description: "x", verb: "get", inputSchema: { type: "object" } }),
    ),
  ];
  const model = scriptedModel([{ text: "ok" }]);
  const rig = remoteRig({ model });
  await rig.connect(host.url, SECRET);
  await rig.chat({ session_id: "hostile", content: "hi" });
  const offered = (model.prompts[0].tools ?? []).map((t: any) => t.name);
  assert.ok(offered.includes("ok_tool"));
  for (const name of ["bad name!", "no_verb", "array_schema", "deep", "recursive", "huge"]) {
    assert.ok(!offered.includes(name), name);
  }
  assert.equal(offered.length, 64 + 1, "at most 64 remote tools, plus look_at_screen");
  await rig.close();
  await host.close();
});

test("a remote action pending across a restart (Deno KV file) is applied once by the new runtime", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-remote-restart-"));
  const path = join(dir, "store.db");
  const host = await handHost(SECRET);
  try {
    const first = remoteRig({
      store: await denoKvStore(path),
      model: scriptedModel([{ calls: [{ name: "create_task", args: { title: "Persist" } }] }]),
    });
    await first.connect(host.url, SECRET);
    const pended = await first.chat({ session_id: "rs", content: "create" });
    const callId = pended.body.pending_tool_call.call_id;
    await first.close();

    const model = scriptedModel([{ text: "Created after the restart." }]);
    const second = remoteRig({ store: await denoKvStore(path), model });
    const view = await second.call("GET", "/api/sessions/rs");
    assert.equal(view.body.pending_action.tool_call_id, callId);
    assert.equal(view.body.pending_action.preview, 'Would create_task with {"title":"Persist"}');
    const applied = await second.chat({
      session_id: "rs",
      content: "",
      tool_call_id: callId,
      tool_result: { decision: "apply" },
    });
    assert.equal(applied.body.content, "Created after the restart.");
    const again = await second.chat({
      session_id: "rs",
      content: "",
      tool_call_id: callId,
      tool_result: { decision: "apply" },
    });
    assert.equal(again.status, 409);
    assert.equal(host.to("POST /tools/execute").length, 1);
    await second.close();
  } finally {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a new message supersedes a pending remote action; its Apply is refused", async () => {
  const host = await handHost(SECRET);
  const model = scriptedModel([{ calls: [{ name: "create_task", args: { title: "Old" } }] }, {
    text: "Moving on.",
  }]);
  const rig = remoteRig({ model });
  await rig.connect(host.url, SECRET);
  const pended = await rig.chat({ session_id: "sup", content: "create" });
  await rig.chat({ session_id: "sup", content: "never mind" });
  const late = await rig.chat({
    session_id: "sup",
    content: "",
    tool_call_id: pended.body.pending_tool_call.call_id,
    tool_result: { decision: "apply" },
  });
  assert.equal(late.status, 409);
  assert.equal(late.body.error.status, "superseded");
  assert.equal(host.to("POST /tools/execute").length, 0);
  await rig.close();
  await host.close();
});

test("the secret appears in no response, event or log line, across every flow", async () => {
  const host = await handHost(SECRET);
  const model = scriptedModel((_o, i) =>
    [
      { calls: [{ name: "find_task", args: { q: "a" } }] },
      { calls: [{ name: "create_task", args: { title: "T" } }] },
      { text: "created" },
      { calls: [{ name: "delete_task", args: { id: "1" } }] },
      { text: "deleted" },
      { text: "after failure" },
    ][Math.min(i, 5)]
  );
  const rig = remoteRig({ model });
  await rig.watch("grep");
  await rig.connect(host.url, SECRET);
  const wrong = "wrong-secret-abcdefghijklmnop";
  await rig.connect(host.url, wrong);
  const create = await rig.chat({ session_id: "grep", content: "go" });
  const id = create.body.pending_tool_call.call_id;
  await rig.chat({
    session_id: "grep",
    content: "",
    tool_call_id: id,
    tool_result: { decision: "apply" },
  });
  const del = await rig.chat({ session_id: "grep", content: "delete" });
  const delId = del.body.pending_tool_call.call_id;
  await rig.chat({
    session_id: "grep",
    content: "",
    tool_call_id: delId,
    tool_result: { decision: "apply" },
  });
  await rig.chat({
    session_id: "grep",
    content: "",
    tool_call_id: delId,
    tool_result: { decision: "apply" },
  });
  host.behaviour.failWith = { status: 500, error: `leaked ${SECRET}` };
  await rig.chat({ session_id: "grep", content: "again" });
  await rig.call("GET", "/v1/integrations/generic-rest/connect?workspace_id=default");
  await rig.call("GET", "/api/sessions/grep");
  await rig.call("GET", "/api/sessions/grep/messages");
  assert.ok(rig.events.length > 10 && rig.warnings.length > 3, "there is something to grep");
  const all = rig.everything();
  assert.ok(!all.includes(SECRET), "the secret leaked");
  assert.ok(!all.includes(wrong), "the rejected secret leaked");
  assert.ok(host.seen.every((s) => s.auth === `Bearer ${SECRET}` || s.auth === `Bearer ${wrong}`));
  await rig.close();
  await host.close();
});

test("oversized or too deeply nested answers are refused: an output fails its call, a context is left out", async () => {
  const host = await handHost(SECRET);
  let deep: unknown = "bottom";
  for (let i = 0; i < 100; i++) deep = { d: deep };
  host.behaviour.context = deep;
  host.behaviour.output = (b) =>
    b.arguments.q === "big" ? { blob: "x".repeat(2_000_000) } : { nested: deep };
  const model = scriptedModel([
    {
      calls: [{ name: "find_task", args: { q: "big" } }, {
        name: "find_task",
        args: { q: "deep" },
      }],
    },
    { text: "Too much." },
  ]);
  const rig = remoteRig({ model });
  await rig.connect(host.url, SECRET);
  await rig.watch("big");
  const res = await rig.chat({ session_id: "big", content: "find" });
  assert.equal(res.body.content, "Too much.");
  assert.ok(!JSON.stringify(model.prompts[0].prompt.slice(1)).includes("<remote_context>"));
  const errors = payloads(rig, "assistant:tool_error");
  assert.equal(errors.length, 2);
  for (const e of errors) assert.match(e.error, /did not follow the contract/);
  assert.ok(rig.warnings.some((l) => l.includes("GET /context")), "the dropped context is logged");
  await rig.close();
  await host.close();
});
