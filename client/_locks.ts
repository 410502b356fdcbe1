/**
 * Web Locks around a call's handling: a lock is released when its page
 * dies, so "started in the journal, lock free" means the page that ran the
 * handler is gone, while "lock held" means a live tab is on it now.
 *
 * @module
 */

type Locks = { request<T>(name: string, options: { ifAvailable: boolean }, fn: (lock: unknown) => Promise<T>): Promise<T> };

const locks = (): Locks | undefined => (globalThis.navigator as unknown as { locks?: Locks })?.locks;

/** Runs `fn(true)` holding the lock, or `fn(false)` at once when a live page holds it (without Web Locks: always `true`). */
export function withLock<T>(name: string, fn: (acquired: boolean) => Promise<T>): Promise<T> {
  const api = locks();
  return api ? api.request(name, { ifAvailable: true }, (lock) => fn(lock !== null)) : fn(true);
}
