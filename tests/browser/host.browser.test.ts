// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime and the page
/**
 * The host object against a real runtime (offline model): capture of a page,
 * an action round trip over each transport, queued calls, failures, and a
 * result re-sent (never re-run) by the next host on the same journal.
 */
import {
  type Host,
  indexedDbJournal,
  socketIoTransport,
  sseTransport,
  TetherError,
  type TetherEventMap,
  type TransportFactory,
} from "../../client/mod.ts";
import { deepEqual, equal, match, ok, rejects } from "./_assert.ts";
import { hostOpener, selectIssue } from "./_hosts.ts";
import {
  freshSession,
  hasSocketIo,
  runtimeUrls,
  sessionInfo,
  sessionMessages,
  waitFor,
} from "./_runtime.ts";

const { open, closeAll } = hostOpener(() => ({ sessionId: freshSession("host") }));
afterEach(closeAll);

/** Records the events of a host, by name. */
const record = (host: Host, names: (keyof TetherEventMap)[]) => {
  const events: [string, any][] = [];
  for (const name of names) host.on(name, (payload) => events.push([name, payload]));
  return events;
};

describe("capture", () => {
  it("builds a fresh, validated host_context with the page's data and state before each message", async () => {
    const { proxied } = await runtimeUrls();
    const host = open({
      runtimeUrl: proxied,
      host: { name: "tracker", kind: "browser", version: "1.0" },
    });
    let label = "bug";
    let reads = 0;
    host.view(() => {
      reads++;
      return {
        name: "tasks",
        description: "The issue list, filtered.",
        data: { issues: [{ number: 42, title: "Fix login" }] },
        state: { filters: { label } },
      };
    });
    host.navigation([{ name: "agents", description: "Running agents" }]);
    host.background("agents", { state: "idle", summary: { count: 3 } });
    host.extensions({ tenant: "acme" });
    host.attach({ kind: "text", text: "Release notes: login fixed." });

    const first = await host.context();
    equal(first.version, 1);
    deepEqual(first.host, { name: "tracker", kind: "browser", version: "1.0" });
    deepEqual(first.view?.state, { filters: { label: "bug" } });
    deepEqual(first.navigation, [{ name: "agents", description: "Running agents" }]);
    deepEqual(first.background, { agents: { state: "idle", summary: { count: 3 } } });
    deepEqual(first.extensions, { tenant: "acme" });
    equal(first.attachments?.[0].purpose, "reference");
    ok(Math.abs(Date.parse(first.captured_at!) - Date.now()) < 5_000, "captured_at is now");

    label = "feature";
    const second = await host.context();
    deepEqual(second.view?.state, { filters: { label: "feature" } }, "the view is read again");

    const final = await host.send("What is on screen?");
    ok(final && final.content, "the model answered");
    match(final!.content, /tasks|Fix login|42/, "the offline model summarises the captured view");
    ok(reads >= 3, "the message read the view once more");
  });

  it("refuses a context the protocol schema rejects before anything is sent", async () => {
    const { proxied } = await runtimeUrls();
    const host = open({ runtimeUrl: proxied });
    host.view({ name: "tasks", colour: "red" } as never);
    const error = await rejects(() => host.send("hello"));
    ok(error instanceof TetherError);
    equal((error as TetherError).type, "validation");
    match(error.message, /view\.colour/);
    equal(await sessionInfo(proxied, host.sessionId), null, "nothing reached the runtime");
  });
});

const transports: [string, () => TransportFactory][] = [
  ["SSE", () => sseTransport()],
  ["plain HTTP", () => sseTransport({ stream: false })],
  ["Socket.IO", () => socketIoTransport()],
];

