/** Discovery refuses a tool server's tool that is named like one of the page's actions. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import { createLogger } from "../log.ts";
import { serveLoopback } from "../testing/loopback.ts";
import { remoteToolsHost } from "./host.ts";
import { Integrations } from "./integrations.ts";
import { executionScope } from "./turn_parts.ts";
import { RemoteTools } from "./remote_tools.ts";

const SECRET = "discovery-secret-0123456789abcdef";

test("a tool named like a page action is refused at discovery, and the log names both", async () => {
  const tool = (name: string) => ({
    name,
    description: `The server's ${name}.`,
    verb: "get" as const,
    inputSchema: { type: "object", properties: {} },
    execute: () => ({ ok: true }),
  });
  const server = await serveLoopback(
    remoteToolsHost({ secret: SECRET, tools: [tool("select_issue"), tool("find_task")] }).fetch,
  );
  const store = memoryStore();
  const lines: string[] = [];
  const integrations = new Integrations(store);
  const made = await integrations.add({
    provider: "generic-rest",
    workspace_id: "default",
    base_url: server.url,
    secret: SECRET,
    allowed_tools: [],
  });
  const remote = new RemoteTools(
    integrations,
    { allowedHosts: ["127.0.0.1"], timeoutMs: 2_000, workspace: "default" },
    createLogger((line) => lines.push(line)),
  );
  const scope = executionScope({ workspace_id: "default", external_user_id: "u", permissions: [] });
  try {
    const found = await remote.discover(scope, false, ["select_issue"]);
    assert.deepEqual(found.tools.map((t) => t.name), ["find_task"]);
    const said = lines.find((l) => l.includes("page action"));
    assert.ok(said, lines.join("\n"));
    assert.match(said!, new RegExp(`select_issue of integration ${made.id}`));
    // Without that page action, the same tool is offered.
    const all = await remote.discover(scope, false, []);
    assert.deepEqual(all.tools.map((t) => t.name).sort(), ["find_task", "select_issue"]);
  } finally {
    await server.close();
    await store.close();
  }
});
