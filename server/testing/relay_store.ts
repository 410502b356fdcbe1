/**
 * A test-only store added from outside `server/kv/`, the way a team adds a
 * store of its own: one file here plus one line (`registerRelayStore()`,
 * which calls `registerStoreScheme()`). `relay:<inner STORE__URL>` opens the
 * inner store and answers every call through it, under a name the runtime
 * has never heard of ("relay"), declaring its own capabilities: shared and
 * durable. Since nothing reads a store's name, the runtime gives it leases,
 * cross-process events and no per-process caches, and it passes the store
 * contract and the two-process suite (`server/kv/relay_store.test.ts`,
 * `tests/multiprocess/`).
 *
 * @module
 */
import { registerStoreScheme, storeFromUrl } from "../kv/from_url.ts";
import type { Store, StoreCapabilities } from "../kv/store.ts";
import { wrapStore } from "./wrap_store.ts";

/** The scheme the relay store answers to. */
export const RELAY_SCHEME = "relay";

/**
 * Wraps `inner` in a store named "relay" that declares itself shared and durable.
 *
 * @example
 * ```ts
 * const store = relayStore(await storeFromUrl("denokv:/tmp/shared.db"));
 * store.capabilities.shared; // true
 * ```
 */
export function relayStore(inner: Store): Store {
  const capabilities: StoreCapabilities = { shared: true, durable: true };
  return wrapStore(inner, { name: "relay", capabilities });
}

let registered = false;

/**
 * Adds `relay:` to the schemes `storeFromUrl()` knows (once per process).
 *
 * @example
 * ```ts
 * registerRelayStore();
 * const store = await storeFromUrl("relay:denokv:/tmp/shared.db");
 * ```
 */
export function registerRelayStore(): void {
  if (registered) return;
  registered = true;
  registerStoreScheme(
    RELAY_SCHEME,
    async (url) => relayStore(await storeFromUrl(url.slice(RELAY_SCHEME.length + 1))),
  );
}
