import assert from "node:assert/strict";
import { connect } from "node:net";
import { test } from "node:test";
import type { RuntimeOptions } from "../config.ts";
import { startNode } from "../runtime/node.ts";
import { scriptedModel } from "../testing/scripted_model.ts";

/** Sends raw bytes on a fresh connection and returns the status line of the answer. */
function raw(url: string, head: string, body: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head + body));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk;
      if (answer.includes("\r\n")) {
        socket.destroy();
        resolve(answer.slice(0, answer.indexOf("\r\n")));
      }
    });
    socket.on("error", reject);
  });
}

const chat = (length: number | null) =>
  "POST /api/chat HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n" +
  (length === null ? "transfer-encoding: chunked\r\n" : `content-length: ${length}\r\n`) + "\r\n";

/** A runtime on loopback whose model answers text. */
const serve = (limits: Partial<RuntimeOptions["limits"]> = {}) =>
  startNode({
    port: 0,
    env: {},
    storeUrl: "memory:",
    model: scriptedModel([{ text: "hi" }]),
    socketIo: false,
    limits: limits as RuntimeOptions["limits"],
  });

test("a body that declares its length but stops short gets 408 once the body deadline passes", async () => {
  const server = await serve({ bodyTimeoutMs: 200 });
  try {
    const started = performance.now();
    assert.match(await raw(server.url, chat(100), '{"session_id":'), / 408 /);
    assert.ok(performance.now() - started < 5_000);
  } finally {
    await server.close();
  }
});

test("bodies with and without a declared length are read the same", async () => {
  const server = await serve();
  try {
    const body = JSON.stringify({ session_id: "b1", content: "hello" });
    assert.match(await raw(server.url, chat(Buffer.byteLength(body)), body), / 200 /);
    const chunked = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    assert.match(await raw(server.url, chat(null), chunked), / 200 /);
    assert.match(await raw(server.url, chat(3), "{]}"), / 400 /);
  } finally {
    await server.close();
  }
});
