/**
 * Sanitising `output.display`, exactly as the remote tools contract says:
 * an entry without an absolute http(s) `url` is dropped, a non-https or
 * relative `image` is cleared, text is trimmed (title 120, subtitle 100,
 * badge 48, at most 4 badges), at most 6 cards per result and 8 per turn,
 * de-duplicated by url; anything malformed is skipped silently.
 *
 * @module
 */
import { DISPLAY_LIMITS, type DisplayCard } from "../../protocol/mod.ts";
import { plainText } from "./shapes.ts";

function absolute(value: unknown, protocols: string[]): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value.trim());
    return protocols.includes(url.protocol) ? url.href : null;
  } catch {
    return null; // relative or not a URL
  }
}

function card(raw: unknown): DisplayCard | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const entry = raw as Record<string, unknown>;
  const url = absolute(entry.url, ["http:", "https:"]);
  if (!url || typeof entry.title !== "string") return null;
  const title = plainText(entry.title, DISPLAY_LIMITS.title);
  if (!title) return null;
  const out: DisplayCard = { title, url };
  const image = absolute(entry.image, ["https:"]);
  if (image) out.image = image;
  if (typeof entry.subtitle === "string") {
    const subtitle = plainText(entry.subtitle.split(/\r?\n/)[0], DISPLAY_LIMITS.subtitle);
    if (subtitle) out.subtitle = subtitle;
  }
  if (Array.isArray(entry.badges)) {
    const badges = entry.badges.filter((b): b is string => typeof b === "string")
      .map((b) => plainText(b, DISPLAY_LIMITS.badge)).filter(Boolean)
      .slice(0, DISPLAY_LIMITS.badges);
    if (badges.length) out.badges = badges;
  }
  return out;
}

/**
 * The cards of one tool result, given the urls this turn already showed (updated in place).
 *
 * @example
 * ```ts
 * const shown = new Set<string>();
 * sanitizeDisplay({ display: [{ title: "A", url: "https://a.example/" }] }, shown);
 * // [{ title: "A", url: "https://a.example/" }]
 * ```
 */
export function sanitizeDisplay(output: unknown, shown: Set<string>): DisplayCard[] {
  const list = (output as { display?: unknown } | null)?.display;
  if (!Array.isArray(list)) return [];
  const cards: DisplayCard[] = [];
  for (const raw of list) {
    if (cards.length >= DISPLAY_LIMITS.perResult || shown.size >= DISPLAY_LIMITS.perTurn) break;
    const c = card(raw);
    if (!c || shown.has(c.url)) continue;
    shown.add(c.url);
    cards.push(c);
  }
  return cards;
}
