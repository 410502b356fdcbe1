/**
 * Batched reads for `denoKvStore()` (private to `server/kv/`).
 *
 * Each Deno KV read costs about the same CPU for one key as for ten, so the
 * single-key reads asked for while one read runs wait for it and then go
 * out together, up to Deno KV's keys per read. Each read is still a
 * consistent snapshot of the keys it names; nothing is served from memory
 * (what a read saw is only remembered for the writer's checks).
 *
 * @module
 */

import type { Kv, KvEntryMaybe, KvKey, KvLimits } from "./_denokv.ts";
import type { KnownVersions } from "./_denokv_known.ts";

interface Wanted {
  key: KvKey;
  resolve(entry: KvEntryMaybe): void;
  reject(error: unknown): void;
}

/**
 * Reads single keys of one Deno KV handle, batching those that wait.
 *
 * @example
 * ```ts
 * const reader = new KvReader(kv, limits);
 * const entry = await reader.get(["session", "s1"]);
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
  get(key: KvKey): Promise<KvEntryMaybe> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ key, resolve, reject });
      if (!this.#running) this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length) {
        const batch = this.#waiting.splice(0, this.#limits.reads);
        try {
          const entries = batch.length === 1
            ? [await this.#kv.get(batch[0].key)]
            : await this.#kv.getMany(batch.map((w) => w.key));
          batch.forEach((w, i) => {
            this.#known?.saw(w.key, entries[i]);
            w.resolve(entries[i]);
          });
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
