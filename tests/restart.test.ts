// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime in tests and benchmarks
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRuntime } from "../server/app.ts";
import { denoKvStore } from "../server/kv/denokv.ts";
import { scriptedModel } from "../server/testing/scripted_model.ts";
import { ISSUE_CONTEXT } from "../server/testing/harness.ts";
import type { BackendTool } from "../server/tools/backend_tool.ts";

async function runtimeAt(
  path: string,
  model: ReturnType<typeof scriptedModel>,
  backendTools: BackendTool[] = [],
) {
  const app = createRuntime({
    store: await denoKvStore(path),
    model,
    backendTools,
    warn: () => {},
  });
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await app.request(url, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() as any };
  };
  return { app, call };
}

test("a call pending across a restart of the runtime (Deno KV file) resumes once", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-restart-"));
  const path = join(dir, "store.db");
  try {
    const first = await runtimeAt(
      path,
      scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }]),
    );
    const pended = await first.call("POST", "/api/chat", {
      session_id: "r",
      content: "select issue 42",
      host_context: ISSUE_CONTEXT,
    });
    const callId = pended.body.pending_tool_call.call_id;
    await first.app.close();

    const model = scriptedModel([{ text: "Selected 42." }]);
    const second = await runtimeAt(path, model);
    const session = await second.call("GET", "/api/sessions/r");
    assert.equal(session.body.pending_action.tool_call_id, callId);
    const resumed = await second.call("POST", "/api/chat", {
      session_id: "r",
      content: "",
      tool_call_id: callId,
      tool_result: { ok: true },
    });
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.content, "Selected 42.");
    const again = await second.call("POST", "/api/chat", {
      session_id: "r",
      content: "",
      tool_call_id: callId,
      tool_result: { ok: true },
    });
    assert.equal(again.status, 409);
    assert.equal(model.prompts.length, 1, "resumed once");
    await second.app.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a silent-decision receipt after a restart completes once and a duplicate is a 409", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-restart-"));
  const path = join(dir, "store.db");
  try {
    const first = await runtimeAt(
      path,
      scriptedModel([{ calls: [{ name: "select_issue", args: { number: 1 } }] }]),
    );
    const pended = await first.call("POST", "/api/chat", {
      session_id: "d",
      output_mode: "host_tools",
      content: "go",
      host_context: ISSUE_CONTEXT,
    });
    assert.equal(pended.body.decision, "pending");
    await first.app.close();
    const model = scriptedModel([{ text: "narration must not run" }]);
    const second = await runtimeAt(path, model);
    const body = {
      session_id: "d",
      content: "",
      tool_call_id: pended.body.pending_tool_call.call_id,
      tool_result: "done",
    };
    const receipt = await second.call("POST", "/api/chat", body);
    assert.equal(
      receipt.body.decision,
      "completed",
      "the stored output mode keeps the receipt silent",
    );
    assert.equal(model.prompts.length, 0);
    assert.equal((await second.call("POST", "/api/chat", body)).status, 409);
    await second.app.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a call interrupted by a stop, with no pending action, is recorded as unknown", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-restart-"));
  const path = join(dir, "store.db");
  try {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const hang: BackendTool = {
      name: "charge_card",
      description: "Charges.",
      parameters: { type: "object", properties: {} },
      execute: () => {
        started();
        return new Promise(() => {});
      },
    };
    const first = await runtimeAt(
      path,
      scriptedModel([{ calls: [{ name: "charge_card", args: {} }] }]),
      [hang],
    );
    void first.call("POST", "/api/chat", { session_id: "u", content: "charge" }).catch(() => {});
    await running;
    const engine = await first.app.engine();
    await engine.store.close();

    const model = scriptedModel([{ text: "fresh" }]);
    const second = await runtimeAt(path, model);
    const next = await second.call("POST", "/api/chat", {
      session_id: "u",
      content: "what happened?",
    });
    assert.equal(next.body.content, "fresh");
    const messages = (await second.call("GET", "/api/sessions/u/messages")).body.messages;
    assert.equal(messages[1].tool_calls[0].status, "unknown");
    assert.match(JSON.stringify(model.prompts[0].prompt), /Outcome unknown/);
    await second.app.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
