import assert from "node:assert/strict";
import { test } from "node:test";
import { formatIssues } from "./issues.ts";
import { type MessageBody, parseMessageBody } from "./message_body.ts";

const PNG = "data:image/png;base64,iVBORw0KGgo=";
const base = { id: "m-1", session_id: "s-1", content: "Hello" };

function accepted(input: unknown): MessageBody {
  const result = parseMessageBody(input);
  assert.ok(result.ok, result.ok ? "" : formatIssues(result.issues));
  return result.value;
}

function rejectedAt(input: unknown, path: string): string {
  const result = parseMessageBody(input);
  assert.ok(!result.ok, `expected a rejection at ${path}`);
  const issue = result.issues.find((i) => i.path === path);
  assert.ok(issue, `no issue at ${path}: ${formatIssues(result.issues)}`);
  return issue.message;
}

test("a minimal message gets the standard type, text mode and no attachments", () => {
  assert.deepEqual(accepted(base), {
    id: "m-1",
    session_id: "s-1",
    content: "Hello",
    message_type: "standard",
    output_mode: "text",
    attachments: [],
  });
});

test("a body that is not an object is rejected at the root", () => {
  assert.match(rejectedAt("hello", ""), /must be a JSON object/);
  assert.match(rejectedAt([base], ""), /must be a JSON object/);
});

test("camelCase top-level keys are normalised to snake_case", () => {
  const body = accepted({
    id: "m-2",
    sessionId: "s-1",
    content: "",
    messageType: "steering",
    outputMode: "host_tools",
    toolCallId: "call_1",
    toolResult: { selectedRow: 3 },
    toolOutcome: "failed",
    hostContext: { view: { name: "tasks" } },
  });
  assert.equal(body.session_id, "s-1");
  assert.equal(body.message_type, "steering");
  assert.equal(body.output_mode, "host_tools");
  assert.equal(body.tool_call_id, "call_1");
  assert.deepEqual(body.tool_result, { selectedRow: 3 });
  assert.equal(body.tool_outcome, "failed");
  assert.deepEqual(body.host_context, { version: 1, view: { name: "tasks" } });
});

test("one field under two spellings is rejected", () => {
  assert.match(rejectedAt({ ...base, sessionId: "s-2" }, "session_id"), /sessionId/);
});

test("an unknown field is rejected with its path, at the top and inside host_context", () => {
  rejectedAt({ ...base, temperature: 0.2 }, "temperature");
  const result = parseMessageBody({
    ...base,
    host_context: { view: { name: "x", colour: "red" } },
  });
  assert.ok(!result.ok);
  assert.equal(result.issues[0]?.path, "host_context.view.colour");
  assert.match(formatIssues(result.issues), /^host_context\.view\.colour: /);
});

test("content is required but may be empty", () => {
  rejectedAt({ id: "m-1", session_id: "s-1" }, "content");
  assert.equal(accepted({ ...base, content: "" }).content, "");
});

test("ids must be 1 to 64 characters", () => {
  accepted({ ...base, id: "x".repeat(64), session_id: "y".repeat(64) });
  assert.match(rejectedAt({ ...base, id: "x".repeat(65) }, "id"), /64/);
  rejectedAt({ ...base, session_id: "" }, "session_id");
  rejectedAt({ content: "hi" }, "session_id");
  assert.equal(parseMessageBody({ session_id: "s", content: "hi" }).ok, true, "id is optional");
});

test("message_type and output_mode accept only their listed values", () => {
  rejectedAt({ ...base, message_type: "urgent" }, "message_type");
  rejectedAt({ ...base, output_mode: "voice" }, "output_mode");
});

