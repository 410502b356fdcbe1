/**
 * The Deno Deploy entry with several isolates on one Deno KV: two
 * `deno serve` processes of `server/runtime/deploy.ts` on one KV file, and
 * one `deno serve --parallel` with two isolates on Deno's own default KV (as
 * on Deno Deploy). The model is a local Chat Completions server (the real
 * wire), so a turn can stream slowly or hang until it is cancelled. For each:
 *
 * - a follower on one receives every event of a turn run on the other, while it runs;
 * - 40 concurrent duplicate continuations spread over both: exactly one applied, 39 refused
 *   (409), none a 5xx;
 * - a cancel sent to one stops a turn running on the other.
 *
 * Under `--parallel` Deno spreads connections over the isolates, and a test
 * cannot pick one: every request here goes on a connection of its own, and
 * each check runs over several sessions or followers, so with two isolates
 * the chance that none of them crossed is under 1 in 30 per check (the
 * two-process runs cross on every request). With the Deno KV store declared
 * single-process, the follower and cancel checks failed on both. Node only:
 * it spawns Deno.
 *
 * @module
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ISSUE_CONTEXT } from "../server/testing/harness.ts";
import { chatCompletionsServer } from "./providers/chat_completions.ts";
import { defaultBrain } from "./providers/_brain.ts";
import type { ProviderServer } from "./providers/_server.ts";
import { type DenoServe, denoServe } from "./_deno_serve.ts";
import { completed, type Loose, type Received, sse } from "./multiprocess/_clients.ts";

const TOKEN = "deploy-isolates-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };
const fresh = (label: string) => `iso-${label}-${crypto.randomUUID().slice(0, 8)}`;
const LONG = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");

/** POSTs or GETs JSON on a connection of its own (so `--parallel` may route it anywhere). */
function call(
  base: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Loose }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(`${base}${path}`, {
      method: data === undefined ? "GET" : "POST",
      agent: false,
      headers: { ...auth, ...(data ? { "content-type": "application/json" } : {}) },
      timeout: 60_000,
    }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        let parsed: Loose = text;
        try {
          parsed = JSON.parse(text);
        } catch { /* not JSON: kept as text */ }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`${path} took over 60 s`)));
    req.on("error", reject);
    req.end(data);
  });
}

const turnEvents = (events: Received[], from: number) =>
  events.filter((e) => (e.payload.seq as number) > from).map((e) => e.payload);

