/**
 * Helpers shared by the halves of the store contract (`store.case.ts`).
 *
 * @module
 */

import type { Key, Store } from "./store.ts";

/**
 * How the contract opens stores on one backend.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import type { StoreFixture } from "./store.case.ts";
 * const fixture: StoreFixture = { open: async () => memoryStore() };
 * ```
 */
export interface StoreFixture {
  /** Opens a store on the backend under test. */
  open(): Promise<Store>;
  /** Opens a second store (its own connection) on the backend `store` uses; defaults to `store` itself. */
  peer?(store: Store): Promise<Store>;
}

/**
 * Opens a store, runs `body` with it and a fresh key root, and closes the store.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { withStore } from "./store.case.ts";
 * await withStore({ open: async () => memoryStore() }, async (store, k) => {
 *   await store.set(k("a"), 1);
 * });
 * ```
 */
export async function withStore(
  fixture: StoreFixture,
  body: (store: Store, k: (...parts: string[]) => Key) => Promise<void>,
): Promise<void> {
  const store = await fixture.open();
  const root = `t${crypto.randomUUID()}`;
  try {
    await body(store, (...parts) => [root, ...parts]);
  } finally {
    await store.close();
  }
}

/**
 * Resolves after `ms` milliseconds.
 *
 * @example
 * ```ts
 * import { sleep } from "./store.case.ts";
 * await sleep(100);
 * ```
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