for (const [label, transport] of transports) {
  describe(`an action round trip over ${label}`, function () {
    before(async function () {
      if (label === "Socket.IO" && !(await hasSocketIo((await runtimeUrls()).proxied))) {
        console.warn("SKIPPED: Socket.IO round trip: the runtime does not serve /socket.io");
        this.skip();
      }
    });

    it("runs the handler once with the model's arguments and the model answers with its result", async () => {
      const { proxied } = await runtimeUrls();
      const host = open({ runtimeUrl: proxied, transport: transport() });
      host.view({ name: "tasks", data: { issues: [{ number: 42, title: "Fix login" }] } });
      const calls: unknown[] = [];
      host.action("select_issue", selectIssue, (args) => {
        calls.push(args);
        return { selected: (args as { number: number }).number };
      });
      const events = record(host, ["action:start", "action:end", "assistant:final_response"]);
      await host.connect();
      const final = await host.send("select issue 42");
      deepEqual(calls, [{ number: 42 }]);
      match(final?.content, /select issue/);
      match(final?.content, /42/);
      deepEqual(events.map(([name]) => name), [
        "assistant:final_response",
        "action:start",
        "action:end",
        "assistant:final_response",
      ]);
      const state = host.state.get();
      equal(state.pending, null);
      equal(state.running, false);
      equal(state.messages.at(-1)?.toolCalls[0].status, "completed");
      const [, assistant] = await sessionMessages(proxied, host.sessionId);
      deepEqual(assistant.tool_calls.map((c: any) => [c.tool_name, c.status, c.result]), [[
        "select_issue",
        "completed",
        { selected: 42 },
      ]]);
    });

    it("a steering message on an idle session settles (promoted to its own turn) without waiting out a timeout", async () => {
      const { proxied } = await runtimeUrls();
      const host = open({ runtimeUrl: proxied, transport: transport() });
      host.view({ name: "tasks" });
      await host.connect();
      const started = performance.now();
      if (label === "plain HTTP") {
        // Steering needs a streaming transport; plain HTTP is refused with a clear message.
        const error = await rejects(() =>
          host.send("a change of plan", { messageType: "steering" })
        );
        match(error.message, /streaming/);
        return;
      }
      await host.send("a change of plan", { messageType: "steering" });
      ok(performance.now() - started < 5_000, "settled promptly");
      const [user] = await sessionMessages(proxied, host.sessionId);
      equal(user.message_type, "steering");
    });

    it("runs three calls from one response one at a time, in order, and the model resumes once", async () => {
      const { proxied } = await runtimeUrls();
      const host = open({ runtimeUrl: proxied, transport: transport() });
      host.view({ name: "lab" });
      const log: string[] = [];
      for (const name of ["first_step", "second_step", "third_step"]) {
        host.action(name, { description: `Do the ${name.replace("_", " ")}.` }, async () => {
          log.push(`${name} start`);
          await new Promise((resolve) => setTimeout(resolve, 30));
          log.push(`${name} end`);
          return { done: name };
        });
      }
      const events = record(host, ["assistant:final_response"]);
      await host.connect();
      const final = await host.send("first step, second step and third step");
      const finals = events.map(([, e]) => e);
      deepEqual(log, [
        "first_step start",
        "first_step end",
        "second_step start",
        "second_step end",
        "third_step start",
        "third_step end",
      ]);
      const pending = finals.filter((e) => e.pending_tool_call).map((e) => e.pending_tool_call);
      deepEqual(
        pending.map((p) => p.tool_name),
        ["first_step", "second_step", "third_step"],
        "each call is handed over in turn",
      );
      deepEqual(
        pending[0].queued,
        pending.slice(1).map((p) => p.call_id),
        "the first hand-over names the queued calls",
      );
      equal(
        finals.filter((e) => !e.pending_tool_call).length,
        1,
        "the model answered once, after the last result",
      );
      ok(final?.content, "the final answer has text");
      const [, assistant] = await sessionMessages(proxied, host.sessionId);
      deepEqual(assistant.tool_calls.map((c: any) => [c.tool_name, c.status]), [
        ["first_step", "completed"],
        ["second_step", "completed"],
        ["third_step", "completed"],
      ]);
    });

    it("a thrown handler sends a failed outcome with its reason", async () => {
      const { proxied } = await runtimeUrls();
      const host = open({ runtimeUrl: proxied, transport: transport() });
      host.action("break_glass", { description: "Break the glass." }, () => {
        throw new Error("the glass is reinforced");
      });
      const ends = record(host, ["action:end"]);
      await host.connect();
      const final = await host.send("break glass");
      equal(ends[0][1].outcome, "failed");
      ok(final, "the turn ended with an answer");
      const [, assistant] = await sessionMessages(proxied, host.sessionId);
      equal(assistant.tool_calls[0].status, "failed");
      match(JSON.stringify(assistant.tool_calls[0].result), /the glass is reinforced/);
    });
  });
}

