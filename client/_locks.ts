/**
 * Web Locks around a call's handling. A lock is released when its page dies,
 * so whoever gets it next knows that no live page is handling the call: an
 * entry still `started` then means the page that ran the handler is gone.
 * Another live tab on the same call makes us wait for it, not skip it.
 *
 * @module
 */

type Locks = { request<T>(name: string, fn: () => Promise<T>): Promise<T> };

/** Runs `fn` holding the named lock (at once where Web Locks do not exist). */
export function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as unknown as { locks?: Locks } | undefined)?.locks;
  return locks ? locks.request(name, fn) : fn();
}
