/**
 * The SDK's parts that need no runtime, in Chromium: running an action
 * (failures included), the IndexedDB journal, the store, the WebMCP bridge,
 * parameters from zod, the SSE parser.
 */
import { z } from "zod";
import {
  applyEvent,
  createHost,
  createStore,
  type HostState,
  indexedDbJournal,
  type JournalEntry,
  memoryJournal,
  runAction,
  sseTransport,
  toJsonSchema,
} from "../../client/mod.ts";
import { readEventStream } from "../../client/_sse.ts";
import { deepEqual, equal, match, ok, throws } from "./_assert.ts";
import { sseStream } from "./_hosts.ts";

const call = (args: Record<string, unknown>, tool_name = "select_issue") => ({
  call_id: "c1",
  tool_name,
  arguments: args,
  queued: [],
});
const selectIssue = {
  name: "select_issue",
  description: "Select an issue.",
  parameters: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
};

describe("runAction", () => {
  it("runs the handler with checked arguments and returns its JSON result", async () => {
    const outcome = await runAction({
      ...selectIssue,
      handler: ({ number }) => ({ selected: number, at: undefined }),
    }, call({ number: 42 }));
    deepEqual(outcome, { outcome: "success", result: { selected: 42 } });
  });

  it("a thrown error is a failed outcome with a short reason", async () => {
    const outcome = await runAction({
      ...selectIssue,
      handler: () => {
        throw new Error("the list is locked");
      },
    }, call({ number: 1 }));
    equal(outcome.outcome, "failed");
    match(outcome.result, /select_issue failed: the list is locked/);
  });

  it("invalid arguments fail without running the handler", async () => {
    let ran = false;
    const outcome = await runAction(
      { ...selectIssue, handler: () => (ran = true) },
      call({ number: "forty-two" }),
    );
    equal(outcome.outcome, "failed");
    match(outcome.result, /Invalid arguments for select_issue: number/);
    equal(ran, false);
  });

  it("a missing handler fails", async () => {
    const outcome = await runAction(undefined, call({}, "open_door"));
    equal(outcome.outcome, "failed");
    match(outcome.result, /no handler for the action open_door/);
  });

  it("a timeout aborts the handler's signal and fails", async () => {
    let signal: AbortSignal | undefined;
    const outcome = await runAction(
      {
        ...selectIssue,
        timeout: 50,
        handler: (_args, context) => (signal = context.signal, new Promise(() => {})),
      },
      call({ number: 1 }),
    );
    equal(outcome.outcome, "failed");
    match(outcome.result, /timed out after 50 ms/);
    ok(signal?.aborted, "the handler's signal is aborted");
  });

  it("a signal aborted before the call begins runs nothing, not even the confirmation", async () => {
    let ran = false;
    const stopped = new AbortController();
    stopped.abort();
    const outcome = await runAction(
      {
        ...selectIssue,
        confirm: () => (ran = true, Promise.resolve(true)),
        handler: () => (ran = true),
      },
      call({ number: 1 }),
      { signal: stopped.signal },
    );
    deepEqual(outcome, {
      outcome: "declined",
      result: "The user cancelled select_issue; nothing was changed.",
    });
    equal(ran, false);
  });

  it("zod parameters are converted for the wire and validate (and parse) the arguments", async () => {
    const parameters = z.object({
      number: z.number().int().min(1),
      note: z.string().default("none"),
    });
    const schema = toJsonSchema(parameters);
    equal(schema.type, "object");
    deepEqual(schema.required, ["number"]);
    const ok1 = await runAction({
      name: "pick",
      description: "d",
      parameters,
      handler: (args) => args,
    }, call({ number: 3 }, "pick"));
    deepEqual(ok1.result, { number: 3, note: "none" });
    const bad = await runAction({
      name: "pick",
      description: "d",
      parameters,
      handler: (args) => args,
    }, call({ number: 0 }, "pick"));
    equal(bad.outcome, "failed");
  });
});

