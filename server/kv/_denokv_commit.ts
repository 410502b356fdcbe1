/**
 * The write path of `denoKvStore()` (private to `server/kv/`).
 *
 * Large values are written as chunks under a fresh id before the commit
 * that stores their manifest, so the commit stays within Deno KV's 800 KiB
 * and a failed commit only leaves chunks that are deleted at once. The
 * commit checks the user's versions and also each written key's current
 * versionstamp (as read just before), so when it succeeds we know which
 * manifest it replaced and can delete that manifest's chunks; when only
 * such a guard fails, the attempt is retried. Deno KV caps the checks of a
 * commit (10 on `@deno/kv`, Node 20), and keys beyond the cap go unguarded: two
 * writers racing on one of them may orphan a chunk set, never corrupt one.
 *
 * @module
 */

import { assertKey, checkExpireIn, encodeValue } from "./_codec.ts";
import {
  assertKeySize,
  deleteChunks,
  ENVELOPE_BYTES,
  INLINE_BYTES,
  isExpired,
  isManifest,
  keyBytes,
  type Kv,
  type KvEntryMaybe,
  type KvLimits,
  type Manifest,
  readRaw,
  storedBytes,
  writeChunks,
} from "./_denokv.ts";
import type { KnownVersions } from "./_denokv_known.ts";
import type { Sole } from "./_denokv_sole.ts";
import type { Check, Key, Mutation } from "./store.ts";

const RETRY = Symbol("retry");
/**
 * Bytes of Deno KV's limit on a commit (`KvLimits.bytes`) left spare: room for the hold's own
 * record (`_denokv_sole.ts`) beside what the writer counts.
 */
export const COMMIT_SPARE = 4_096;
/** Bytes of Deno KV's limit on a commit's written keys (`KvLimits.keyBytes`) left spare, as above. */
export const KEY_SPARE = 512;

/** One key a commit writes, its value encoded. */
export interface Write {
  key: Key;
  /** The key's JSON text, the writer's name for it in its maps. */
  id: string;
  text: string | undefined;
  expireIn: number | undefined;
  /** Whether the value goes to chunks (too big alone, or to keep the commit small). */
  chunk: boolean;
  /** Written to a key never written before (`Mutation.fresh`): nothing to read or guard. */
  fresh: boolean;
  /** Only other processes read it (`Mutation.forOthers`): kept in memory while the file is held. */
  others: boolean;
  /** Bytes the key takes in Deno KV (`keyBytes()`). */
  keyBytes: number;
  /** Bytes the value takes inline in its envelope, at most (0 for a delete); see `chunk`. */
  bytes: number;
  manifest?: Manifest;
}

/**
 * What a commit of `checks` and `writes` carries against Deno KV's limits (`KvLimits.bytes` and
 * `.keyBytes`), as Deno counts it, with chunked values as their manifests and room for a check
 * guarding each written key that is not fresh (the writer adds those).
 *
 * @example
 * ```ts
 * const { bytes, keyBytes } = commitBytes([], prepare(limits, [], [{ key: ["a"], value: 1 }]).writes);
 * ```
 */
export function commitBytes(
  checks: readonly { key: Key }[],
  writes: readonly Write[],
): { bytes: number; keyBytes: number } {
  let bytes = 0;
  let keys = 0;
  for (const c of checks) bytes += keyBytes(c.key);
  for (const w of writes) {
    bytes += w.fresh ? w.keyBytes : 2 * w.keyBytes;
    if (w.text === undefined) continue;
    bytes += w.keyBytes + (w.chunk ? MANIFEST_BYTES : w.bytes);
    keys += w.keyBytes;
  }
  return { bytes, keyBytes: keys };
}

/** Bytes a chunked value's manifest takes at most in its envelope. */
const MANIFEST_BYTES = 256;

