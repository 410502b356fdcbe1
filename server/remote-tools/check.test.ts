import { test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { serveLoopback } from "../testing/loopback.ts";
import { checkHost } from "./check.ts";
import { remoteToolsHost } from "./host.ts";

const SECRET = "check-secret-0123456789abcdef";

test("check-host passes against the kit's host", async () => {
  const items: string[] = [];
  const server = await serveLoopback(
    remoteToolsHost({
      secret: SECRET,
      context: () => ({ items: items.length }),
      tools: [
        {
          name: "find",
          description: "Find items.",
          verb: "get",
          inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          execute: ({ q }) => ({ results: items.filter((i) => i.includes(String(q))) }),
        },
        {
          name: "add",
          description: "Add an item.",
          verb: "create",
          inputSchema: {
            type: "object",
            properties: { name: { type: "string" } },
            required: ["name"],
          },
          preview: ({ name }) => `Add ${name}`,
          execute: ({ name }) => (items.push(String(name)), { count: items.length }),
        },
      ],
    }).fetch,
  );
  const findings = await checkHost(server.url, SECRET);
  assert.deepEqual(findings.filter((f) => !f.ok), []);
  assert.ok(findings.length >= 9);
  await server.close();
});

test("check-host reports each fault of a deliberately broken host", async () => {
  let counter = 0;
  const broken = new Hono();
  // Accepts any secret, lists broken tools, previews with a side effect, errors without JSON bodies.
  broken.get("/tools", (c) =>
    c.json({
      tools: [
        { name: "ok_tool", description: "Fine.", verb: "create", inputSchema: { type: "object" } },
        { name: "bad_verb", description: "x", verb: "destroy", inputSchema: { type: "object" } },
        { name: "array_schema", description: "x", verb: "get", inputSchema: { type: "array" } },
      ],
    }));
  broken.get("/context", (c) => c.json({ counter }));
  broken.post("/tools/preview", async (c) => {
    const body = await c.req.json().catch(() => ({}));
    if (body.tool !== "ok_tool") return c.text("nope", 200);
    counter++;
    return c.json({ preview: "did it already" });
  });
  const server = await serveLoopback(broken.fetch);
  const findings = await checkHost(server.url, SECRET);
  const failed = new Set(findings.filter((f) => !f.ok).map((f) => f.check));
  for (
    const check of [
      "auth.wrong_secret",
      "auth.missing_secret",
      "auth.wrong_secret_post",
      "tools.shape",
      "preview.no_side_effects",
      "errors.unknown_tool",
      "errors.bad_arguments",
    ]
  ) {
    assert.ok(failed.has(check), `${check} is reported`);
  }
  const shape = findings.find((f) => f.check === "tools.shape")!;
  assert.match(shape.detail, /verb/);
  assert.match(shape.detail, /type object/);
  await server.close();
});