describe("indexedDbJournal", () => {
  const entry = (callId: string, startedAt: number): JournalEntry => ({
    sessionId: "s1",
    callId,
    toolName: "t",
    arguments: {},
    state: "started",
    messageId: `m-${callId}`,
    startedAt,
  });

  it("claims a call once, across two journals on one database (two tabs)", async () => {
    const name = `journal-${crypto.randomUUID()}`;
    const a = indexedDbJournal({ name });
    const b = indexedDbJournal({ name });
    const claims = await Promise.all([a.claim(entry("c1", 1)), b.claim(entry("c1", 1))]);
    deepEqual(claims.sort(), [false, true]);
  });

  it("keeps finished results, lists a session oldest first, keeps only a tombstone of settled calls", async () => {
    const journal = indexedDbJournal({ name: `journal-${crypto.randomUUID()}` });
    await journal.claim(entry("c2", 2));
    await journal.claim(entry("c1", 1));
    await journal.claim({ ...entry("c9", 0), sessionId: "other" });
    await journal.put({
      ...entry("c2", 2),
      state: "finished",
      outcome: "success",
      result: { ok: true },
    });
    deepEqual((await journal.list("s1")).map((e) => e.callId), ["c1", "c2"]);
    deepEqual((await journal.get("s1", "c2"))?.result, { ok: true });
    await journal.settle("s1", "c2");
    const settled = await journal.get("s1", "c2");
    equal(settled?.state, "settled");
    equal(settled?.result, undefined, "the result is dropped");
    equal(await journal.claim(entry("c2", 3)), false, "a settled call cannot be claimed again");
  });

  it("drops entries older than maxAge, and tombstones older than settledMaxAge, when it opens", async () => {
    const name = `journal-${crypto.randomUUID()}`;
    const first = indexedDbJournal({ name });
    await first.claim(entry("old", Date.now() - 10_000));
    await first.claim(entry("done", Date.now() - 5_000));
    await first.claim(entry("new", Date.now()));
    await first.settle("s1", "done");
    deepEqual(
      (await indexedDbJournal({ name, maxAge: 8_000, settledMaxAge: 1_000 }).list("s1")).map((e) =>
        e.callId
      ),
      ["new"],
    );
  });
});

describe("state", () => {
  it("a store notifies subscribers of each change", () => {
    const store = createStore(1);
    const seen: number[] = [];
    const stop = store.subscribe((n) => seen.push(n));
    store.set((n) => n + 1);
    stop();
    store.set(5);
    deepEqual(seen, [1, 2]);
  });

  it("events fold into messages, streamed text and the pending call", () => {
    let state: HostState = {
      sessionId: "s",
      connection: "open",
      running: false,
      messages: [],
      streamingText: "",
      pending: null,
      error: null,
    };
    state = applyEvent(state, ["user", { id: "m1", content: "select issue 42" }]);
    state = applyEvent(state, ["assistant:status", { type: "agent_status", status: "started" }]);
    state = applyEvent(state, ["assistant:text_delta", { type: "text_delta", content: "Sel" }]);
    state = applyEvent(state, ["assistant:text_delta", { type: "text_delta", content: "ecting" }]);
    equal(state.streamingText, "Selecting");
    const pending = {
      tool_name: "select_issue",
      call_id: "c1",
      arguments: { number: 42 },
      queued: [],
    };
    state = applyEvent(state, ["assistant:tool_call", {
      type: "tool_call",
      tool_name: "select_issue",
      arguments: { number: 42 },
      call_id: "c1",
      category: "host",
    }]);
    state = applyEvent(state, ["assistant:final_response", {
      type: "final_response",
      content: null,
      model: "offline",
      streamed: true,
      session_id: "s",
      message_id: "a1",
      pending_tool_call: pending,
    }]);
    state = applyEvent(state, ["assistant:status", { type: "agent_status", status: "completed" }]);
    deepEqual(state.pending, pending);
    equal(state.messages.length, 2);
    equal(state.messages[1].toolCalls[0].status, "pending");
    state = applyEvent(state, ["action:end", {
      call: pending,
      outcome: "success",
      result: { ok: true },
    }]);
    equal(state.pending, null);
    equal(state.messages[1].toolCalls[0].status, "completed");
    equal(state.running, false);
  });
});

describe("WebMCP bridge", () => {
  // The bridge is a chunk of its own, fetched when the first action is registered.
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    ok(check(), "offered to the model context");
  };
  afterEach(() => void delete (document as unknown as { modelContext?: unknown }).modelContext);

  it("offers registered actions to document.modelContext and withdraws them on dispose", async () => {
    const tools = new Map<string, { execute(args: unknown): Promise<unknown> }>();
    let signal: AbortSignal | undefined;
    (document as unknown as { modelContext: unknown }).modelContext = {
      registerTool(
        tool: { name: string; execute(args: unknown): Promise<unknown> },
        options: { signal: AbortSignal },
      ) {
        tools.set(tool.name, tool);
        signal = options.signal;
      },
    };
    const host = createHost({
      runtimeUrl: location.origin,
      sessionId: "webmcp",
      autoConnect: false,
    });
    const dispose = host.action(
      "select_issue",
      selectIssue,
      ({ number }) => ({ selected: number }),
    );
    await until(() => tools.has("select_issue"));
    deepEqual(await tools.get("select_issue")!.execute({ number: 7 }), {
      content: [{ type: "text", text: '{"selected":7}' }],
      isError: false,
    });
    dispose();
    ok(signal?.aborted, "disposing the action withdraws the tool");
    host.close();
  });

  it("on the older navigator.modelContext, withdraws with unregisterTool; the current shape wins where both exist", async () => {
    const older = new Set<string>();
    const current = new Set<string>();
    Object.defineProperty(navigator, "modelContext", {
      configurable: true,
      value: {
        registerTool: (tool: { name: string }) => void older.add(tool.name),
        unregisterTool: (name: string) => void older.delete(name),
      },
    });
    try {
      const host = createHost({
        runtimeUrl: location.origin,
        sessionId: "older",
        autoConnect: false,
      });
      const dispose = host.action("select_issue", selectIssue, () => null);
      await until(() => older.has("select_issue"));
      dispose();
      equal(older.size, 0, "withdrawn by name");
      (document as unknown as { modelContext: unknown }).modelContext = {
        registerTool: (tool: { name: string }) => void current.add(tool.name),
      };
      host.action("select_issue", selectIssue, () => null);
      await until(() => current.has("select_issue"));
      equal(older.size, 0, "not registered twice");
      host.close();
    } finally {
      delete (navigator as unknown as { modelContext?: unknown }).modelContext;
    }
  });

  it("does nothing where the browser has no model context", () => {
    const host = createHost({
      runtimeUrl: location.origin,
      sessionId: "no-webmcp",
      autoConnect: false,
    });
    host.action("select_issue", selectIssue, () => null)();
    host.close();
  });
});

