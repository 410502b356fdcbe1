// deno-lint-ignore-file no-explicit-any -- OTLP JSON is read field by field
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { harness } from "../testing/harness.ts";
import { serveLoopback } from "../testing/loopback.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import type { BackendTool } from "../tools/backend_tool.ts";
import { parseHeaders, tracesUrl } from "./from_env.ts";

/** A loopback OTLP/HTTP receiver that keeps every request. */
async function receiver() {
  const got: { headers: Headers; body: any }[] = [];
  const app = new Hono().post("/v1/traces", async (c) => {
    got.push({ headers: c.req.raw.headers, body: await c.req.json() });
    return c.json({});
  });
  const server = await serveLoopback(app.fetch);
  return {
    url: server.url,
    got,
    spans: () => got.flatMap((g) => g.body.resourceSpans[0].scopeSpans[0].spans),
    close: () => server.close(),
  };
}

const attr = (span: any, key: string) => {
  const v = span.attributes.find((a: any) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? v?.boolValue;
};

const shell: BackendTool = {
  name: "run_command",
  description: "Runs a command.",
  parameters: { type: "object", properties: { command: { type: "string" } } },
  execute: () => ({ exit: 0 }),
};
const denyDeploy = {
  policies: [{
    id: "p",
    name: "P",
    type: "tool_permission" as const,
    version: 1,
    config: { denied_tools: ["deploy"] },
  }],
};
const deploy: BackendTool = { ...shell, name: "deploy", description: "Deploys." };

async function tracedTurn(capture: boolean) {
  const r = await receiver();
  const model = scriptedModel([
    {
      calls: [{ name: "run_command", args: { command: "cat secret-plan.txt" } }, {
        name: "deploy",
        args: { command: "now" },
      }],
    },
    { text: "All done with the secret plan." },
  ]);
  const h = harness({
    model,
    backendTools: [shell, deploy],
    gate: { document: denyDeploy },
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
      OTEL_EXPORTER_OTLP_HEADERS: "X-Zentinelle-Key=sk_agent_otel_0123,x-other=a%20b",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: capture ? "true" : "false",
    },
  });
  await h.chat({ session_id: "traced-1", content: "run my secret plan" });
  await h.close();
  await r.close();
  return r;
}

test("turns, model requests, tool calls and gate decisions are exported as OTLP JSON spans with the session id", async () => {
  const r = await tracedTurn(false);
  assert.ok(r.got.length >= 1);
  assert.equal(r.got[0].headers.get("x-zentinelle-key"), "sk_agent_otel_0123");
  assert.equal(r.got[0].headers.get("x-other"), "a b");
  const spans = r.spans();
  const names = spans.map((s: any) => s.name).sort();
  assert.deepEqual(names, [
    "chat scripted",
    "chat scripted",
    "execute_tool run_command",
    "invoke_agent scripted",
    "policy allow",
    "policy deny",
  ]);
  const root = spans.find((s: any) => s.name.startsWith("invoke_agent"));
  for (const s of spans) {
    assert.equal(attr(s, "session.id"), "traced-1");
    assert.equal(s.traceId, root.traceId);
    if (s !== root) assert.equal(s.parentSpanId, root.spanId);
    assert.match(s.traceId, /^[0-9a-f]{32}$/);
    assert.match(s.spanId, /^[0-9a-f]{16}$/);
  }
  assert.equal(
    attr(spans.find((s: any) => s.name === "policy deny"), "tether.policy.decision"),
    "deny",
  );
});

test("no message or tool content leaves without content capture; with it, arguments and reasons do", async () => {
  const off = JSON.stringify((await tracedTurn(false)).got.map((g) => g.body));
  assert.doesNotMatch(off, /secret/);
  assert.doesNotMatch(off, /explicitly denied/);
  const on = JSON.stringify((await tracedTurn(true)).got.map((g) => g.body));
  assert.match(on, /cat secret-plan\.txt/);
  assert.match(on, /explicitly denied/);
});

test("the endpoint and headers are read as OpenTelemetry defines them", () => {
  assert.equal(tracesUrl({}), null);
  assert.equal(
    tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" }),
    "http://c:4318/v1/traces",
  );
  assert.equal(
    tracesUrl({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://z.example/api/zentinelle/v1/otlp/v1/traces",
    }),
    "https://z.example/api/zentinelle/v1/otlp/v1/traces",
  );
  assert.equal(
    tracesUrl({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/x",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
    }),
    "http://t/x",
  );
  assert.deepEqual(parseHeaders("a=1, b = x%3Dy ,bad"), { a: "1", b: "x=y" });
});
