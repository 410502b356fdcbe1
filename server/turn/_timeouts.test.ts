import assert from "node:assert/strict";
import { test } from "node:test";
import { timed } from "./_timeouts.ts";

/** A stream that sends one part and then nothing, ever, and ignores every abort (as a stalled body can). */
function stalled(): AsyncIterable<string> & { returned: boolean } {
  const source = {
    returned: false,
    [Symbol.asyncIterator]() {
      let sent = false;
      return {
        next: () =>
          sent
            ? new Promise<IteratorResult<string>>(() => {})
            : (sent = true, Promise.resolve({ done: false, value: "first" })),
        return: () => {
          source.returned = true;
          return Promise.resolve({ done: true as const, value: undefined });
        },
      };
    },
  };
  return source;
}

const limits = { firstByteMs: 60_000, idleMs: 60_000, first: () => true };

test("a cancel ends the wait for a stalled stream at once and lets the source go", async () => {
  const source = stalled();
  const controller = new AbortController();
  const seen: string[] = [];
  const started = Date.now();
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(
    (async () => {
      for await (const part of timed(source, limits, () => {}, controller.signal)) seen.push(part);
    })(),
    (error: Error) => error.name === "AbortError",
  );
  assert.deepEqual(seen, ["first"]);
  assert.ok(Date.now() - started < 5_000, "ended by the cancel, not by a limit");
  assert.equal(source.returned, true, "the source was told to stop");
});

test("a signal aborted before the first part ends the stream before it yields", async () => {
  const controller = new AbortController();
  controller.abort();
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const part of timed(stalled(), limits, () => {}, controller.signal)) {
        seen.push(part);
      }
    })(),
    (error: Error) => error.name === "AbortError",
  );
  assert.deepEqual(seen, []);
});

test("without a cancel, the idle limit still ends a stalled stream with a timeout", async () => {
  let expired = 0;
  const started = Date.now();
  await assert.rejects(
    (async () => {
      for await (
        const _ of timed(
          stalled(),
          { ...limits, idleMs: 30 },
          () => expired++,
          new AbortController().signal,
        )
      ) { /* the first part only */ }
    })(),
    (error: Error & { type?: string }) => /silent/.test(error.message),
  );
  assert.equal(expired, 1);
  // The idle limit (30 ms), not the first part's (60 s) that was running when the part came.
  assert.ok(Date.now() - started < 5_000, `ended after ${Date.now() - started} ms`);
});

test("a part that comes early moves the deadline later without waiting it out", async () => {
  // Parts every 20 ms under a 150 ms idle limit, then silence: the stream times out about one
  // idle limit after the last part, not one first-part limit after the start.
  let sent = 0;
  const source: AsyncIterable<number> = {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        sent < 10
          ? new Promise((r) => setTimeout(() => r({ done: false, value: sent++ }), 20))
          : new Promise<IteratorResult<number>>(() => {}),
    }),
  };
  const got: number[] = [];
  const started = Date.now();
  await assert.rejects(
    (async () => {
      for await (
        const part of timed(
          source,
          { firstByteMs: 60_000, idleMs: 150, first: () => true },
          () => {},
        )
      ) got.push(part);
    })(),
    /silent/,
  );
  assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "no part was cut off by the idle limit");
  assert.ok(Date.now() - started < 5_000, `ended after ${Date.now() - started} ms`);
});

test("the time the consumer takes with a part is not the provider's silence", async () => {
  async function* two() {
    yield "a";
    yield "b";
  }
  const got: string[] = [];
  for await (const part of timed(two(), { ...limits, idleMs: 30 }, () => {})) {
    got.push(part);
    // Longer than the idle limit, between the provider's parts.
    await new Promise((r) => setTimeout(r, 80));
  }
  assert.deepEqual(got, ["a", "b"]);
});
