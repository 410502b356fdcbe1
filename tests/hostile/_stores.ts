/**
 * The stores the hostile-input suites run on: memory, a Deno KV file, and
 * Redis and Postgres when `REDIS_URL` / `DATABASE_URL` are set (each in a
 * namespace of its own, dropped afterwards).
 *
 * @module
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireService } from "../../server/kv/store.case.ts";
import type { Store } from "../../server/kv/store.ts";
import { dropNamespace, freshNamespace, openStore } from "../multiprocess/_stores.ts";

/** A store a suite opens for one runtime and releases afterwards. */
export interface StoreUnderTest {
  name: string;
  open(): Promise<{ store: Store; release(): Promise<void> }>;
}

/**
 * Every store of this machine; a shared store that is not configured is reported as skipped.
 *
 * @example
 * ```ts
 * for (const s of storesUnderTest("room race")) test(s.name, async () => { ... });
 * ```
 */
export function storesUnderTest(suite: string): StoreUnderTest[] {
  const stores: StoreUnderTest[] = [
    {
      name: "memory",
      open: async () => {
        const store = await openStore("memory:");
        return { store, release: () => store.close() };
      },
    },
    {
      name: "Deno KV file",
      open: async () => {
        const dir = mkdtempSync(join(tmpdir(), "tether-hostile-"));
        const store = await openStore(join(dir, "store.db"));
        return {
          store,
          release: async () => {
            await store.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  for (const [variable, name] of [["REDIS_URL", "Redis"], ["DATABASE_URL", "Postgres"]]) {
    const url = requireService(variable, `${suite} on ${name}`);
    if (!url) continue;
    stores.push({
      name,
      open: async () => {
        const namespace = freshNamespace();
        const store = await openStore(url, namespace);
        return {
          store,
          release: async () => {
            await store.close();
            await dropNamespace(url, namespace);
          },
        };
      },
    });
  }
  return stores;
}