/**
 * Applies prepared writes if every check holds, chunking large values; see the module doc.
 * Resolves the commit's versionstamp, or null when a check failed, or "gate" when the file is
 * held by another store now (wait for `sole.writable()`, then try again). With `sole`, writes
 * kept in memory are checked as kept, and go to the database like any other.
 *
 * @example
 * ```ts
 * const ok = await commitAlone(kv, limits, [], prepare(limits, [], [{ key: ["a"], value: 1 }]).writes);
 * ```
 */
export async function commitAlone(
  kv: Kv,
  limits: KvLimits,
  checks: readonly Check[],
  writes: Write[],
  known?: KnownVersions,
  sole?: Sole,
): Promise<string | null | "gate"> {
  const chunked = writes.filter((w) => w.chunk);
  let committed = false;
  try {
    for (const w of chunked) {
      w.manifest = await writeChunks(kv, limits, w.text!, w.expireIn);
    }
    for (let round = 0; round < 100; round++) {
      const result = await attempt(kv, limits, checks, writes, known, sole);
      if (result === RETRY) continue;
      committed = result !== null && result !== "gate";
      return result;
    }
    throw new Error(
      "Deno KV commit lost 100 races with other writers of the same keys; try again.",
    );
  } finally {
    if (!committed) {
      for (const w of chunked) {
        if (w.manifest) await deleteChunks(kv, limits, w.manifest);
      }
    }
  }
}

/**
 * Checks the arguments of a commit against Deno KV's limits and encodes its values; with them,
 * what the commit carries against those limits (`commitBytes()`, its large values chunked).
 *
 * @example
 * ```ts
 * const { writes, bytes, keyBytes } = prepare(limits, [], [{ key: ["a"], value: 1 }]);
 * ```
 */
export function prepare(
  limits: KvLimits,
  checks: readonly Check[],
  mutations: readonly Mutation[],
): { writes: Write[]; bytes: number; keyBytes: number } {
  for (const check of checks) {
    assertKey(check.key, "check key");
    assertKeySize(check.key, "check key");
  }
  if (checks.length > limits.checks) {
    throw new Error(
      `Deno KV checks at most ${limits.checks} keys per commit here; this one checks ${checks.length}, so split it.`,
    );
  }
  const byKey = new Map<string, Write>();
  for (const m of mutations) {
    assertKey(m.key, "mutation key");
    assertKeySize(m.key, "mutation key");
    const text = m.value === undefined ? undefined : encodeValue(m.value);
    const expireIn = m.expireIn === undefined ? undefined : checkExpireIn(m.expireIn);
    const id = JSON.stringify(m.key);
    const stored = text === undefined ? 0 : storedBytes(text);
    byKey.delete(id); // the last mutation of a key wins, in its own position
    byKey.set(id, {
      key: m.key,
      id,
      text,
      expireIn,
      chunk: stored > INLINE_BYTES,
      fresh: m.fresh === true,
      others: m.forOthers === true,
      keyBytes: keyBytes(m.key),
      bytes: text === undefined ? 0 : stored + ENVELOPE_BYTES,
    });
  }
  if (byKey.size > limits.mutations) {
    throw new Error(
      `Deno KV writes at most ${limits.mutations} keys per commit; this one writes ${byKey.size}, so split it.`,
    );
  }
  const writes = [...byKey.values()];
  // Keep the commit under Deno KV's 800 KiB: the largest values go to chunks first.
  // Chunking a value changes what the commit carries, never the keys it writes.
  let { bytes, keyBytes: keys } = commitBytes(checks, writes);
  if (bytes > limits.bytes - COMMIT_SPARE) {
    for (const w of [...writes].sort((a, b) => b.bytes - a.bytes)) {
      if (bytes <= limits.bytes - COMMIT_SPARE || w.text === undefined) break;
      if (w.chunk) continue;
      bytes -= w.bytes - MANIFEST_BYTES;
      w.chunk = true;
    }
  }
  if (bytes > limits.bytes - COMMIT_SPARE || keys > limits.keyBytes - KEY_SPARE) {
    throw new Error(
      `Deno KV takes at most ${limits.bytes} bytes per commit, ${limits.keyBytes} of them in written keys; this one carries ${bytes}, ${keys} in written keys, so split it.`,
    );
  }
  return { writes, bytes, keyBytes: keys };
}