function suite(
  label: string,
  start: () => Promise<{ urls: [string, string]; stop(): Promise<void>; logs(): string }>,
) {
  describe(label, () => {
    let urls: [string, string];
    let stop: () => Promise<void> = async () => {};
    let logs: () => string = () => "";
    before(async () => void ({ urls, stop, logs } = await start()), { timeout: 90_000 });
    after(() => stop());

    const withLogs = async (body: () => Promise<void>) => {
      try {
        await body();
      } catch (error) {
        if (error instanceof Error) {
          error.message += `\n--- deno serve output ---\n${logs().slice(-4_000)}`;
        }
        throw error;
      }
    };

    test("followers on either receive every event of a turn run on the other, live", {
      timeout: 60_000,
    }, () =>
      withLogs(async () => {
        const sid = fresh("follow");
        const first = await call(urls[0], "/api/chat", { session_id: sid, content: "hello" });
        assert.equal(first.status, 200, JSON.stringify(first.body));
        const before = await call(urls[1], `/api/sessions/${sid}`);
        assert.equal(before.status, 200, JSON.stringify(before.body));
        const followers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            sse(`${urls[i % 2]}/api/sessions/${sid}/events?after=0`, undefined, auth)),
        );
        try {
          // Each follower replays the first turn; wait for it so the rest is live.
          await Promise.all(followers.map((f) =>
            f.until(completed, 15_000)
          ));
          const from = Math.max(...followers.map((f) => f.events.at(-1)!.payload.seq as number));
          const turn = await sse(
            `${urls[1]}/api/chat`,
            { session_id: sid, content: `say ${LONG}` },
            auth,
          );
          const end = await turn.until(completed, 30_000);
          turn.close();
          const own = turnEvents(turn.events, from);
          assert.ok(own.length > 5, `the turn streamed several events: ${JSON.stringify(own)}`);
          const started = turn.events.find((e) => e.event === "assistant:status")!;
          for (const [i, follower] of followers.entries()) {
            await follower.until(
              (e) => completed(e) && (e.payload.seq as number) >= (end.payload.seq as number),
              10_000,
            );
            assert.deepEqual(
              turnEvents(follower.events, from),
              own,
              `follower ${i} saw the turn as its runner did`,
            );
            const seen = follower.events.find((e) => e.payload.seq === started.payload.seq)!;
            assert.ok(
              seen.at! < end.at!,
              `follower ${i} saw the turn start before it ended (live, not on reconnect)`,
            );
          }
        } finally {
          for (const f of followers) f.close();
        }
      }));

    test("40 concurrent duplicate continuations over both: one applied, 39 refused, no 5xx", {
      timeout: 90_000,
    }, () =>
      withLogs(async () => {
        const sid = fresh("dup");
        const pended = await call(urls[0], "/api/chat", {
          session_id: sid,
          content: '@call select_issue {"number": 42}',
          host_context: ISSUE_CONTEXT,
        });
        assert.equal(pended.status, 200, JSON.stringify(pended.body));
        const callId = pended.body.pending_tool_call?.call_id;
        assert.ok(callId, JSON.stringify(pended.body));
        const answers = await Promise.all(Array.from({ length: 40 }, (_, i) =>
          call(urls[i % 2], "/api/chat", {
            session_id: sid,
            content: "",
            tool_call_id: callId,
            tool_result: { n: i },
          })));
        const statuses = answers.map((a) =>
          a.status
        );
        assert.deepEqual(
          statuses.filter((s) => s >= 500),
          [],
          JSON.stringify(answers.filter((a) => a.status >= 500)),
        );
        assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${statuses}`);
        assert.equal(
          answers.filter((a) => a.status === 409 && a.body.error?.type === "session_error").length,
          39,
          `statuses: ${statuses}`,
        );
        const won = statuses.indexOf(200);
        const stored = (await call(urls[1], `/api/sessions/${sid}/messages`)).body
          .messages as Loose[];
        assert.deepEqual(stored.map((m) => m.role), ["user", "assistant"]);
        assert.deepEqual(stored[1].tool_calls.map((c: Loose) => c.result), [{ n: won }]);
      }));

    test(
      "a cancel sent to one stops a turn running on the other",
      { timeout: 90_000 },
      () =>
        withLogs(async () => {
          for (let round = 0; round < 5; round++) {
            const sid = fresh(`cancel${round}`);
            const turn = await sse(`${urls[0]}/api/chat`, {
              session_id: sid,
              content: "wait for me",
            }, auth);
            try {
              await turn.until((e) => e.event === "assistant:status", 15_000);
              // The model request is under way (and hangs): the turn runs until something stops it.
              await new Promise((r) => setTimeout(r, 300));
              assert.deepEqual(
                turn.events.filter((e) => e.event === "assistant:status").map((e) =>
                  e.payload.status
                ),
                ["started"],
                `the turn still runs before the cancel: ${JSON.stringify(turn.events)}`,
              );
              const sent = Date.now();
              const cancel = await call(urls[1], `/api/chat/${sid}/cancel`, {});
              assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
              assert.equal(
                cancel.body.cancelled,
                true,
                `round ${round}: ${JSON.stringify(cancel.body)}`,
              );
              // The model request hangs for a minute: only the cancel ends the turn this soon.
              await turn.until(completed, 10_000);
              assert.ok(Date.now() - sent < 10_000);
              const stored = (await call(urls[1], `/api/sessions/${sid}/messages`)).body
                .messages as Loose[];
              assert.equal(stored.at(-1)?.status, "cancelled", JSON.stringify(stored.at(-1)));
            } finally {
              turn.close();
            }
          }
        }),
    );
  });
}

let model: ProviderServer;
let dir = "";
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "tether-isolates-"));
  model = await chatCompletionsServer({
    apiKey: null,
    chunkDelayMs: 15,
    brain: (request) =>
      request.messages.some((m) => m.role === "user" && m.text.includes("wait for me"))
        ? { stall: "events" }
        : defaultBrain(request),
  });
});
after(async () => {
  await model?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => ({
  ACCESS__TOKEN: TOKEN,
  MODEL__DEFAULT: `openai-compatible:${model.url}#llama3.2`,
  ...extra,
});

suite("two deno serve processes of the Deploy entry on one Deno KV file", async () => {
  const file = join(dir, "two", "store.db");
  const served: DenoServe[] = [];
  const stop = () => Promise.all(served.map((s) => s.stop())).then(() => {});
  try {
    for (const name of ["a", "b"]) {
      served.push(
        await denoServe(env({ STORE__URL: `denokv:${file}`, DENO_DIR: join(dir, `deno-${name}`) })),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    urls: [served[0].url, served[1].url],
    stop,
    logs: () => served.map((s) => s.output()).join("\n"),
  };
});

suite("deno serve --parallel (two isolates) on Deno's own KV", async () => {
  const served = await denoServe(env({ STORE__URL: "", DENO_DIR: join(dir, "deno-parallel") }), 2);
  return { urls: [served.url, served.url], stop: served.stop, logs: served.output };
});
