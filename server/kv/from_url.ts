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
 * The `STORE__URL` that means Deno's own default KV (`Deno.openKv()` with no
 * path): the platform's database on Deno Deploy, a per-script file locally.
 *
 * @example
 * ```ts
 * import { PLATFORM_KV, storeFromUrl } from "./from_url.ts";
 * const store = await storeFromUrl(PLATFORM_KV); // on Deno only
 * ```
 */
export const PLATFORM_KV = "denokv://default";

/**
 * Opens the store `url` names: `memory:`, `redis://` / `rediss://`,
 * `postgres://` / `postgresql://`, `denokv:<path>`, `denokv://default`
 * (Deno's own KV), `file:` URLs and plain file paths (Deno KV); empty means
 * Deno KV at `.tether/store.db`.
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
      const { redisStore } = await needs("redis", scheme, () => import("./redis.ts"));
      return await redisStore(value);
    }
    case "postgres":
    case "postgresql": {
      const { postgresStore } = await needs("postgres", scheme, () => import("./postgres.ts"));
      return await postgresStore(value);
    }
    case "denokv": {
      if (value.toLowerCase() === PLATFORM_KV) {
        const { denoKvStore } = await import("./denokv.ts");
        return await denoKvStore(null);
      }
      return await denoKv(value.slice("denokv:".length));
    }
    case "file":
      return await denoKv(fileURLToPath(value));
  }
  throw new Error(
    `STORE__URL "${redact(value)}" has an unknown scheme "${scheme}:"; ` +
      "use memory:, redis://, rediss://, postgres://, postgresql://, denokv:<path>, " +
      "denokv://default or a file path.",
  );
}

async function denoKv(path: string): Promise<Store> {
  const { denoKvStore } = await import("./denokv.ts");
  // On Node, Deno KV comes from @deno/kv, imported when the store opens.
  return await needs("@deno/kv", "denokv", () => denoKvStore(path || undefined));
}

/**
 * Runs `load`; when it fails because the optional package `name` is not
 * installed, says which package to install for this STORE__URL scheme.
 */
async function needs<T>(name: string, scheme: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const message = String((error as Error)?.message ?? "");
    const missing = /cannot find (module|package)|could not find|not found/i.test(message) &&
      (message.includes(`'${name}'`) || message.includes(`"${name}"`));
    if (!missing) throw error;
    throw new Error(
      `STORE__URL ${scheme}: needs the package ${name}, which is not installed; ` +
        `run \`npm install ${name}\` next to the runtime (it is an optional peer of @tether/runtime).`,
      { cause: error },
    );
  }
}

// Hides the password of a URL so an error message can show the rest.
function redact(url: string): string {
  return url.replace(/(\/\/[^/:@]*:)[^/@]*@/, "$1***@");
}