describe("registration", () => {
  it("a registration over a contract limit throws where it is made", () => {
    const host = createHost({
      runtimeUrl: location.origin,
      sessionId: "limits",
      autoConnect: false,
    });
    for (let i = 0; i < 32; i++) host.action(`a${i}`, { description: "d" }, () => null);
    const error = throws(() => host.action("a32", { description: "d" }, () => null));
    match(error.message, /actions has 33/);
    match(
      throws(() => host.view({ name: "big", data: { text: "x".repeat(40_000) } })).message,
      /32,000/,
    );
    match(
      throws(() => host.action("bad name", { description: "d" }, () => null)).message,
      /actions\.\d+\.name/,
    );
    throws(() => host.action("a0", { description: "again" }, () => null));
    host.close();
  });
});

describe("readEventStream", () => {
  it("parses events split across chunks, CRLF and comments included", async () => {
    const text =
      ': hello\r\nevent: assistant:status\r\nid: 1\r\ndata: {"status":"started"}\r\n\r\nevent: assistant:text_delta\nid: 2\ndata: {"content":"a\\nb"}\n\n';
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const events = [];
    for await (const event of readEventStream(stream)) events.push(event);
    deepEqual(events, [
      { event: "assistant:status", data: '{"status":"started"}', id: "1" },
      { event: "assistant:text_delta", data: '{"content":"a\\nb"}', id: "2" },
    ]);
  });
});

describe("SSE transport", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => void (globalThis.fetch = realFetch));

  it("resumes a stream cut mid-turn from Last-Event-ID, repeating and dropping nothing", async () => {
    const requests: { url: string; lastEventId: string | null }[] = [];
    const final = {
      type: "final_response",
      content: "Hello",
      model: "offline",
      streamed: true,
      session_id: "s-resume",
      message_id: "a1",
      seq: 4,
    };
    globalThis.fetch =
      ((input: RequestInfo | URL, init?: RequestInit) =>
        Promise.resolve(respond(input, init))) as typeof fetch;
    const respond = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push({ url, lastEventId: new Headers(init?.headers).get("last-event-id") });
      if (url.endsWith("/api/chat")) {
        return sseStream([
          ["assistant:status", { type: "agent_status", status: "started", seq: 1 }],
          ["assistant:text_delta", { type: "text_delta", content: "Hel", seq: 2 }],
        ], "cut");
      }
      if (url.endsWith("/events")) {
        return sseStream([
          ["assistant:text_delta", { type: "text_delta", content: "Hel", seq: 2 }],
          ["assistant:text_delta", { type: "text_delta", content: "lo", seq: 3 }],
          ["assistant:final_response", final],
          ["assistant:status", { type: "agent_status", status: "completed", seq: 5 }],
        ], "close");
      }
      return new Response('{"error":{"type":"not_found","message":"no"}}', { status: 404 });
    };
    const host = createHost({
      runtimeUrl: "http://runtime.test",
      sessionId: "s-resume",
      journal: memoryJournal(),
      autoConnect: false,
      transport: sseTransport({ retryDelay: 10 }),
    });
    const deltas: string[] = [];
    const connection: string[] = [];
    host.on("assistant:text_delta", (e) => deltas.push(e.content));
    host.state.subscribe((s) =>
      connection.at(-1) !== s.connection && connection.push(s.connection)
    );
    const answer = await host.send("hi");
    deepEqual(deltas, ["Hel", "lo"]);
    equal(answer?.content, "Hello");
    equal(requests.find((r) => r.url.endsWith("/events"))?.lastEventId, "2");
    deepEqual(connection, ["idle", "open", "reconnecting", "open"]);
    equal(host.state.get().messages.at(-1)?.content, "Hello");
    host.close();
  });
});
