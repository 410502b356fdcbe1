/**
 * Inline Markdown (code spans, links, emphasis, strike-through, bare URLs)
 * to Lit templates. Text only ever reaches the DOM as Lit text bindings, and
 * a link only when its URL passes `safeLinkUrl`, so no markup or script from
 * the model can run.
 *
 * @module
 */
import { html, type TemplateResult } from "lit";
import { safeLinkUrl } from "./safe_url.ts";

/** What inline rendering produces: strings (text nodes) and templates. */
export type Inline = string | TemplateResult;

// In priority order: code span, [text](url), <autolink>, bare URL, **strong**,
// __strong__, ~~strike~~, *em*, _em_ (not inside words), backslash escape.
const INLINE = new RegExp(
  [
    /(`+)([^`][\s\S]*?)\1(?!`)/.source,
    /\[([^\]\n]+)\]\(([^()\s]+)(?:\s+"[^"\n]*")?\)/.source,
    /<((?:https?:\/\/|mailto:)[^>\s]+)>/.source,
    /(https?:\/\/[^\s<>"'`]*[^\s<>"'`.,:;)\]!?*_~])/.source,
    /\*\*(?=\S)([\s\S]*?\S)\*\*/.source,
    /(?<![\p{L}\p{N}])__(?=\S)([\s\S]*?\S)__(?![\p{L}\p{N}])/u.source,
    /~~(?=\S)([\s\S]*?\S)~~/.source,
    /\*(?=[^\s*])([\s\S]*?[^\s*])\*/.source,
    /(?<![\p{L}\p{N}_])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\p{L}\p{N}_])/u.source,
    /\\([\\`*_{}[\]()#+\-.!~<>|])/.source,
  ].join("|"),
  "gu",
);

const MAX_DEPTH = 6;

const link = (href: string, children: Inline[]) =>
  html`<a part="link" href=${href} target="_blank" rel="noopener noreferrer">${children}</a>`;

/**
 * Renders one run of inline Markdown.
 *
 * @example
 * ```ts
 * render(html`<p>${renderInline("see **[docs](https://example.com)**")}</p>`, container);
 * ```
 */
export function renderInline(text: string, depth = 0): Inline[] {
  if (depth >= MAX_DEPTH) return [text];
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    const inner = (s: string) => renderInline(s, depth + 1);
    if (m[2] !== undefined) {
      out.push(
        html`<code part="code">${
          m[2].trim() === "" ? m[2] : m[2].replace(/^ (.*) $/s, "$1")
        }</code>`,
      );
    } else if (m[3] !== undefined) {
      const href = safeLinkUrl(m[4]);
      // An unsafe link keeps its text and loses its target.
      out.push(href ? link(href, inner(m[3])) : html`<span>${inner(m[3])}</span>`);
    } else if (m[5] !== undefined || m[6] !== undefined) {
      const raw = (m[5] ?? m[6])!;
      const href = safeLinkUrl(raw);
      out.push(href ? link(href, [raw]) : raw);
    } else if (m[7] !== undefined || m[8] !== undefined) {
      out.push(html`<strong>${inner((m[7] ?? m[8])!)}</strong>`);
    } else if (m[9] !== undefined) out.push(html`<s>${inner(m[9])}</s>`);
    else if (m[10] !== undefined || m[11] !== undefined) {
      out.push(html`<em>${inner((m[10] ?? m[11])!)}</em>`);
    } else out.push(m[12] ?? m[0]);
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
