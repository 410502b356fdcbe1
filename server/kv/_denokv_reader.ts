/**
 * Batched reads for `denoKvStore()` (private to `server/kv/`).
 *
 * Each Deno KV read costs about the same CPU for one key as for ten, so the
 * reads asked for while one read runs (single keys, and snapshots of a few)
 * wait for it and then go out together, up to Deno KV's keys per read. Each
 * read is still a consistent snapshot of the keys it names; nothing is served
 * from memory (what a read saw is only remembered for the writer's checks).
 *
 * @module
 */

import type { Kv, KvEntryMaybe, KvKey, KvLimits } from "./_denokv.ts";
import type { KnownVersions } from "./_denokv_known.ts";

interface Wanted {
  keys: readonly KvKey[];
  resolve(entries: KvEntryMaybe[]): void;
  reject(error: unknown): void;
}

/**
 * Reads keys of one Deno KV handle, batching the reads that wait: one key (`get`) or several
 * read in one snapshot (`getMany`, up to Deno KV's keys per read).
 *
 * @example
 * ```ts
 * const reader = new KvReader(kv, limits);
 * const entry = await reader.get(["session", "s1"]);
 * const [record, page] = await reader.getMany([["session", "s1"], ["session_page", "s1"]]);
 * ```
 */
export class KvReader {
  #kv: Kv;
  #limits: KvLimits;
  #waiting: Wanted[] = [];
  #running = false;

  #known: KnownVersions | undefined;

  /** `known`: where to record what each read saw (`_denokv_known.ts`). */
  constructor(kv: Kv, limits: KvLimits, known?: KnownVersions) {
    this.#kv = kv;
    this.#limits = limits;
    this.#known = known;
  }

  /** Reads one key (raw, as Deno KV stores it). */
  async get(key: KvKey): Promise<KvEntryMaybe> {
    return (await this.getMany([key]))[0];
  }

  /**
   * Reads keys in one snapshot (raw, in their order): at most Deno KV's keys per read, which
   * the batch they join keeps together.
   */
  getMany(keys: readonly KvKey[]): Promise<KvEntryMaybe[]> {
    if (keys.length > this.#limits.reads) {
      return Promise.reject(
        new Error(`A snapshot of ${keys.length} keys is over Deno KV's ${this.#limits.reads}.`),
      );
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ keys, resolve, reject });
      if (!this.#running) this.#drain();
    });
  }

  /** The waiting reads that fit in one snapshot, from the first (always taken). */
  #take(): Wanted[] {
    const batch = [this.#waiting.shift()!];
    let size = batch[0].keys.length;
    while (this.#waiting.length && size + this.#waiting[0].keys.length <= this.#limits.reads) {
      size += this.#waiting[0].keys.length;
      batch.push(this.#waiting.shift()!);
    }
    return batch;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length) {
        const batch = this.#take();
        const keys = batch.flatMap((w) => w.keys);
        try {
          const entries = keys.length === 1
            ? [await this.#kv.get(keys[0])]
            : await this.#kv.getMany(keys);
          let at = 0;
          for (const w of batch) {
            const mine = entries.slice(at, at += w.keys.length);
            w.keys.forEach((key, i) => this.#known?.saw(key, mine[i]));
            w.resolve(mine);
          }
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