describe("cancel", () => {
  it("aborts a running handler's signal, and the exchange still ends", async () => {
    const { proxied } = await runtimeUrls();
    const host = open({ runtimeUrl: proxied });
    let started = false;
    let aborted = false;
    host.action(
      "slow_step",
      { description: "A slow step." },
      (_args, { signal }) =>
        new Promise((_, reject) => {
          started = true;
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    );
    const sent = host.send("slow step");
    // Running, not only announced: a call Stop meets before it starts never runs (next test).
    await waitFor(() => started, 10_000, "the handler to start");
    await host.cancel();
    await sent;
    ok(aborted, "the handler saw the abort");
    await waitFor(
      async () => !(await sessionInfo(proxied, host.sessionId))?.has_pending_tool_call,
      10_000,
      "nothing pending",
    );
  });

  it("a call announced but not started when Stop is pressed never runs, and is cancelled", async () => {
    const { proxied } = await runtimeUrls();
    // Holds back the turn's closing status (after which the page starts the call) until Stop.
    let release: (() => void) | undefined;
    const holding: TransportFactory = (link) =>
      sseTransport()({
        runtimeUrl: link.runtimeUrl,
        sessionId: link.sessionId,
        headers: link.headers,
        lastSeq: () => link.lastSeq(),
        state: (state) => link.state(state),
        event: (name, payload) => {
          if (!release && name === "assistant:status" && payload.status === "completed") {
            release = () => link.event(name, payload);
          } else link.event(name, payload);
        },
      });
    const host = open({ runtimeUrl: proxied, transport: holding });
    let ran = false;
    host.action("slow_step", { description: "A slow step." }, () => (ran = true));
    const sent = host.send("slow step");
    await waitFor(() => release, 10_000, "the turn to announce the call");
    const callId = host.state.get().pending?.call_id;
    ok(callId, "the call is pending on the page");
    await host.cancel();
    release!();
    await sent;
    equal(ran, false);
    const mine = host.state.get().messages.flatMap((m) => m.toolCalls)
      .find((c) => c.callId === callId);
    equal(mine?.status, "cancelled");
    await waitFor(
      async () => !(await sessionInfo(proxied, host.sessionId))?.has_pending_tool_call,
      10_000,
      "nothing pending",
    );
  });
});

describe("a new message while the last call's continuation is in flight", () => {
  it("the earlier turn's end does not end the new exchange: its call runs, nothing waits elsewhere", async () => {
    const { proxied } = await runtimeUrls();
    // Holds every event from the first continuation on, so the page meets the runtime's turns
    // in the order the runtime ran them, after it had sent the second message.
    let holding = false;
    let heldOnce = false;
    const held: [string, any][] = [];
    let deliver: ((name: string, payload: any) => void) | undefined;
    const delayed: TransportFactory = (link) => {
      deliver = (name, payload) => link.event(name, payload);
      const inner = sseTransport()({
        ...link,
        lastSeq: () => link.lastSeq(),
        state: (state) => link.state(state),
        event: (name, payload) => holding ? held.push([name, payload]) : link.event(name, payload),
      });
      return {
        connect: () => inner.connect(),
        send: (body) => {
          if (body.tool_call_id && !heldOnce) holding = heldOnce = true;
          return inner.send(body);
        },
        cancel: () => inner.cancel(),
        close: () => inner.close(),
        follow: inner.follow?.bind(inner),
      };
    };
    const host = open({ runtimeUrl: proxied, transport: delayed });
    const selected: number[] = [];
    host.action(
      "select_issue",
      selectIssue,
      ({ number }: { number: number }) => (selected.push(number), { selected: number }),
    );
    const first = host.send("select issue 7");
    await waitFor(() => holding, 10_000, "the first call's continuation to be sent");
    // The runtime finished the continuation's turn; the page has not heard it yet.
    await waitFor(
      () => held.some(([n, p]) => n === "assistant:status" && p.status === "completed"),
      10_000,
      "the continuation's turn to end",
    );
    const second = host.send("select issue 9");
    await waitFor(
      () =>
        held.filter(([n, p]) => n === "assistant:status" && p.status === "completed").length >= 2,
      10_000,
      "the second message's turn to end",
    );
    holding = false;
    for (const [name, payload] of held.splice(0)) deliver!(name, payload);
    await first;
    const final = await second;
    deepEqual(selected, [7, 9], "both calls ran, once each");
    ok(final && !final.pending_tool_call, "the second exchange ended with the model's answer");
    equal(host.state.get().elsewhere ?? false, false, "nothing is shown as running elsewhere");
    equal(host.state.get().pending, null);
    await waitFor(
      async () => !(await sessionInfo(proxied, host.sessionId))?.has_pending_tool_call,
      10_000,
      "nothing pending",
    );
  });
});

describe("exactly once", () => {
  it("a result that was recorded but not acknowledged is re-sent by the next host, never re-run", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("resend");
    const journal = indexedDbJournal({ name: `tether-${sessionId}` });
    // The first page's continuations never reach the runtime.
    const dropping: TransportFactory = (link) => {
      const inner = sseTransport()(link);
      return {
        connect: () => inner.connect(),
        send: (body) =>
          body.tool_call_id
            ? Promise.reject(new TetherError(0, "network", "dropped by the test"))
            : inner.send(body),
        cancel: () => inner.cancel(),
        close: () => inner.close(),
      };
    };
    let runs = 0;
    const register = (host: Host) =>
      host.action(
        "select_issue",
        selectIssue,
        ({ number }: { number: number }) => (runs++, { selected: number }),
      );

    const first = open({ runtimeUrl: proxied, sessionId, journal, transport: dropping });
    register(first);
    first.send("select issue 7").catch(() => {});
    const [entry] = await waitFor(
      async () => {
        const entries = await journal.list(sessionId);
        return entries[0]?.state === "finished" && entries;
      },
      10_000,
      "the result in the journal",
    );
    equal(runs, 1);
    first.close();

    const second = open({ runtimeUrl: proxied, sessionId, journal });
    register(second);
    await second.connect();
    await waitFor(
      async () => (await sessionInfo(proxied, sessionId))?.has_pending_tool_call === false,
      10_000,
      "the call answered",
    );
    equal(runs, 1, "the handler did not run again");
    const [, assistant] = await sessionMessages(proxied, sessionId);
    deepEqual(assistant.tool_calls.map((c: any) => [c.call_id, c.status, c.result]), [[
      entry.callId,
      "completed",
      { selected: 7 },
    ]]);
    await waitFor(
      async () => (await journal.list(sessionId))[0]?.state === "settled",
      5_000,
      "the journal entry settled",
    );
  });

  it("a 409 saying the result is recorded settles the journal entry", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("settle");
    const journal = indexedDbJournal({ name: `tether-${sessionId}` });
    const host = open({ runtimeUrl: proxied, sessionId, journal });
    host.action(
      "select_issue",
      selectIssue,
      ({ number }: { number: number }) => ({ selected: number }),
    );
    await host.send("select issue 3");
    const [, assistant] = await sessionMessages(proxied, sessionId);
    const callId = assistant.tool_calls[0].call_id;
    // As if the acknowledgement had been lost: the entry is back, finished.
    await journal.put({
      sessionId,
      callId,
      toolName: "select_issue",
      arguments: { number: 3 },
      state: "finished",
      outcome: "success",
      result: { selected: 3 },
      messageId: "r-again",
      startedAt: Date.now(),
    });
    const again = open({ runtimeUrl: proxied, sessionId, journal });
    await again.connect();
    await waitFor(
      async () => (await journal.get(sessionId, callId))?.state === "settled",
      5_000,
      "the entry settled by the 409",
    );
    const [, after] = await sessionMessages(proxied, sessionId);
    equal(after.tool_calls.length, 1, "nothing was applied twice");
  });
});

describe("across origins", () => {
  for (
    const [label, transport] of [["SSE", () => sseTransport()], [
      "Socket.IO",
      () => socketIoTransport(),
    ]] as const
  ) {
    it(`a page on another origin than the runtime's completes a round trip over ${label}`, async () => {
      const { url } = await runtimeUrls();
      ok(new URL(url).origin !== location.origin, "the runtime is on another origin");
      const host = open({ runtimeUrl: url, transport: transport() });
      host.action(
        "select_issue",
        selectIssue,
        ({ number }: { number: number }) => ({ selected: number }),
      );
      const final = await host.send("select issue 5");
      match(final?.content, /select issue/);
      const [, assistant] = await sessionMessages(url, host.sessionId);
      equal(assistant.tool_calls[0].status, "completed");
    });
  }
});
