/**
 * Opening Deno KV on either runtime, its limits, and the value envelope with
 * chunking used by `denoKvStore()` (private to `server/kv/`).
 *
 * A value is stored at its own key as an envelope: `{ j, x? }` holds its JSON
 * text, `{ c, n, x? }` is a manifest naming `n` chunks of its UTF-8 bytes at
 * `[true, c, 0..n-1]` (a boolean first part, so no string key of ours can
 * reach them). `x` is the expiry in epoch milliseconds: Deno KV deletes
 * expired keys lazily, so reads check it themselves.
 *
 * @module
 */

import { mkdir } from "node:fs/promises";
import process from "node:process";
import { dirname } from "node:path";
import { leanKv } from "./_denokv_napi.ts";
import { retryingKv, retryLocked } from "./_denokv_retry.ts";
import { nodeSqlite, sqliteKv } from "./_denokv_sqlite.ts";
import { denoGlobal } from "../runtime/detect.ts";

/** A Deno KV key part we use: strings for keys, a boolean and numbers for chunks. */
export type KvPart = string | number | boolean;
/** A Deno KV key. */
export type KvKey = readonly KvPart[];
/** A Deno KV read result. */
export interface KvEntryMaybe {
  key: KvKey;
  value: unknown;
  versionstamp: string | null;
}
/** The part of `Deno.AtomicOperation` we use. */
export interface KvAtomic {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): KvAtomic;
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): KvAtomic;
  delete(key: KvKey): KvAtomic;
  commit(): Promise<{ ok: boolean; versionstamp?: string }>;
}
/** The part of `Deno.Kv` (and of `@deno/kv`) we use. */
export interface Kv {
  get(key: KvKey): Promise<KvEntryMaybe>;
  getMany(keys: KvKey[]): Promise<KvEntryMaybe[]>;
  list(
    selector: { prefix: KvKey; start?: KvKey; end?: KvKey },
    options?: { reverse?: boolean; batchSize?: number; limit?: number },
  ): AsyncIterable<KvEntryMaybe>;
  atomic(): KvAtomic;
  close(): void;
  /**
   * The handle does each call's work before the call returns, on the event loop's own thread
   * (`node:sqlite`), so a call's answer is ready at once; Deno's handle and the add-on's work
   * elsewhere and answer each call from a callback of its own.
   */
  readonly synchronous?: boolean;
}

/** What one atomic commit may hold. */
export interface KvLimits {
  /** Keys one commit may check. */
  checks: number;
  /** Keys one commit may write or delete. */
  mutations: number;
  /**
   * Bytes one commit may carry, as Deno KV counts them: every checked, written and deleted key,
   * and each written key again with its value.
   */
  bytes: number;
  /** Bytes the keys one commit writes (not those it checks or deletes) may take together. */
  keyBytes: number;
  /** Keys one read may ask for. */
  reads: number;
}

const utf8 = new TextEncoder();

/** The first part of every chunk key. */
export const CHUNKS = true;
/**
 * Deno KV refuses keys whose encoding is longer than this (2 KiB).
 *
 * @example
 * ```ts
 * assertKeySize(["k", "a".repeat(MAX_KEY_BYTES)]); // throws: over the limit
 * ```
 */
export const MAX_KEY_BYTES = 2048;

/**
 * Refuses a key Deno KV could not store, before any write: its encoded size
 * (a type byte and a terminator around each string's UTF-8 bytes, NUL bytes
 * escaped) must stay within 2 KiB.
 *
 * @example
 * ```ts
 * assertKeySize(["session", "demo-1"]); // fine: 17 bytes
 * ```
 */
export function assertKeySize(key: readonly string[], what = "key"): void {
  // A UTF-16 unit takes at most 3 bytes in UTF-8 (an escaped NUL 2): within 4 per unit, no need to count.
  let bound = 0;
  for (const part of key) bound += 2 + part.length * 4;
  if (bound <= MAX_KEY_BYTES) return;
  const bytes = keyBytes(key);
  if (bytes > MAX_KEY_BYTES) {
    throw new RangeError(
      `Store ${what} takes ${bytes} bytes in Deno KV, over its limit of ${MAX_KEY_BYTES}; ` +
        `use shorter key parts (first part "${key[0]?.slice(0, 40)}").`,
    );
  }
}

// deno-lint-ignore no-control-regex -- ASCII without NUL packs one byte a character, escaping nothing
const PLAIN = /^[\x01-\x7f]*$/;

/**
 * The bytes `text` takes in UTF-8.
 *
 * @example
 * ```ts
 * utf8Length("日"); // 3
 * ```
 */
export function utf8Length(text: string): number {
  return PLAIN.test(text) ? text.length : utf8.encode(text).length;
}

