/**
 * `storeFromUrl()`: picks and opens the adapter a `STORE__URL` value names,
 * from a table of schemes. Adapters load on demand, so a deployment on memory
 * or Deno KV never loads the Redis or Postgres clients. A store of one's own
 * joins the table with `registerStoreScheme()`.
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
 * Opens the store a `STORE__URL` names; `url` is the whole value, scheme included.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * const open: StoreOpener = () => Promise.resolve(memoryStore());
 * ```
 */
export type StoreOpener = (url: string) => Promise<Store>;

const denoKv = async (path: string): Promise<Store> => {
  const { denoKvStore } = await import("./denokv.ts");
  // On Node 20, Deno KV comes from @deno/kv, imported when the store opens (later lines use node:sqlite).
  return await needs("@deno/kv", "denokv", () => denoKvStore(path || undefined));
};

const redis: StoreOpener = async (url) => {
  const { redisStore } = await needs("redis", "redis", () => import("./redis.ts"));
  return await redisStore(url);
};

const postgres: StoreOpener = async (url) => {
  const { postgresStore } = await needs("postgres", "postgres", () => import("./postgres.ts"));
  return await postgresStore(url);
};

/** The built-in schemes. A new adapter is its file plus one line here. */
const BUILT_IN = {
  memory: async () => (await import("./memory.ts")).memoryStore(),
  redis,
  rediss: redis,
  postgres,
  postgresql: postgres,
  denokv: async (url) => {
    if (url.toLowerCase() === PLATFORM_KV) {
      return await (await import("./denokv.ts")).denoKvStore(null);
    }
    return await denoKv(url.slice("denokv:".length));
  },
  file: (url) => denoKv(fileURLToPath(url)),
} satisfies Record<string, StoreOpener>;

const schemes = new Map<string, StoreOpener>(Object.entries(BUILT_IN));

/**
 * Adds a scheme to the table `storeFromUrl()` reads, so `STORE__URL=<scheme>:…` opens a store
 * of one's own. The store declares its own capabilities (`shared`, `durable`); the scheme only
 * names it. Refuses a scheme already in the table.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * registerStoreScheme("scratch", () => Promise.resolve(memoryStore()));
 * const store = await storeFromUrl("scratch:");
 * ```
 */
export function registerStoreScheme(scheme: string, open: StoreOpener): void {
  const name = scheme.replace(/:$/, "").toLowerCase();
  if (!/^[a-z][a-z0-9+.-]+$/.test(name)) {
    throw new TypeError(
      `Store scheme "${scheme}" is not a URL scheme; use letters, digits, "+", "-" or ".", ` +
        "starting with a letter and at least two characters long.",
    );
  }
  if (schemes.has(name)) {
    throw new Error(`Store scheme "${name}:" is already registered; pick another name.`);
  }
  schemes.set(name, open);
}

/**
 * Opens the store `url` names: `memory:`, `redis://` / `rediss://`,
 * `postgres://` / `postgresql://`, `denokv:<path>`, `denokv://default`
 * (Deno's own KV), `file:` URLs and plain file paths (Deno KV), and every
 * scheme added with `registerStoreScheme()`; empty means Deno KV at
 * `.tether/store.db`.
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
  if (scheme === undefined || /^[a-z]:[\\/]/i.test(value)) return await denoKv(value);
  const open = schemes.get(scheme);
  if (open) return await open(value);
  throw new Error(
    `STORE__URL "${redact(value)}" has an unknown scheme "${scheme}:"; use ` +
      [...schemes.keys()].map((s) => `${s}:`).join(", ") + " or a file path.",
  );
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
