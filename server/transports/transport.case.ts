/**
 * The scenarios every transport passes, each driven through its own real
 * client (fetch reading SSE, `socket.io-client`, `@ag-ui/client`'s
 * `HttpAgent`) against a runtime on loopback: a message is dispatched and
 * its turn streamed to the sender; a follower of the session receives a turn
 * another client started; a refused message is answered with exactly one
 * error and starts nothing. A transport's test file calls
 * `runTransportScenarios()` with its driver (`transports.test.ts` does for
 * all three).
 *
 * @module
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { scriptedModel } from "../testing/scripted_model.ts";
import { runtime, type TestRuntime } from "./_test_kit.ts";

/** What a client saw of one turn, in the transport's own terms, reduced to what every transport shows. */
export interface SeenTurn {
  /** The assistant's answer as the client assembled it (final text, or its deltas joined). */
  text: string;
  /** Whether the client was told the turn ended. */
  finished: boolean;
  /** Every error the client was told of, as its message. */
  errors: string[];
}

/** A client following a session through a transport. */
export interface Follower {
  /** Resolves with the next turn the follower saw end. */
  nextTurn(): Promise<SeenTurn>;
  close(): void;
}

/**
 * How the scenarios drive one transport.
 *
 * @example
 * ```ts
 * const driver: TransportDriver = { name: "sse", send, sendInvalid, follow };
 * ```
 */
export interface TransportDriver {
  readonly name: string;
  /** Sends `content` as a new message of `sessionId`; resolves with what the sender saw of its turn. */
  send(url: string, sessionId: string, content: string): Promise<SeenTurn>;
  /** Sends a message whose `content` is not a string; resolves with every error the client was told of. */
  sendInvalid(url: string, sessionId: string): Promise<string[]>;
  /**
   * Follows a session's turns, whoever starts them; resolves once it listens. Absent for a
   * transport without following (AG-UI's standard bindings resume nothing).
   */
  follow?(url: string, sessionId: string): Promise<Follower>;
}

const ANSWER = "Answered over the wire.";

async function withRuntime(body: (rt: TestRuntime) => Promise<void>): Promise<void> {
  const rt = await runtime({ model: scriptedModel(() => ({ text: ANSWER })) });
  try {
    await body(rt);
  } finally {
    await rt.close();
  }
}

const json = async (url: string, body?: unknown) => {
  const res = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

/**
 * Registers the scenarios for one transport.
 *
 * @example
 * ```ts
 * runTransportScenarios(sseDriver);
 * ```
 */
export function runTransportScenarios(driver: TransportDriver): void {
  describe(`transport scenarios over ${driver.name}`, () => {
    test("a message is dispatched and its turn streamed to the sender, then stored", () =>
      withRuntime(async (rt) => {
        const sid = `${driver.name}-send-${crypto.randomUUID().slice(0, 6)}`;
        const seen = await driver.send(rt.url, sid, "hello");
        assert.deepEqual(seen, { text: ANSWER, finished: true, errors: [] });
        const stored = await json(`${rt.url}/api/sessions/${sid}/messages`);
        assert.deepEqual(
          stored.body.messages.map((m: { role: string; content: string }) => [m.role, m.content]),
          [["user", "hello"], ["assistant", ANSWER]],
        );
      }));

    const follow = driver.follow?.bind(driver);
    if (follow) {
      test("a follower of the session receives a turn another client started", () =>
        withRuntime(async (rt) => {
          const sid = `${driver.name}-follow-${crypto.randomUUID().slice(0, 6)}`;
          const first = await json(`${rt.url}/api/chat`, { session_id: sid, content: "one" });
          assert.equal(first.status, 200);
          const follower = await follow(rt.url, sid);
          try {
            const other = await json(`${rt.url}/api/chat`, { session_id: sid, content: "two" });
            assert.equal(other.status, 200, JSON.stringify(other.body));
            assert.deepEqual(await follower.nextTurn(), {
              text: ANSWER,
              finished: true,
              errors: [],
            });
          } finally {
            follower.close();
          }
        }));
    } else {
      // Said, not skipped: a transport without following has no such scenario to fail.
      console.log(`transport scenarios over ${driver.name}: no following (the transport has none)`);
    }

    test("a refused message is answered with one error naming the field, and starts nothing", () =>
      withRuntime(async (rt) => {
        const sid = `${driver.name}-bad-${crypto.randomUUID().slice(0, 6)}`;
        const errors = await driver.sendInvalid(rt.url, sid);
        assert.equal(
          errors.length,
          1,
          `one error, not ${errors.length}: ${JSON.stringify(errors)}`,
        );
        assert.match(errors[0], /content/);
        assert.equal(
          (await json(`${rt.url}/api/sessions/${sid}`)).status,
          404,
          "no session was made",
        );
      }));
  });
}
