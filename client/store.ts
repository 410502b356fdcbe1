/**
 * A small subscribable store: the host keeps its conversation state in one,
 * and UI code (any framework, or none) subscribes to it.
 *
 * @module
 */

/**
 * A value that can be read, replaced and watched.
 *
 * @example
 * ```ts
 * const stop = host.state.subscribe((state) => render(state));
 * ```
 */
export interface Store<T> {
  /** The current value. */
  get(): T;
  /** Replaces the value (or derives it from the current one) and notifies subscribers. */
  set(next: T | ((current: T) => T)): void;
  /** Calls `fn` with the current value now and after every change; returns the unsubscribe function. */
  subscribe(fn: (value: T) => void): () => void;
}

/**
 * Creates a store.
 *
 * @example
 * ```ts
 * const count = createStore(0);
 * const stop = count.subscribe((n) => console.log(n)); // logs 0
 * count.set((n) => n + 1); // logs 1
 * stop();
 * ```
 */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const subscribers = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      const updated = typeof next === "function" ? (next as (current: T) => T)(value) : next;
      if (Object.is(updated, value)) return;
      value = updated;
      for (const fn of [...subscribers]) fn(value);
    },
    subscribe(fn) {
      subscribers.add(fn);
      fn(value);
      return () => void subscribers.delete(fn);
    },
  };
}
