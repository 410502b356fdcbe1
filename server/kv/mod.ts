/**
 * Tether's stores: one interface (`Store`), four adapters and the helpers
 * built on it. Pick an adapter with `storeFromUrl(STORE__URL)`:
 *
 * | `STORE__URL` | adapter | notes |
 * |---|---|---|
 * | `memory:` | `memoryStore()` | this process only; lost on restart |
 * | empty, `denokv:<path>`, a file path, `denokv://default` | `denoKvStore()` | several processes or isolates per file; default `.tether/store.db` |
 * | `redis://`, `rediss://` | `redisStore()` | several processes; Lua scripts decide commits |
 * | `postgres://`, `postgresql://` | `postgresStore()` | several processes; creates its table on start |
 *
 * Every adapter passes the contract in `store.case.ts` and declares its
 * `capabilities`; `registerStoreScheme()` adds a scheme of one's own.
 *
 * @example
 * ```ts
 * import { acquireLease, storeFromUrl } from "./mod.ts";
 * const store = await storeFromUrl("memory:");
 * const lease = await acquireLease(store, ["lease", "s1"], "process-a", 30_000);
 * await store.close();
 * ```
 *
 * @module
 */

export type {
  Check,
  Entry,
  Key,
  Listener,
  ListOptions,
  Mutation,
  SetOptions,
  Store,
  StoreCapabilities,
} from "./store.ts";
export { memoryStore } from "./memory.ts";
export { DEFAULT_DENOKV_PATH, denoKvStore } from "./denokv.ts";
export { redisStore, type RedisStoreOptions } from "./redis.ts";
export { postgresStore, type PostgresStoreOptions } from "./postgres.ts";
export { registerStoreScheme, storeFromUrl, type StoreOpener } from "./from_url.ts";
export {
  acquireLease,
  type Lease,
  type LeaseClosing,
  type LeaseRecord,
  releaseLease,
  renewLease,
} from "./lease.ts";
