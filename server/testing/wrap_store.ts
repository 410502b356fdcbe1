/**
 * A store that answers every call through another, but for the members a
 * test replaces: its name and capabilities, a slower publish, a counted list.
 * One that declares itself shared is never alone (`Store.alone()`), as the
 * other processes it stands for could write it.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";

/**
 * `inner` with `own` members in place of its own.
 *
 * @example
 * ```ts
 * const shared = wrapStore(memoryStore(), { name: "mine", capabilities: { shared: true, durable: true } });
 * ```
 */
export function wrapStore(
  inner: Store,
  own: Partial<Store> & Pick<Store, "name" | "capabilities">,
): Store {
  return {
    get: (key) => inner.get(key),
    getMany: (keys) => inner.getMany(keys),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key) => inner.delete(key),
    list: (prefix, options) => inner.list(prefix, options),
    atomic: (checks, mutations) => inner.atomic(checks, mutations),
    commit: (checks, mutations) => inner.commit(checks, mutations),
    publish: (channel, message) => inner.publish(channel, message),
    subscribe: (channel, listener) => inner.subscribe(channel, listener),
    alone: () => (own.capabilities.shared ? null : inner.alone()),
    close: () => inner.close(),
    ...own,
  };
}
