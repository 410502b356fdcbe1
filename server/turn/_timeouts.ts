/**
 * Time limits on a model's stream: the first part must come within
 * `firstByteMs` of the request, each later one within `idleMs` of the one
 * before. A provider that accepts a request and then sends nothing ends the
 * turn with `error_type: "timeout"` instead of holding it open.
 *
 * @module
 */
import { TurnError } from "./errors.ts";

/**
 * The iterator's parts, each awaited under its limit; on expiry `onExpire` runs (abort the
 * request) and a `timeout` TurnError is thrown.
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
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let started = false;
  try {
    for (;;) {
      const ms = started ? limits.idleMs : limits.firstByteMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<"expired">((resolve) => {
        if (ms > 0) timer = setTimeout(() => resolve("expired"), ms);
      });
      const next = await Promise.race([iterator.next(), expired]);
      clearTimeout(timer);
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
      if (next.done) return;
      if (!started && limits.first(next.value)) started = true;
      yield next.value;
    }
  } finally {
    void iterator.return?.()?.catch?.(() => {});
  }
}