/**
 * Whether every check holds on the entries read for it (`raw[i]` for `checks[i]`); an expired key counts as absent.
 *
 * @example
 * ```ts
 * checksHold([{ key: ["a"], version: null }], [{ key: ["a"], value: null, versionstamp: null }], Date.now()); // true
 * ```
 */
export function checksHold(
  checks: readonly Check[],
  raw: readonly KvEntryMaybe[],
  now: number,
): boolean {
  return checks.every((check, i) => {
    const { value, versionstamp } = raw[i];
    const live = versionstamp !== null && !isExpired(value, now);
    return check.version === null ? !live : live && versionstamp === check.version;
  });
}

/** One optimistic attempt: its versionstamp, null when a check failed, RETRY when only our own concurrency guard did. */
async function attempt(
  kv: Kv,
  limits: KvLimits,
  checks: readonly Check[],
  writes: Write[],
  known?: KnownVersions,
  sole?: Sole,
): Promise<string | null | "gate" | typeof RETRY> {
  const checkIds = checks.map((c) => JSON.stringify(c.key));
  if (sole) {
    checks = checks.map((c, i) => ({
      key: c.key,
      version: sole.translate(checkIds[i], c.version),
    }));
  }
  const checked = new Set(checkIds);
  const unread = writes.filter((w) => !w.fresh);
  const keys = [...checks.map((c) => c.key), ...unread.map((w) => w.key)];
  const raw = known
    ? await known.read(kv, limits, keys, checks.map((c) => c.version), [
      ...checkIds,
      ...unread.map((w) => w.id),
    ])
    : await readRaw(kv, limits, keys);
  const now = Date.now();
  // A check on a key kept in memory is decided on what was kept.
  const seen = sole?.holding
    ? raw.map((r, i) => (i < checks.length ? sole.read(checkIds[i], now) ?? r : r))
    : raw;
  if (!checksHold(checks, seen, now)) return null;
  const op = kv.atomic();
  // Alone on the file, the checks were decided above; otherwise the database decides them too.
  const toDatabase = sole?.checked ?? true;
  let guards = toDatabase ? checks.length : limits.checks;
  // An expired key still in the file is checked at its stored versionstamp.
  for (let i = 0; toDatabase && i < checks.length; i++) {
    op.check({ key: checks[i].key, versionstamp: raw[i].versionstamp });
  }
  const replaced: Manifest[] = [];
  let at = checks.length;
  for (const w of writes) {
    // A fresh key replaces nothing, so it is neither read nor guarded.
    const old = w.fresh ? null : raw[at++];
    if (old && isManifest(old.value)) replaced.push(old.value);
    // Guarding each written key lets us delete the chunks it held; beyond the limit, leftovers may leak.
    if (old && !checked.has(w.id) && guards < limits.checks) {
      op.check({ key: w.key, versionstamp: old.versionstamp });
      guards++;
    }
    if (w.text === undefined) op.delete(w.key);
    else {
      const x = w.expireIn === undefined ? undefined : now + w.expireIn;
      const envelope = w.manifest ?? (x === undefined ? { j: w.text } : { j: w.text, x });
      op.set(w.key, envelope, w.expireIn === undefined ? undefined : { expireIn: w.expireIn });
    }
  }
  sole?.guard(op, now);
  const { ok, versionstamp } = await op.commit();
  if (!ok) {
    // Whatever was known of these keys may be what made the commit fail: read them next time.
    for (const key of keys) known?.forget(key);
    return (await sole?.after(false)) ? "gate" : RETRY;
  }
  await sole?.after(true, versionstamp);
  known?.wroteAll(writes, versionstamp);
  if (sole?.tracking) { for (const w of writes) sole.wrote(w.id); }
  for (const manifest of replaced) await deleteChunks(kv, limits, manifest);
  return versionstamp!;
}
