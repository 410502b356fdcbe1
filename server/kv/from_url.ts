/**
 * `storeFromUrl()`: picks and opens the adapter a `STORE__URL` value names.
 * Adapters load on demand, so a deployment on memory or Deno KV never loads
 * the Redis or Postgres clients.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { Store } from "./store.ts";

/**
 * Opens the store `url` names: `memory:`, `redis://` / `rediss://`,
 * `postgres://` / `postgresql://`, `denokv:<path>`, `file:` URLs and plain
 * file paths (Deno KV); empty means Deno KV at `.tether/store.db`.
 *
 * @example
 * ```ts
 * import { storeFromUrl } from "./from_url.ts";
 * const store = await storeFromUrl("memory:");
 * console.log(store.name); // "memory"
 * await store.close();
 * ```
 */
export async function storeFromUrl(url: string | undefined): Promise<Store> {
  const value = (url ?? "").trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  // "C:\data\kv.db" is a Windows path, not a scheme.
  if (scheme === undefined || /^[a-z]:[\\/]/i.test(value)) {
    return await denoKv(value);
  }
  switch (scheme) {
    case "memory": {
      const { memoryStore } = await import("./memory.ts");
      return memoryStore();
    }
    case "redis":
    case "rediss": {
      const { redisStore } = await import("./redis.ts");
      return await redisStore(value);
    }
    case "postgres":
    case "postgresql": {
      const { postgresStore } = await import("./postgres.ts");
      return await postgresStore(value);
    }
    case "denokv":
      return await denoKv(value.slice("denokv:".length));
    case "file":
      return await denoKv(fileURLToPath(value));
  }
  throw new Error(
    `STORE__URL "${redact(value)}" has an unknown scheme "${scheme}:"; ` +
      "use memory:, redis://, rediss://, postgres://, postgresql://, denokv:<path> or a file path.",
  );
}

async function denoKv(path: string): Promise<Store> {
  const { denoKvStore } = await import("./denokv.ts");
  return await denoKvStore(path || undefined);
}

// Hides the password of a URL so an error message can show the rest.
function redact(url: string): string {
  return url.replace(/(\/\/[^/:@]*:)[^/@]*@/, "$1***@");
}
