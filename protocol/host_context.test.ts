import assert from "node:assert/strict";
import { test } from "node:test";
import { type HostContext, parseHostContext } from "./host_context.ts";
import { formatIssues, type Result } from "./issues.ts";
import { checkHostContextLimits, HOST_CONTEXT_LIMITS, hostContextJsonChars } from "./limits.ts";

const PNG = "data:image/png;base64,iVBORw0KGgo=";

function accepted(input: unknown): HostContext {
  const result = parseHostContext(input);
  assert.ok(result.ok, result.ok ? "" : formatIssues(result.issues, "host_context"));
  return result.value;
}

function rejectedAt(input: unknown, path: string): string {
  const result: Result<HostContext> = parseHostContext(input);
  assert.ok(!result.ok, `expected a rejection at ${path}`);
  const issue = result.issues.find((i) => i.path === path);
  assert.ok(issue, `no issue at ${path}: ${formatIssues(result.issues)}`);
  return issue.message;
}

test("input that is not an object is rejected at the root, saying it must be a JSON object", () => {
  for (const input of ["tasks", 42, null, undefined, [{ view: { name: "x" } }]]) {
    assert.match(rejectedAt(input, ""), /must be a JSON object/);
  }
});

test("a rejected version names the supported version", () => {
  assert.match(rejectedAt({ version: "1" }, "version"), /version 1/);
});

test("legacy view.actions is refused with a pointer to host_context.actions", () => {
  const message = rejectedAt({ view: { name: "x", actions: [{ name: "a" }] } }, "view.actions");
  assert.match(message, /host_context\.actions/);
});

test("legacy images and screenshot become screenshot attachments after the listed ones", () => {
  const context = accepted({
    attachments: [{ kind: "text", text: "note" }],
    images: [PNG],
    screenshot: PNG.replace("=", "A"),
  });
  assert.deepEqual(context.attachments?.map((a) => [a.kind, a.purpose, a.data_uri ?? a.text]), [
    ["text", "reference", "note"],
    ["image", "screenshot", PNG],
    ["image", "screenshot", PNG.replace("=", "A")],
  ]);
  assert.ok(!("images" in context) && !("screenshot" in context));
});

test("a legacy image that is not an image data URI is rejected at its index", () => {
  rejectedAt({ images: [PNG, "https://example.com/a.png"] }, "images.1");
  rejectedAt({ screenshot: "data:text/plain,hi" }, "screenshot");
});

test("legacy screenshots count toward the 16 attachments", () => {
  const attachments = Array.from({ length: 16 }, (_, i) => ({ kind: "text", text: `n${i}` }));
  accepted({ attachments });
  rejectedAt({ attachments, screenshot: PNG }, "attachments");
});

test("an attachment may hold 12,000,000 characters and not one more", () => {
  const head = "data:image/png;base64,";
  const full = head + "A".repeat(HOST_CONTEXT_LIMITS.attachment_chars - head.length);
  accepted({ attachments: [{ data_uri: full }] });
  assert.match(
    rejectedAt({ attachments: [{ data_uri: full + "A" }] }, "attachments.0.data_uri"),
    /12,000,000/,
  );
  rejectedAt(
    { attachments: [{ kind: "text", text: "x".repeat(12_000_001) }] },
    "attachments.0.text",
  );
});

test("the data limit counts view.data, view.state and extensions together", () => {
  const chunk = (n: number) => ({ v: "x".repeat(n) });
  accepted({
    view: { name: "x", data: chunk(10_000), state: chunk(10_000) },
    extensions: chunk(10_000),
  });
  const message = rejectedAt(
    { view: { name: "x", data: chunk(10_000), state: chunk(12_000) }, extensions: chunk(11_000) },
    "view.state",
  );
  assert.match(message, /32,000/);
});

test("50 navigation targets, 32 actions and 16 attachments are within the limits", () => {
  accepted({
    navigation: Array.from({ length: 50 }, (_, i) => ({ name: `n${i}` })),
    actions: Array.from({ length: 32 }, (_, i) => ({ name: `a${i}`, description: "Do it." })),
    attachments: Array.from({ length: 16 }, () => ({ url: "https://example.com/a.png" })),
  });
});