/**
 * The bytes a key takes in Deno KV: a string part is a type byte, its UTF-8 bytes (a NUL
 * escaped by one more byte) and a terminator; a number 9 bytes, a boolean one. Deno KV counts
 * these against its limits on a commit (`KvLimits.bytes`, `KvLimits.keyBytes`).
 *
 * @example
 * ```ts
 * keyBytes(["session", "demo-1"]); // 17
 * ```
 */
export function keyBytes(key: KvKey): number {
  let bytes = 0;
  for (const part of key) {
    if (typeof part === "string") {
      bytes += PLAIN.test(part)
        ? 2 + part.length
        : 2 + utf8.encode(part).length + (part.match(/\0/g)?.length ?? 0);
    } else bytes += typeof part === "boolean" ? 1 : 9; // a number: a type byte and a double
  }
  return bytes;
}

/**
 * Bytes the envelope `{ j: text }` (with an expiry or not) takes at most in V8's serialisation,
 * beyond `storedBytes(text)`: the header, the two property names, tags, lengths and a double.
 */
export const ENVELOPE_BYTES = 32;
/** Deno KV's largest value, in bytes (its own serialisation, or bytes as they are). */
export const MAX_VALUE_BYTES = 65_536;

/** Bytes per chunk: Deno KV stores a Uint8Array value of up to 64 KiB as is. */
export const CHUNK_BYTES = 65_536;
/** Largest value (estimated stored bytes) kept inline in its envelope. */
export const INLINE_BYTES = 60_000;
/** Chunks outlive their manifest's expiry by this much, so a reader that saw the manifest still finds them. */
export const CHUNK_GRACE_MS = 60_000;

/** Deno KV's limits on a commit and a read, as Deno (and `node:sqlite`'s path) take them. */
export const DENO_LIMITS: KvLimits = {
  checks: 100,
  mutations: 1000,
  bytes: 819_200,
  keyBytes: 81_920,
  reads: 10,
};

interface DenoLike {
  openKv?(path?: string): Promise<Kv>;
}

/**
 * Opens the Deno KV file at `path` (creating its folder) with Deno's own KV, with
 * Node's own SQLite on Node 22 and later (`_denokv_sqlite.ts`), or with `@deno/kv`
 * on Node 20; `null` opens Deno's own default database (`Deno.openKv()`
 * with no path: the platform's KV on Deno Deploy), which only Deno has. Every
 * read and commit of the handle retries while the database is locked
 * (`_denokv_retry.ts`).
 */
export async function openKv(path: string | null): Promise<{ kv: Kv; limits: KvLimits }> {
  const deno = denoGlobal<DenoLike>();
  if (path === null && deno === undefined) {
    throw new Error(
      "STORE__URL denokv://default is Deno's own KV, which exists only on Deno (and Deno Deploy); " +
        "on Node give Deno KV a file path (denokv:.tether/store.db) or use another store.",
    );
  }
  if (path !== null && path !== ":memory:") await mkdir(dirname(path), { recursive: true });
  if (deno !== undefined) {
    if (typeof deno.openKv !== "function") {
      throw new Error(
        'Deno KV is unavailable; run Deno with --unstable-kv or add "unstable": ["kv"] to deno.json.',
      );
    }
    return {
      kv: retryingKv(await (path === null ? deno.openKv() : deno.openKv(path))),
      limits: DENO_LIMITS,
    };
  }
  // Node 22 and later: the file through Node's own SQLite (docs/stores.md); Node 20: `@deno/kv`.
  const sqlite = nodeSqlite();
  if (sqlite !== undefined) {
    return {
      // Opening migrates the file in a transaction, which waits while another process writes.
      kv: retryingKv(
        await retryLocked(() => new Promise<Kv>((resolve) => resolve(sqliteKv(sqlite, path!)))),
      ),
      limits: DENO_LIMITS,
    };
  }
  const { openKv } = await importDenoKv();
  // @deno/kv (0.14) refuses more than 10 checks per commit where Deno allows 100.
  const kv = retryingKv(leanKv(await openKv(path!) as unknown as Kv));
  return { kv, limits: { ...DENO_LIMITS, checks: 10 } };
}

/**
 * `@deno/kv` (Node), its add-on's Tokio runtime on one worker thread unless `TOKIO_WORKER_THREADS`
 * is set. The runtime only carries each call to SQLite's own thread and back; with Tokio's
 * default of a worker a core its threads took about a third more CPU a turn, most of it in the
 * kernel, putting threads to sleep and waking them (docs/architecture.md, Decisions). The add-on makes
 * its runtime when it loads, so the variable is set for the import alone: nothing loaded later,
 * and no child process, sees it.
 */
