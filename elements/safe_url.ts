/**
 * URL checks for everything the elements turn into a link or an image: model
 * text, tool results and preview cards are untrusted, and Lit does not
 * sanitise `href` or `src` bindings, so every URL passes through here first.
 *
 * @module
 */

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
// C0 controls and whitespace inside a URL are how `java\tscript:` slips past naive checks.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0020\u007f-\u009f]/;

function parse(raw: unknown): URL | undefined {
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (text === "" || text.length > 2048 || CONTROL.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The absolute `http(s)` or `mailto` URL to link to, or `undefined` when the text is anything else.
 *
 * @example
 * ```ts
 * safeLinkUrl("https://example.com/a"); // "https://example.com/a"
 * safeLinkUrl("javascript:alert(1)"); // undefined
 * ```
 */
export function safeLinkUrl(raw: unknown): string | undefined {
  const url = parse(raw);
  return url && LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

/**
 * The absolute `http(s)` URL a preview card may open, or `undefined`.
 *
 * @example
 * ```ts
 * safeCardUrl("mailto:a@b.c"); // undefined: cards open pages, not mail
 * ```
 */
export function safeCardUrl(raw: unknown): string | undefined {
  const url = parse(raw);
  return url && (url.protocol === "http:" || url.protocol === "https:") ? url.href : undefined;
}

/**
 * The absolute `https` URL an image may load from, or `undefined` (no `data:`, no plain http).
 *
 * @example
 * ```ts
 * safeImageUrl("https://cdn.example.com/a.png"); // "https://cdn.example.com/a.png"
 * safeImageUrl("http://cdn.example.com/a.png"); // undefined
 * ```
 */
export function safeImageUrl(raw: unknown): string | undefined {
  const url = parse(raw);
  return url?.protocol === "https:" ? url.href : undefined;
}
