/**
 * Prompt caches as the providers document them.
 *
 * - `PrefixCache` (OpenAI, and OpenAI-compatible servers): automatic. A
 *   prompt of 1,024 tokens or more is cached; a later prompt that starts with
 *   the same tokens reads the longest common prefix, counted in steps of 128
 *   tokens past the first 1,024 (`cached_tokens`).
 * - `BreakpointCache` (Anthropic): explicit. Each `cache_control` block is a
 *   breakpoint; the prefix up to it (tools, then system, then messages) is
 *   written when it holds at least the model's minimum, and read by a later
 *   request whose breakpoint finds the same prefix at that block or at one of
 *   the 20 blocks before it. Entries live five minutes from their last use.
 *
 * @module
 */
import { type Segment, segmentTokens } from "./_tokens.ts";

function digest(segment: Segment): string {
  return "text" in segment ? `t${segment.text}` : `b${segment.blob}`;
}

interface Remembered {
  segments: Segment[];
  keys: string[];
}

/** OpenAI's automatic prefix cache over rendered prompts. */
export class PrefixCache {
  #prompts: Remembered[] = [];
  readonly #keep: number;
  constructor(keep = 32) {
    this.#keep = keep;
  }

  /** The `cached_tokens` of a prompt, after which the prompt is remembered for later ones. */
  use(prompt: Segment[]): number {
    const entry = { segments: prompt, keys: prompt.map((s) => hash(digest(s))) };
    let best = 0;
    for (const earlier of this.#prompts) best = Math.max(best, commonTokens(earlier, entry));
    const total = prompt.reduce((sum, s) => sum + segmentTokens(s), 0);
    if (total >= 1024) {
      this.#prompts.push(entry);
      if (this.#prompts.length > this.#keep) this.#prompts.shift();
    }
    if (best < 1024) return 0;
    return Math.min(total, 1024 + Math.floor((best - 1024) / 128) * 128);
  }

  /** Forgets every cached prefix. */
  clear(): void {
    this.#prompts = [];
  }
}

/** Tokens of the longest common prefix of two rendered prompts (a text segment may match in part). */
function commonTokens(a: Remembered, b: Remembered): number {
  let tokens = 0;
  for (let i = 0; i < Math.min(a.keys.length, b.keys.length); i++) {
    if (a.keys[i] === b.keys[i]) {
      tokens += segmentTokens(a.segments[i]);
      continue;
    }
    const x = a.segments[i], y = b.segments[i];
    if ("text" in x && "text" in y) {
      let n = 0;
      const max = Math.min(x.text.length, y.text.length);
      while (n < max && x.text.charCodeAt(n) === y.text.charCodeAt(n)) n++;
      tokens += Math.floor(new TextEncoder().encode(x.text.slice(0, n)).length / 4);
    }
    break;
  }
  return tokens;
}

/** One block of an Anthropic prompt in cache order, and whether it carries `cache_control`. */
export interface CacheBlock {
  segment: Segment;
  breakpoint: boolean;
}

/** What a request's cache use comes to, in the Messages API's usage fields. */
export interface CacheUse {
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  input_tokens: number;
}

const LOOKBACK = 20;
const TTL_MS = 5 * 60_000;

/** Anthropic's explicit cache. */
export class BreakpointCache {
  #entries = new Map<string, number>(); // prefix key → expiry
  readonly #now: () => number;
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Reads and writes the cache for one request's blocks; `minTokens` is the model's minimum. */
  use(blocks: CacheBlock[], minTokens: number): CacheUse {
    const now = this.#now();
    const keys: string[] = [];
    const upTo: number[] = [];
    let key = "";
    let tokens = 0;
    for (const block of blocks) {
      key = hash(key + "\u0000" + digest(block.segment));
      tokens += segmentTokens(block.segment);
      keys.push(key);
      upTo.push(tokens);
    }
    const total = tokens;
    const live = (k: string) => (this.#entries.get(k) ?? 0) > now;
    let read = -1;
    blocks.forEach((block, i) => {
      if (!block.breakpoint) return;
      for (let j = i; j >= 0 && j >= i - LOOKBACK; j--) {
        if (live(keys[j])) {
          read = Math.max(read, j);
          break;
        }
      }
    });
    const readTokens = read < 0 ? 0 : upTo[read];
    if (read >= 0) this.#entries.set(keys[read], now + TTL_MS);
    let written = readTokens;
    blocks.forEach((block, i) => {
      if (!block.breakpoint || i <= read || upTo[i] < minTokens) return;
      this.#entries.set(keys[i], now + TTL_MS);
      written = Math.max(written, upTo[i]);
    });
    return {
      cache_read_input_tokens: readTokens,
      cache_creation_input_tokens: written - readTokens,
      input_tokens: total - written,
    };
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
  }
}

/** FNV-1a over UTF-16 units, as hex: prefix keys stay small however long the prompt. */
function hash(text: string): string {
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(16) + h2.toString(16);
}