test("an action without parameters gets an empty object schema", () => {
  const context = accepted({ actions: [{ name: "ping", description: "Ping the host." }] });
  assert.deepEqual(context.actions?.[0]?.parameters, { type: "object", properties: {} });
});

test("null for an optional contract field means the field is absent", () => {
  const context = accepted({
    view: { name: "x", description: null },
    host: null,
    captured_at: null,
  });
  assert.deepEqual(context, { version: 1, view: { name: "x" } });
  assert.deepEqual(accepted({ page: null, view: { name: "v" } }).view, { name: "v" });
});

test("an unknown camelCase field is reported under the spelling the client sent", () => {
  rejectedAt({ view: { name: "x" }, capturedWhen: "now" }, "capturedWhen");
});

test("one attachment field under two spellings is rejected at its snake_case path", () => {
  const message = rejectedAt(
    { attachments: [{ data_uri: PNG, dataUri: PNG }] },
    "attachments.0.data_uri",
  );
  assert.match(message, /data_uri/);
  assert.match(message, /dataUri/);
});

test("keys inside background and view.state pass through verbatim, as the same objects", () => {
  const data = { openBugs: [{ issueNumber: 1 }] };
  const context = accepted({
    view: { name: "x", data, state: { selectedRow: 3 } },
    background: { buildQueue: { state: "idle", summary: { jobCount: 2 } } },
  });
  assert.equal(context.view?.data, data);
  assert.deepEqual(context.view?.state, { selectedRow: 3 });
  assert.deepEqual(context.background, { buildQueue: { state: "idle", summary: { jobCount: 2 } } });
});

test("background values must be objects", () => {
  rejectedAt({ background: { agents: "idle" } }, "background.agents");
});

test("a __proto__ key is reported as unknown and never changes the prototype", () => {
  const input = JSON.parse('{"view": {"name": "x"}, "__proto__": {"polluted": true}}');
  rejectedAt(input, "__proto__");
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test("captured_at with an offset is accepted and kept exactly as given", () => {
  assert.equal(
    accepted({ captured_at: "2026-09-05T12:00:00.250+02:00" }).captured_at,
    "2026-09-05T12:00:00.250+02:00",
  );
});

test("data that JSON cannot hold is an issue, not an exception", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  rejectedAt({ view: { name: "x", data: cyclic } }, "view.data");
  rejectedAt({ extensions: { big: 1n } }, "extensions");
  const hostile = Object.defineProperty({}, "view", {
    enumerable: true,
    get() {
      throw new Error("no");
    },
  });
  assert.equal(parseHostContext(hostile).ok, false);
});

test("checkHostContextLimits checks a canonical context before it is sent", () => {
  const context: HostContext = {
    version: 1,
    navigation: Array.from({ length: 51 }, (_, i) => ({ name: `n${i}` })),
    extensions: { tenant: "acme" },
  };
  assert.deepEqual(checkHostContextLimits(context).map((i) => i.path), ["navigation"]);
  assert.equal(hostContextJsonChars(context), JSON.stringify({ tenant: "acme" }).length);
  assert.deepEqual(checkHostContextLimits({ version: 1 }), []);
});

test("parsing a typical context takes well under a millisecond", () => {
  const input = {
    version: 1,
    host: { name: "web-dashboard", kind: "browser", version: "2.1" },
    view: {
      name: "tasks",
      data: { issues: Array.from({ length: 20 }, (_, n) => ({ n, title: `Issue ${n}` })) },
    },
    navigation: [{ name: "agents", description: "Running agents" }],
    actions: [{ name: "select_issue", description: "Select.", parameters: { type: "object" } }],
    capturedAt: "2026-09-05T10:00:00Z",
  };
  for (let i = 0; i < 200; i++) parseHostContext(input);
  const runs = 2000;
  const start = performance.now();
  for (let i = 0; i < runs; i++) parseHostContext(input);
  const perParse = (performance.now() - start) / runs;
  assert.ok(perParse < 0.5, `one parse took ${perParse.toFixed(3)} ms`);
});
