// deno-lint-ignore-file no-explicit-any -- tests read wire payloads field by field
/**
 * The transport scenarios (`transport.case.ts`) over SSE, Socket.IO and
 * AG-UI, each through its real client. A new transport adds its driver and
 * one line to `DRIVERS`.
 */
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { client, completed, mid, readSse } from "./_test_kit.ts";
import {
  type Follower,
  runTransportScenarios,
  type SeenTurn,
  type TransportDriver,
} from "./transport.case.ts";

const SSE = { "content-type": "application/json", accept: "text/event-stream" };

/** What an SSE or Socket.IO client saw of a turn, from the runtime's own events. */
function turnOf(events: { event: string; payload: any }[]): SeenTurn {
  const final = events.find((e) => e.event === "assistant:final_response");
  return {
    text: final?.payload.content ?? "",
    finished: events.some(completed),
    errors: events.filter((e) => e.event === "assistant:error").map((e) => e.payload.message),
  };
}

const sse: TransportDriver = {
  name: "sse",
  async send(url, sessionId, content) {
    const res = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: SSE,
      body: JSON.stringify({ id: mid(), session_id: sessionId, content }),
    });
    const events = await readSse(
      res,
      (e) => e.event === "assistant:status" && e.data.status === "completed",
    );
    return turnOf(events.map((e) => ({ event: e.event, payload: e.data })));
  },
  async sendInvalid(url, sessionId) {
    const res = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: SSE,
      body: JSON.stringify({ id: mid(), session_id: sessionId, content: 42 }),
    });
    if (/event-stream/.test(res.headers.get("content-type") ?? "")) {
      return (await readSse(res)).filter((e) => e.event === "assistant:error").map((e) =>
        e.data.message
      );
    }
    const body = await res.json();
    return res.status >= 400 ? [body.error?.message ?? JSON.stringify(body)] : [];
  },
  async follow(url, sessionId): Promise<Follower> {
    const abort = new AbortController();
    const res = await fetch(`${url}/api/sessions/${sessionId}/events`, {
      headers: { accept: "text/event-stream" },
      signal: abort.signal,
    });
    const read = readSse(
      res,
      (e) => e.event === "assistant:status" && e.data.status === "completed",
    )
      .catch(() => []);
    return {
      nextTurn: async () => turnOf((await read).map((e) => ({ event: e.event, payload: e.data }))),
      close: () => abort.abort(),
    };
  },
};

const socketIo: TransportDriver = {
  name: "socket.io",
  async send(url, sessionId, content) {
    const c = await client(url);
    try {
      await c.ask("assistant_join_session", { session_id: sessionId });
      const answer = await c.ask("assistant_message", {
        id: mid(),
        session_id: sessionId,
        content,
      });
      await c.until(completed);
      const seen = turnOf(c.events);
      return answer.ok === false
        ? { ...seen, errors: [...seen.errors, answer.error?.message] }
        : seen;
    } finally {
      c.close();
    }
  },
  async sendInvalid(url, sessionId) {
    const c = await client(url);
    try {
      const answer = await c.ask("assistant_message", {
        id: mid(),
        session_id: sessionId,
        content: 42,
      });
      // Any further event would come right after the acknowledgement; give it the time to.
      await new Promise((r) => setTimeout(r, 200));
      const events = c.events.filter((e) => e.event === "assistant:error").map((e) => e.payload);
      // The refusal goes to this socket as one assistant:error, and the same payload answers the
      // acknowledgement the client asked for: one error, told on both of its channels.
      assert.equal(answer.ok, false);
      assert.deepEqual(events, [answer.error], "the event and the acknowledgement are one error");
      return events.map((e) => e.message);
    } finally {
      c.close();
    }
  },
  async follow(url, sessionId) {
    const c = await client(url);
    const joined = await c.ask("assistant_join_session", { session_id: sessionId });
    if (!joined.ok) throw new Error(`joining failed: ${JSON.stringify(joined)}`);
    return {
      nextTurn: async () => {
        await c.until(completed);
        return turnOf(c.events);
      },
      close: () => c.close(),
    };
  },
};

const agui: TransportDriver = {
  name: "ag-ui",
  async send(url, sessionId, content) {
    const agent = new HttpAgent({ url: `${url}/api/agui`, threadId: sessionId });
    agent.addMessage({ id: mid(), role: "user", content });
    let text = "";
    let finished = false;
    const errors: string[] = [];
    await agent.runAgent({ runId: mid() }, {
      onEvent: ({ event }) => {
        const e = event as any;
        if (e.type === "TEXT_MESSAGE_CONTENT") text += e.delta;
        if (e.type === "RUN_FINISHED") finished = true;
        if (e.type === "RUN_ERROR") errors.push(e.message);
      },
    });
    return { text, finished, errors };
  },
  async sendInvalid(url, sessionId) {
    // @ag-ui/client checks messages before sending; this is what a client that does not sends.
    const res = await fetch(`${url}/api/agui`, {
      method: "POST",
      headers: SSE,
      body: JSON.stringify({
        threadId: sessionId,
        runId: mid(),
        state: {},
        messages: [{ id: mid(), role: "user", content: 42 }],
        tools: [],
        context: [],
        forwardedProps: {},
      }),
    });
    if (/event-stream/.test(res.headers.get("content-type") ?? "")) {
      const text = await res.text();
      return [...text.matchAll(/"type":"RUN_ERROR".*?"message":"([^"]*)"/g)].map((m) => m[1]);
    }
    const body = await res.json();
    return res.status >= 400 ? [body.error?.message ?? JSON.stringify(body)] : [];
  },
};

const DRIVERS = [sse, socketIo, agui];
for (const driver of DRIVERS) runTransportScenarios(driver);
