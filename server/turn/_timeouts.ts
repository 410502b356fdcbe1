/**
 * Time limits on a model's stream: the first part must come within
 * `firstByteMs` of the request, each later one within `idleMs` of the one
 * before. A provider that accepts a request and then sends nothing ends the
 * turn with `error_type: "timeout"` instead of holding it open.
 *
 * The turn's cancel is raced the same way: aborting the request is not
 * enough on its own, because the model library ends its stream on an abort
 * only when the provider's body read rejects, and a body that stalls after
 * its headers sometimes never does (seen under `deno serve --parallel`: a
 * cancelled turn ran on until the idle limit, a minute later).
 *
 * @module
 */
import { TurnError } from "./errors.ts";

const cancelled = () => Object.assign(new Error("The turn was cancelled."), { name: "AbortError" });

/**
 * The iterator's parts, each awaited under its limit; on expiry `onExpire` runs (abort the
 * request) and a `timeout` TurnError is thrown. Once `signal` aborts, the wait ends at once
 * with an `AbortError`, whatever the source does.
 *
 * @example
 * ```ts
 * for await (const part of timed(parts, { firstByteMs: 60_000, idleMs: 60_000 }, () => request.abort())) {}
 * ```
 */
export async function* timed<T>(
  source: AsyncIterable<T>,
  limits: { firstByteMs: number; idleMs: number; first: (part: T) => boolean },
  onExpire: () => void,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let started = false;
  let stop: (() => void) | undefined;
  // One timer for the whole stream: each part just moves the deadline (a timer set and cleared
  // for every part cost more than the rest of this loop). The timer is set again only when it
  // fires before the deadline, or when the deadline comes before it would fire (the idle limit
  // shorter than the first part's).
  let deadline = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fires = 0;
  let expire: (() => void) | undefined;
  const ended = new Promise<"aborted" | "expired">((resolve) => {
    if (signal?.aborted) return resolve("aborted");
    signal?.addEventListener("abort", stop = () => resolve("aborted"), { once: true });
    expire = () => resolve("expired");
  });
  const arm = (now: number) => {
    clearTimeout(timer);
    fires = deadline;
    timer = setTimeout(check, deadline - now);
  };
  const check = () => {
    timer = undefined;
    // Paused while the consumer has the last part (deadline 0): the next wait arms it again.
    if (deadline === 0) return;
    const now = Date.now();
    if (deadline > now) arm(now);
    else expire?.();
  };
  try {
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const ms = started ? limits.idleMs : limits.firstByteMs;
      if (ms > 0) {
        const now = Date.now();
        deadline = now + ms;
        if (timer === undefined || deadline < fires) arm(now);
      } else if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      const next = await Promise.race([iterator.next(), ended]);
      if (next === "aborted") throw cancelled();
      if (next === "expired") {
        onExpire();
        const seconds = Math.round(ms / 100) / 10;
        throw new TurnError(
          "timeout",
          started
            ? `The model provider went silent for ${seconds} s in the middle of its answer; retry (the limit is MODEL__IDLE_TIMEOUT_MS).`
            : `The model provider sent no answer for ${seconds} s after the request; retry (the limit is MODEL__FIRST_BYTE_TIMEOUT_MS).`,
        );
      }
      deadline = 0;
      if (next.done) return;
      if (!started && limits.first(next.value)) started = true;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    expire = undefined;
    if (stop) signal?.removeEventListener("abort", stop);
    void iterator.return?.()?.catch?.(() => {});
  }
}
