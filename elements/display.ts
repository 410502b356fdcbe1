/**
 * Preview cards from tool results: the `display` array of the remote tools
 * contract, sanitised by its rules before anything is rendered. An entry
 * without an absolute http(s) `url` is dropped, a non-https `image` cleared,
 * text trimmed to its limit, at most 6 entries per result and 8 per turn,
 * de-duplicated by `url`; a malformed entry is skipped silently.
 *
 * @module
 */
// From its own file: protocol/mod.ts would carry zod schemas the elements never use.
import { DISPLAY_LIMITS } from "../protocol/display.ts";
import { safeCardUrl, safeImageUrl } from "./safe_url.ts";

/** A preview card as the elements render it: every field plain text or a checked URL. */
export interface DisplayCard {
  title: string;
  url: string;
  image?: string;
  subtitle?: string;
  badges: string[];
}

/** The contract's limits, shared with the runtime (protocol/). */
export { DISPLAY_LIMITS };

function text(value: unknown, max: number): string {
  if (typeof value !== "string") return "";
  // Collapsing whitespace keeps a multi-line "subtitle" on its one line.
  const flat = value.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1).trimEnd() + "…";
}

/**
 * One `display` entry as a card, or `undefined` when it must be dropped.
 *
 * @example
 * ```ts
 * toCard({ title: "RTX 4070", url: "https://shop.example.com/p/1", image: "http://x/a.jpg" });
 * // { title: "RTX 4070", url: "https://shop.example.com/p/1", badges: [] }: the http image is cleared
 * ```
 */
export function toCard(entry: unknown): DisplayCard | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
  const e = entry as Record<string, unknown>;
  const url = safeCardUrl(e.url);
  const title = text(e.title, DISPLAY_LIMITS.title);
  if (!url || !title) return undefined;
  const card: DisplayCard = { title, url, badges: [] };
  const image = safeImageUrl(e.image);
  if (image) card.image = image;
  const subtitle = text(e.subtitle, DISPLAY_LIMITS.subtitle);
  if (subtitle) card.subtitle = subtitle;
  if (Array.isArray(e.badges)) {
    for (const b of e.badges) {
      const badge = text(b, DISPLAY_LIMITS.badge);
      if (badge && card.badges.length < DISPLAY_LIMITS.badges) card.badges.push(badge);
    }
  }
  return card;
}

/**
 * The cards of one tool result's output (its top-level `display` array), at most 6.
 *
 * @example
 * ```ts
 * cardsOf({ results: [], display: [{ title: "A", url: "https://a.example" }] }).length; // 1
 * cardsOf("plain text"); // []
 * ```
 */
export function cardsOf(output: unknown): DisplayCard[] {
  if (typeof output !== "object" || output === null) return [];
  const display = (output as { display?: unknown }).display;
  if (!Array.isArray(display)) return [];
  const cards: DisplayCard[] = [];
  for (const entry of display) {
    const card = toCard(entry);
    if (card && !cards.some((c) => c.url === card.url)) cards.push(card);
    if (cards.length === DISPLAY_LIMITS.perResult) break;
  }
  return cards;
}

/**
 * The cards of a whole turn: each result's cards in order, de-duplicated by url, at most 8.
 *
 * @example
 * ```ts
 * turnCards([resultA.output, resultB.output]);
 * ```
 */
export function turnCards(outputs: readonly unknown[]): DisplayCard[] {
  const cards: DisplayCard[] = [];
  for (const output of outputs) {
    for (const card of cardsOf(output)) {
      if (cards.length === DISPLAY_LIMITS.perTurn) return cards;
      if (!cards.some((c) => c.url === card.url)) cards.push(card);
    }
  }
  return cards;
}
