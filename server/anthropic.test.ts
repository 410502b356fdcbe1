// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime in tests and benchmarks
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRuntime } from "./app.ts";
import { memoryStore } from "./kv/memory.ts";

/** A loopback stand-in for the Anthropic Messages API: it streams one text answer, as the API does. */
async function fakeAnthropic(bodies: any[]) {
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      bodies.push(JSON.parse(raw));
      if (req.headers["x-api-key"] !== "test-key") {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            type: "error",
            error: { type: "authentication_error", message: "invalid x-api-key" },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (event: string, data: unknown) =>
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send("message_start", {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [],
          stop_reason: null,
          usage: {
            input_tokens: 12,
            output_tokens: 1,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        },
      });
      send("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      });
      send("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "Hello from the fake." },
      });
      send("content_block_stop", { type: "content_block_stop", index: 0 });
      send("message_delta", {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 5 },
      });
      send("message_stop", { type: "message_stop" });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

test("anthropic models get a cache breakpoint on the system prompt and the replayed history", async () => {
  const bodies: any[] = [];
  const { server, url } = await fakeAnthropic(bodies);
  const app = createRuntime({
    store: memoryStore(),
    model: "anthropic:claude-test",
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: url },
    warn: () => {},
  });
  try {
    const post = (content: string) =>
      app.request("/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ session_id: "a", content }),
      });
    const first = await (await post("hi")).json() as any;
    assert.equal(first.content, "Hello from the fake.");
    assert.equal(first.model, "anthropic:claude-test");
    await post("again");
    // The turns' requests stream; the conversation's title is asked for in a call of its own.
    const turns = bodies.filter((b) => b.stream === true);
    const system = JSON.stringify(turns[0].system);
    assert.match(system, /"cache_control":\{"type":"ephemeral"\}/);
    const history = JSON.stringify(turns[1].messages.at(-1));
    assert.match(
      history,
      /cache_control/,
      "the end of the prompt is a breakpoint too, so the next turn reads it from the cache",
    );
  } finally {
    await app.close();
    server.close();
  }
});

test("a provider that refuses the key ends the turn with provider_auth", async () => {
  const bodies: any[] = [];
  const { server, url } = await fakeAnthropic(bodies);
  const app = createRuntime({
    store: memoryStore(),
    model: "anthropic:claude-test",
    env: { ANTHROPIC_API_KEY: "wrong", ANTHROPIC_BASE_URL: url },
    warn: () => {},
  });
  try {
    const res = await app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: "b", content: "hi" }),
    });
    const body = await res.json() as any;
    assert.equal(body.error_type, "provider_auth");
  } finally {
    await app.close();
    server.close();
  }
});
