// deno-lint-ignore-file no-explicit-any -- event payloads
/**
 * Following a session against the real runtime: a second host on the same
 * session (another tab) sees a turn the first one started stream in, with
 * its user message, its tool call and the answer, over SSE with `follow`
 * and over Socket.IO; it never runs the first host's calls. And, on a
 * scripted fetch, a follower whose stream breaks resumes it from
 * `Last-Event-ID`, repeating and dropping nothing.
 */
import {
  type HostState,
  socketIoTransport,
  sseTransport,
  type TransportFactory,
} from "../../client/mod.ts";
import { deepEqual, equal, match, ok } from "./_assert.ts";
import { freshSession, hasSocketIo, runtimeUrls, waitFor } from "./_runtime.ts";
import { hostOpener, selectIssue, sseStream } from "./_hosts.ts";

const { open, closeAll } = hostOpener();
afterEach(closeAll);

const transcript = (state: HostState) =>
  state.messages.map((m) =>
    `${m.role}: ${m.content}${m.toolCalls.map((c) => ` [${c.toolName} ${c.status}]`).join("")}`
  );

const followers: [string, () => TransportFactory][] = [
  ["SSE with follow", () => sseTransport({ follow: true })],
  ["Socket.IO", () => socketIoTransport()],
];

for (const [label, transport] of followers) {
  describe(`another tab over ${label}`, function () {
    before(async function () {
      if (label === "Socket.IO" && !(await hasSocketIo((await runtimeUrls()).proxied))) {
        console.warn("SKIPPED: following over Socket.IO: the runtime does not serve /socket.io");
        this.skip();
      }
    });

    it("streams in a turn the first tab started: its message, its call and the answer", async () => {
      const { proxied } = await runtimeUrls();
      const sessionId = freshSession("follow");
      const first = open({ runtimeUrl: proxied, sessionId });
      first.view({ name: "issues" });
      let runs = 0;
      first.action("select_issue", selectIssue, ({ number }) => (runs++, { selected: number }));
      await first.send("hello");

      const second = open({ runtimeUrl: proxied, sessionId, transport: transport() });
      let secondRuns = 0;
      second.action("select_issue", selectIssue, () => (secondRuns++, { selected: 0 }));
      const seen: string[] = [];
      second.on("assistant:text_delta", () => seen.push("delta"));
      second.on(
        "assistant:final_response",
        (e: any) => seen.push(e.pending_tool_call ? "pending" : "final"),
      );
      await second.connect();
      equal(second.state.get().messages.length, 2, "the conversation so far");

      await first.send("select issue 42");
      const expected = transcript(first.state.get());
      match(expected.at(-1), /Done: select issue \(.* \[select_issue completed\]$/);
      // The turn's closing status follows its final answer as an event of its own.
      await waitFor(
        () =>
          JSON.stringify(transcript(second.state.get())) === JSON.stringify(expected) &&
          !second.state.get().running,
        10_000,
        `the second tab to show ${JSON.stringify(expected)} and the turn ended, it shows ${
          JSON.stringify(transcript(second.state.get()))
        } (running: ${second.state.get().running})`,
      );
      ok(seen.includes("pending") && seen.at(-1) === "final", `events streamed in: ${seen}`);
      ok(seen.includes("delta"), "the answer streamed as deltas");
      const state = second.state.get();
      equal(state.running, false);
      equal(state.pending, null);
      deepEqual(state.messages.map((m) => m.id), first.state.get().messages.map((m) => m.id));
      equal(runs, 1, "the first tab ran its call");
      equal(secondRuns, 0, "the second tab ran nothing");
    });
  });
}

describe("a host that does not follow", () => {
  it("sees only its own turns", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("nofollow");
    const first = open({ runtimeUrl: proxied, sessionId });
    await first.send("hello");
    const second = open({ runtimeUrl: proxied, sessionId });
    await second.connect();
    await first.send("hello again");
    await new Promise((resolve) => setTimeout(resolve, 300));
    equal(second.state.get().messages.length, 2, "only what it read when it connected");
  });
});

describe("a follower whose stream breaks", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => void (globalThis.fetch = realFetch));

  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });

  it("resumes from Last-Event-ID and shows the other client's turn whole", async () => {
    const requests: { path: string; lastEventId: string | null }[] = [];
    let reads = 0;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input)).pathname;
      requests.push({ path, lastEventId: new Headers(init?.headers).get("last-event-id") });
      if (path === "/api/sessions/s-follow") {
        return Promise.resolve(
          json({ session_id: "s-follow", message_count: 0, pending_action: null }),
        );
      }
      if (path === "/api/sessions/s-follow/messages") {
        return Promise.resolve(json({
          session_id: "s-follow",
          messages: [{
            id: "u1",
            role: "user",
            turn: 1,
            content: "from the phone",
            attachments: [],
          }],
        }));
      }
      if (path === "/api/sessions/s-follow/events" && reads++ === 0) {
        return Promise.resolve(sseStream([
          ["assistant:status", { type: "agent_status", status: "started", seq: 7 }],
          ["assistant:text_delta", { type: "text_delta", content: "Hel", seq: 8 }],
        ], "cut"));
      }
      if (path === "/api/sessions/s-follow/events") {
        return Promise.resolve(sseStream([
          ["assistant:text_delta", { type: "text_delta", content: "Hel", seq: 8 }],
          ["assistant:text_delta", { type: "text_delta", content: "lo", seq: 9 }],
          ["assistant:final_response", {
            type: "final_response",
            content: "Hello",
            model: "offline",
            streamed: true,
            session_id: "s-follow",
            message_id: "a1",
            seq: 10,
          }],
          ["assistant:status", { type: "agent_status", status: "completed", seq: 11 }],
        ], "open"));
      }
      return Promise.resolve(
        new Response('{"error":{"type":"not_found","message":"no"}}', { status: 404 }),
      );
    }) as typeof fetch;
    const host = open({
      runtimeUrl: "http://runtime.test",
      sessionId: "s-follow",
      transport: sseTransport({ follow: true, retryDelay: 10 }),
    });
    const deltas: string[] = [];
    host.on("assistant:text_delta", (e) => deltas.push(e.content));
    await host.connect();
    await waitFor(
      () => !host.state.get().running && host.state.get().messages.length === 2,
      5_000,
      "the turn",
    );
    deepEqual(deltas, ["Hel", "lo"], "nothing repeated or dropped");
    deepEqual(transcript(host.state.get()), ["user: from the phone", "assistant: Hello"]);
    const events = requests.filter((r) => r.path.endsWith("/events"));
    deepEqual(
      events.map((r) => r.lastEventId),
      [null, "8"],
      "live first, then from the last event seen",
    );
    equal(
      requests.filter((r) => r.path.endsWith("/messages")).length,
      1,
      "the turn's message read once",
    );
  });
});
