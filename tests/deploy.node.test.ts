/**
 * The Deno Deploy entry under a real `deno serve` (on an ephemeral loopback
 * port, with Deno's own default KV in a temporary DENO_DIR): it says at start
 * that Socket.IO is not served, answers a chat over HTTP, streams one over
 * SSE and AG-UI, keeps the conversation in that KV, refuses Socket.IO's
 * path, and refuses a stranger without `ACCESS__TOKEN` (the entry does not
 * start without one: tests/hostile/deploy_open.node.test.ts). Node only: it spawns
 * Deno from the `deno` devDependency.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { HttpAgent } from "@ag-ui/client";
import { spawnDeploy } from "./_deploy_entry.ts";

const TOKEN = `deploy-${crypto.randomUUID()}`;
const bearer = { authorization: `Bearer ${TOKEN}` };

describe("the Deno Deploy entry under deno serve", () => {
  let child: ChildProcess;
  let denoDir = "";
  let url = "";
  let output = "";

  before(async () => {
    denoDir = await mkdtemp(join(tmpdir(), "tether-deploy-"));
    child = spawnDeploy(denoDir, { ACCESS__TOKEN: TOKEN });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`deno serve did not start:\n${output}`)),
        60_000,
      );
      const read = (chunk: Buffer) => {
        output += chunk;
        const found = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      };
      child.stdout!.on("data", read);
      child.stderr!.on("data", read);
      child.on("exit", (code) => reject(new Error(`deno serve exited (${code}):\n${output}`)));
    });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      // deno serve drains open connections on SIGTERM; do not wait for keep-alive ones.
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    }
    if (denoDir) await rm(denoDir, { recursive: true, force: true });
  });

  test("says once at start that Socket.IO is not served and which store it uses", () => {
    const lines = output.split("\n").filter((line) => line.includes("Socket.IO is not available"));
    assert.equal(lines.length, 1, output);
    assert.match(lines[0], /store denokv/);
  });

  test("answers POST /api/chat and keeps the conversation in Deno's own KV", async () => {
    const session = `deploy-${crypto.randomUUID()}`;
    const response = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ session_id: session, content: "hello from deno serve" }),
    });
    assert.equal(response.status, 200);
    const answer = await response.json();
    assert.equal(typeof answer.content, "string");
    assert.ok(answer.content.length > 0, JSON.stringify(answer));
    assert.equal(answer.error ?? null, null);

    const stored = await fetch(`${url}/api/sessions/${session}/messages`, { headers: bearer });
    assert.equal(stored.status, 200);
    const text = JSON.stringify(await stored.json());
    assert.match(text, /hello from deno serve/);
    assert.ok(text.includes(JSON.stringify(answer.content)), text);
  });

  test("streams a turn as server-sent events", async () => {
    const response = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ session_id: `deploy-sse-${crypto.randomUUID()}`, content: "hello" }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
    const text = await response.text();
    assert.match(text, /"type":"agent_status","status":"started"/);
    assert.match(text, /"type":"final_response"/);
    assert.match(text, /"status":"completed"/);
  });

  test("runs an AG-UI agent (the real @ag-ui/client) to RUN_FINISHED", async () => {
    const agent = new HttpAgent({
      url: `${url}/api/agui`,
      threadId: `deploy-ag-${Date.now()}`,
      headers: bearer,
    });
    agent.addMessage({ id: "u1", role: "user", content: "hello" });
    const types: string[] = [];
    await agent.runAgent({ runId: "run-1" }, {
      onEvent: ({ event }) => {
        types.push(event.type);
      },
    });
    assert.equal(types[0], "RUN_STARTED");
    assert.equal(types.at(-1), "RUN_FINISHED");
    assert.equal(agent.messages.at(-1)?.role, "assistant");
  });

  test("a stranger without the token can neither read, write nor delete a session", async () => {
    const session = `deploy-stranger-${crypto.randomUUID()}`;
    const made = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ session_id: session, content: "mine" }),
    });
    assert.equal(made.status, 200);
    await made.body?.cancel();
    const tries = [
      fetch(`${url}/api/sessions/${session}/messages`),
      fetch(`${url}/api/sessions/${session}`, { method: "DELETE" }),
      fetch(`${url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ session_id: session, content: "theirs" }),
      }),
    ];
    for (const res of await Promise.all(tries)) {
      await res.body?.cancel();
      assert.equal(res.status, 401);
    }
    const kept = await fetch(`${url}/api/sessions/${session}/messages`, { headers: bearer });
    assert.equal(kept.status, 200);
    assert.doesNotMatch(JSON.stringify(await kept.json()), /theirs/);
  });

  test("refuses Socket.IO's path instead of pretending to serve it", async () => {
    const response = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    await response.body?.cancel();
    assert.equal(response.status, 404);
  });
});
