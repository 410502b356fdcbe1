/**
 * The runtime served with files beside it (the demo, as `npm start` serves
 * it): every route the app declares reaches the runtime, none is answered by
 * the file server, and other paths are files.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runtimeSegments, startNode } from "../server/runtime/node.ts";

test("every route of the app is reachable with files served beside it; other paths are files", async () => {
  const root = mkdtempSync(join(tmpdir(), "tether-files-"));
  writeFileSync(join(root, "index.html"), "<!doctype html><title>files</title>");
  const started = await startNode({ port: 0, env: { STORE__URL: "memory:" }, staticRoot: root });
  try {
    const routes = started.app.routes.filter((r) => r.method !== "ALL" && !r.path.includes("*"));
    assert.ok(routes.some((r) => r.path.startsWith("/v1/integrations")), "the registration route");
    for (const route of routes) {
      const path = route.path.replace(/:[a-z_]+/gi, "x");
      const response = await fetch(`${started.url}${path}`, {
        method: route.method,
        headers: { "content-type": "application/json" },
        body: route.method === "GET" || route.method === "HEAD" ? undefined : "{}",
      });
      await response.body?.cancel();
      // The file server answers a path it lacks with a plain-text 404; the runtime in JSON.
      assert.match(
        response.headers.get("content-type") ?? "",
        /json|event-stream/,
        `${route.method} ${route.path} reached the runtime (${response.status})`,
      );
    }
    assert.deepEqual([...runtimeSegments(started.app)].sort(), [
      "api",
      "health",
      "socket.io",
      "v1",
    ]);
    const page = await fetch(`${started.url}/`);
    assert.match(await page.text(), /<title>files<\/title>/);
    const missing = await fetch(`${started.url}/no-such-file.js`);
    await missing.body?.cancel();
    assert.equal(missing.status, 404);
  } finally {
    await started.close();
    rmSync(root, { recursive: true, force: true });
  }
});
