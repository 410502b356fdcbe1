import { test } from "node:test";
import assert from "node:assert/strict";
import { serveLoopback } from "../testing/loopback.ts";
import { resolveBaseUrl } from "./address.ts";
import { callServer, RemoteFailure } from "./client.ts";
import type { Integration } from "./integrations.ts";

const SECRET = "pinned-secret-0a9b8c7d6e5f";
const integration = (base_url: string) => ({ base_url, secret: SECRET }) as Integration;

test("a call connects at the address it is given, whatever the name resolves to now", async () => {
  let host: string | null = null;
  const server = await serveLoopback((req) => {
    host = req.headers.get("host");
    return Response.json({ tools: [] });
  });
  try {
    const port = new URL(server.url).port;
    // No resolver knows this name: only the given address can be what was reached.
    const name = `http://tools.pinned.invalid:${port}`;
    const body = await callServer(integration(name), "127.0.0.1", "GET", "/tools", null, 2_000);
    assert.deepEqual(body, { tools: [] });
    assert.equal(host, `tools.pinned.invalid:${port}`, "the Host header keeps the name");
    await assert.rejects(
      callServer(integration(name), "127.0.0.2", "GET", "/tools", null, 2_000),
      (error: Error) => error instanceof RemoteFailure && error.reason === "network",
    );
  } finally {
    await server.close();
  }
});

test("the address to connect to is one the check saw, and every resolved address is checked", async () => {
  let asked = 0;
  const resolve = (answer: string[]) => () => (asked++, Promise.resolve(answer));
  const picked = await resolveBaseUrl("https://tools.example/a", [], resolve(["93.184.216.34"]));
  assert.deepEqual(picked, { url: "https://tools.example/a", address: "93.184.216.34" });
  assert.equal(asked, 1, "resolved once");
  await assert.rejects(
    resolveBaseUrl("https://tools.example/a", [], resolve(["93.184.216.34", "127.0.0.1"])),
    /reaches 127\.0\.0\.1/,
  );
  // An allowed name is still resolved once, so its connection is pinned too.
  const allowed = await resolveBaseUrl(
    "http://svc.local:7200",
    ["svc.local"],
    resolve(["10.0.0.4"]),
  );
  assert.equal(allowed.address, "10.0.0.4");
});
