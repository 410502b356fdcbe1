// deno-lint-ignore-file no-explicit-any -- JSON of the wire, read in tests
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveLoopback } from "../testing/loopback.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import { harness } from "../testing/harness.ts";
import type { ExecutionScope } from "./client.ts";
import { HostError, remoteToolsHost } from "./host.ts";

const SECRET = "kit-secret-0123456789abcdef";
const ADMIN = "kit-admin-token-0123456789";

function kit(scopes: ExecutionScope[]) {
  const notes: string[] = [];
  return {
    notes,
    host: remoteToolsHost({
      secret: SECRET,
      context: (scope) => ({ workspace: scope.workspaceId, notes: notes.length }),
      tools: [
        {
          name: "list_notes",
          description: "List the notes.",
          verb: "get",
          inputSchema: { type: "object", properties: {} },
          execute: (_a, scope) => (scopes.push(scope), { notes }),
        },
        {
          name: "add_note",
          description: "Add a note.",
          verb: "create",
          inputSchema: {
            type: "object",
            properties: { text: { type: "string", maxLength: 40 } },
            required: ["text"],
          },
          preview: ({ text }) => `Add the note “${text}”`,
          execute: ({ text }, scope) => {
            scopes.push(scope);
            if (text === "forbidden") throw new HostError(403, "not for you");
            notes.push(String(text));
            return { count: notes.length };
          },
        },
      ],
    }),
  };
}

test("the kit checks the bearer secret, parses the scope and validates arguments, in the contract's error format", async () => {
  const scopes: ExecutionScope[] = [];
  const { host } = kit(scopes);
  const auth = { authorization: `Bearer ${SECRET}` };
  const q = "?workspaceId=ws&externalUserId=u1&permissions=a&permissions=b&requestId=r1";
  const wrong = await host.request(`/tools${q}`, { headers: { authorization: "Bearer nope" } });
  assert.equal(wrong.status, 401);
  assert.equal(typeof (await wrong.json()).error, "string");
  const list = await (await host.request(`/tools${q}`, { headers: auth })).json();
  assert.deepEqual(list.tools.map((t: any) => [t.name, t.verb]), [["list_notes", "get"], [
    "add_note",
    "create",
  ]]);
  assert.deepEqual(await (await host.request(`/context${q}`, { headers: auth })).json(), {
    workspace: "ws",
    notes: 0,
  });
  const post = (path: string, body: unknown) =>
    host.request(path, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const execution = { workspaceId: "ws", externalUserId: "u1", permissions: ["a"], requestId: "r" };
  const bad = await post("/tools/preview", {
    tool: "add_note",
    callId: "c",
    arguments: {},
    execution,
  });
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /text/);
  const unknown = await post("/tools/execute", {
    tool: "nope",
    callId: "c",
    arguments: {},
    execution,
  });
  assert.equal(unknown.status, 404);
  const noScope = await post("/tools/execute", { tool: "list_notes", callId: "c", arguments: {} });
  assert.equal(noScope.status, 400);
  const refused = await post("/tools/execute", {
    tool: "add_note",
    callId: "c",
    arguments: { text: "forbidden" },
    execution,
  });
  assert.equal(refused.status, 403);
  assert.deepEqual(await refused.json(), { error: "not for you" });
  const preview = await (await post("/tools/preview", {
    tool: "add_note",
    callId: "c",
    arguments: { text: "hi" },
    execution,
  })).json();
  assert.deepEqual(preview, { preview: "Add the note “hi”" });
  assert.deepEqual(scopes.at(-1), execution);
});

test("the runtime and a kit host on loopback: a get in the turn, a create applied, with the scope handed to each tool", async () => {
  const scopes: ExecutionScope[] = [];
  const { host, notes } = kit(scopes);
  const server = await serveLoopback(host.fetch);
  const model = scriptedModel([
    { calls: [{ name: "list_notes", args: {} }] },
    { calls: [{ name: "add_note", args: { text: "buy milk" } }] },
    { text: "Added." },
  ]);
  const h = harness({
    model,
    access: { adminToken: ADMIN } as any,
    remoteTools: { allowedHosts: ["127.0.0.1"], timeoutMs: 5_000, workspace: "team" },
  });
  const connected = await h.call("POST", "/v1/integrations/generic-rest/connect", {
    workspace_id: "team",
    base_url: server.url,
    secret: SECRET,
  }, { authorization: `Bearer ${ADMIN}` });
  assert.equal(connected.status, 201);
  const res = await h.chat({ session_id: "kit", content: "add buy milk" });
  assert.equal(res.body.pending_tool_call.preview, "Add the note “buy milk”");
  assert.deepEqual(notes, [], "the preview changed nothing");
  const done = await h.chat({
    session_id: "kit",
    content: "",
    tool_call_id: res.body.pending_tool_call.call_id,
    tool_result: { decision: "apply" },
  });
  assert.equal(done.body.content, "Added.");
  assert.deepEqual(notes, ["buy milk"]);
  assert.equal(scopes.length, 2);
  for (const s of scopes) {
    assert.equal(s.workspaceId, "team");
    assert.equal(s.externalUserId, "local");
  }
  await h.close();
  await server.close();
});

test("the kit checks patterns on RE2, and reads a body no further than its cap", {
  timeout: 10_000,
}, async () => {
  const host = remoteToolsHost({
    secret: SECRET,
    maxBodyBytes: 65_536,
    tools: [{
      name: "tag",
      description: "Tag a note.",
      verb: "update",
      // A backreference: a backtracking engine runs it (and patterns like it, for as long as a
      // model's argument makes it); RE2 refuses it, so the kit says the schema needs fixing.
      inputSchema: {
        type: "object",
        properties: { tag: { type: "string", pattern: "^(a)\\1$" } },
        required: ["tag"],
      },
      execute: () => ({ tagged: true }),
    }],
  });
  const auth = { authorization: `Bearer ${SECRET}`, "content-type": "application/json" };
  const res = await host.request("/tools/execute", {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ tool: "tag", arguments: { tag: "aa" } }),
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /not a valid regular expression/);
  // 64 KiB chunks without end and without a declared length.
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 65_536;
      controller.enqueue(new Uint8Array(65_536).fill(0x20));
    },
  });
  const big = await host.request("/tools/execute", {
    method: "POST",
    headers: auth,
    body: endless,
    duplex: "half",
  } as RequestInit);
  assert.equal(big.status, 413);
  assert.match((await big.json()).error, /over 65536 bytes/);
  assert.ok(pulled <= 4 * 65_536, `read about as far as the cap (${pulled} bytes)`);
});