export async function importDenoKv(): Promise<typeof import("@deno/kv")> {
  const env = process.env;
  const given = env.TOKIO_WORKER_THREADS;
  if (given === undefined) env.TOKIO_WORKER_THREADS = "1";
  try {
    return await import("@deno/kv");
  } finally {
    if (given === undefined) delete env.TOKIO_WORKER_THREADS;
  }
}

/** An inline envelope. */
export interface Inline {
  j: string;
  x?: number;
}
/** A chunked envelope. */
export interface Manifest {
  c: string;
  n: number;
  x?: number;
}

/** Whether a stored value is a manifest of chunks. */
export function isManifest(value: unknown): value is Manifest {
  return typeof value === "object" && value !== null && typeof (value as Manifest).c === "string";
}

/** Whether a stored value is one of our envelopes past its expiry. */
export function isExpired(value: unknown, now: number): boolean {
  const x = typeof value === "object" && value !== null ? (value as Inline).x : undefined;
  return x !== undefined && x <= now;
}

/** Worst-case bytes V8 serialisation takes for a string: one per character when all are Latin-1, two otherwise. */
export function storedBytes(text: string): number {
  // deno-lint-ignore no-control-regex -- Latin-1 is exactly the range V8 stores one byte per character
  return /[^\x00-\xff]/.test(text) ? text.length * 2 : text.length;
}

/** Writes `text` as chunks under a fresh id (several commits); returns the manifest to store at the key. */
export async function writeChunks(
  kv: Kv,
  limits: KvLimits,
  text: string,
  expireIn?: number,
): Promise<Manifest> {
  const bytes = new TextEncoder().encode(text);
  const n = Math.ceil(bytes.length / CHUNK_BYTES);
  const c = crypto.randomUUID();
  const options = expireIn === undefined ? undefined : { expireIn: expireIn + CHUNK_GRACE_MS };
  const perCommit = Math.max(1, Math.floor((limits.bytes - 16_384) / CHUNK_BYTES));
  for (let i = 0; i < n; i += perCommit) {
    const op = kv.atomic();
    for (let j = i; j < Math.min(n, i + perCommit); j++) {
      op.set([CHUNKS, c, j], bytes.subarray(j * CHUNK_BYTES, (j + 1) * CHUNK_BYTES), options);
    }
    await op.commit();
  }
  return expireIn === undefined ? { c, n } : { c, n, x: Date.now() + expireIn };
}

/** Reads the text a manifest names; undefined when its chunks are gone (the key was overwritten meanwhile). */
export async function readChunks(kv: Kv, manifest: Manifest): Promise<string | undefined> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const entry of kv.list({ prefix: [CHUNKS, manifest.c] }, { batchSize: 100 })) {
    const part = entry.value as Uint8Array;
    parts.push(part);
    size += part.length;
  }
  if (parts.length !== manifest.n) return undefined;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(bytes);
}

/** Reads raw entries, `limits.reads` keys per request, in the order given. */
export async function readRaw(
  kv: Kv,
  limits: KvLimits,
  keys: readonly KvKey[],
): Promise<KvEntryMaybe[]> {
  const batches: Promise<KvEntryMaybe[]>[] = [];
  for (let i = 0; i < keys.length; i += limits.reads) {
    batches.push(kv.getMany(keys.slice(i, i + limits.reads)));
  }
  return (await Promise.all(batches)).flat();
}

/** Deletes the chunks a manifest names. */
export async function deleteChunks(kv: Kv, limits: KvLimits, manifest: Manifest): Promise<void> {
  for (let i = 0; i < manifest.n; i += limits.mutations) {
    const op = kv.atomic();
    for (let j = i; j < Math.min(manifest.n, i + limits.mutations); j++) {
      op.delete([CHUNKS, manifest.c, j]);
    }
    await op.commit();
  }
}

/**
 * A record of the store's own (the relay's messages, the holder record, presences) as JSON in
 * bytes: Deno's V8 serialises objects in a format version Node's cannot read (16 against 15),
 * and bytes read the same on both.
 *
 * @example
 * ```ts
 * fromJsonBytes<{ a: number }>(jsonBytes({ a: 1 }))?.a; // 1
 * ```
 */
export function jsonBytes(record: unknown): Uint8Array {
  return utf8.encode(JSON.stringify(record));
}

/**
 * A record written by `jsonBytes()`; null for anything else (absent, or written otherwise).
 *
 * @example
 * ```ts
 * fromJsonBytes(null); // null
 * ```
 */
export function fromJsonBytes<T>(value: unknown): T | null {
  if (!(value instanceof Uint8Array)) return null;
  try {
    return JSON.parse(decoder.decode(value)) as T;
  } catch {
    return null;
  }
}
const decoder = new TextDecoder();