test("legacy images and screenshot become screenshot attachments after attachments", () => {
  const body = accepted({
    ...base,
    attachments: [{ url: "https://example.com/r.pdf", kind: "document" }],
    images: [PNG],
    screenshot: PNG,
  });
  assert.deepEqual(body.attachments.map((a) => [a.kind, a.purpose]), [
    ["document", "reference"],
    ["image", "screenshot"],
    ["image", "screenshot"],
  ]);
  assert.equal(body.attachments[2]?.data_uri, PNG);
  rejectedAt({ ...base, images: ["not a data uri"] }, "images.0");
});

test("legacy images inside host_context become screenshot attachments there", () => {
  const body = accepted({ ...base, host_context: { images: [PNG] } });
  assert.deepEqual(body.host_context?.attachments, [{
    kind: "image",
    purpose: "screenshot",
    data_uri: PNG,
  }]);
  assert.deepEqual(body.attachments, []);
});

test("a message holds at most 16 attachments, legacy screenshots included", () => {
  const attachments = Array.from({ length: 16 }, (_, i) => ({ kind: "text", text: `n${i}` }));
  accepted({ ...base, attachments });
  rejectedAt({ ...base, attachments, screenshot: PNG }, "attachments");
});

test("a message attachment may hold 12,000,000 characters and not one more", () => {
  const text = "x".repeat(12_000_000);
  accepted({ ...base, attachments: [{ kind: "text", text }] });
  rejectedAt({ ...base, attachments: [{ kind: "text", text: text + "x" }] }, "attachments.0.text");
});

test("a continuation defaults to success and keeps a null result", () => {
  const body = accepted({ ...base, content: "", tool_call_id: "call_1", tool_result: null });
  assert.equal(body.tool_outcome, "success");
  assert.ok(Object.hasOwn(body, "tool_result"));
  assert.equal(body.tool_result, null);
  assert.equal(accepted({ ...base, tool_call_id: "call_1" }).tool_result, null);
});

test("tool_result keeps the host's keys verbatim", () => {
  const result = { rowCount: 2, items: [{ itemId: 1 }] };
  assert.deepEqual(accepted({ ...base, toolCallId: "c", toolResult: result }).tool_result, result);
});

test("tool_outcome or tool_result without tool_call_id is rejected", () => {
  assert.match(rejectedAt({ ...base, tool_outcome: "failed" }, "tool_outcome"), /tool_call_id/);
  assert.match(rejectedAt({ ...base, tool_result: { ok: true } }, "tool_result"), /tool_call_id/);
  rejectedAt({ ...base, tool_call_id: "c", tool_outcome: "maybe" }, "tool_outcome");
});

test("config accepts its numeric limits and model in either spelling and nothing else", () => {
  const body = accepted({
    ...base,
    config: { maxModelRequests: 2, max_tool_calls: 0, toolTimeoutMs: 5000, model: "small" },
  });
  assert.deepEqual(body.config, {
    max_model_requests: 2,
    max_tool_calls: 0,
    tool_timeout_ms: 5000,
    model: "small",
  });
  rejectedAt({ ...base, config: { temperature: 1 } }, "config.temperature");
  rejectedAt({ ...base, config: { max_tool_calls: 1.5 } }, "config.max_tool_calls");
  rejectedAt({ ...base, config: { max_model_requests: 0 } }, "config.max_model_requests");
  rejectedAt({ ...base, config: { tool_timeout_ms: "fast" } }, "config.tool_timeout_ms");
  rejectedAt({ ...base, config: "fast" }, "config");
});

test("every issue of a bad body is reported at once, one sentence each", () => {
  const result = parseMessageBody({ id: "", session_id: 5, message_type: "x", surprise: 1 });
  assert.ok(!result.ok);
  assert.deepEqual(result.issues.map((i) => i.path).sort(), [
    "content",
    "id",
    "message_type",
    "session_id",
    "surprise",
  ]);
  for (const issue of result.issues) {
    assert.ok(issue.message.startsWith(issue.path), `${issue.message} should name ${issue.path}`);
    assert.ok(
      issue.message.endsWith(".") && !issue.message.includes(". "),
      `${issue.message} is one sentence`,
    );
  }
});
