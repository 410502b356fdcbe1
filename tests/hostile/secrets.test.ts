/**
 * Secrets in logs (point 9): a provider that answers 401 with the API key in
 * its body must not get the key into any log line or console output.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readSse } from "../../server/transports/_test_kit.ts";
import { post, startTarget, underAttack } from "./_kit.ts";

const KEY = "sk-hostile-0123456789abcdef";

/** Starts `provider` on loopback; answers its OpenAI-style base URL. */
async function listening(provider: Server): Promise<string> {
  await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
}

/** Collects what the console prints until `restore()`. */
function captureConsole() {
  const printed: string[] = [];
  const saved = { error: console.error, warn: console.warn, log: console.log };
  const capture = (...args: unknown[]) => printed.push(args.map(String).join(" "));
  Object.assign(console, { error: capture, warn: capture, log: capture });
  return { printed, restore: () => Object.assign(console, saved) };
}

test("a provider's 401 quoting the API key puts the key in no log line", async () => {
  let asked = 0;
  const provider = createServer((_req, res) => {
    asked++;
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY}.`, code: "invalid_api_key" },
    }));
  });
  const base = await listening(provider);
  const { printed, restore } = captureConsole();
  const target = await startTarget({
    MODEL__DEFAULT: "openai:gpt-4o-mini",
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: base,
  });
  try {
    const res = await post(target.url, "/api/chat", { session_id: "secret", content: "hi" });
    assert.equal(res.status, 200);
    assert.equal(res.body.error_type, "provider_auth");
    assert.ok(asked > 0, "the provider was asked");
    // Logged through the runtime's logger, the key is redacted too.
    target.engine.options.logger.error(`provider said ${KEY}`);
    const all = [...printed, ...target.logs, JSON.stringify(res.body)];
    assert.ok(all.some((line) => line.includes("[redacted]")));
    for (const line of all) assert.ok(!line.includes(KEY), `the key leaked: ${line.slice(0, 300)}`);
  } finally {
    restore();
    await target.close();
    provider.close();
  }
});

test("a provider's broken JSON quoting a piece of the key puts no piece of it in a log line or an event", async () => {
  const key = "sk-live-LE4KED-0f1e2d3c4b5a69788796";
  // A stream whose event is broken JSON quoting the first ten characters: '{"bad":sk-live-LE'.
  const provider = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`data: {"bad":${key.slice(0, 10)}\n\n`);
  });
  const base = await listening(provider);
  const { printed, restore } = captureConsole();
  const target = await startTarget({
    MODEL__DEFAULT: "openai:gpt-4o-mini",
    OPENAI_API_KEY: key,
    OPENAI_BASE_URL: base,
  });
  try {
    const res = await underAttack(target, async () => {
      const r = await fetch(`${target.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ session_id: "broken-json", content: "hi" }),
      });
      return { status: r.status, events: await readSse(r) };
    });
    assert.equal(res.status, 200);
    const all = [...printed, ...target.logs, JSON.stringify(res.events)];
    assert.ok(all.some((line) => line.includes("sk-live-LE") || line.includes("[redacted]")));
    for (const line of all) {
      assert.ok(
        !line.includes(key.slice(0, 10)),
        `a piece of the key leaked: ${line.slice(0, 300)}`,
      );
    }
  } finally {
    restore();
    await target.close();
    provider.close();
  }
});
