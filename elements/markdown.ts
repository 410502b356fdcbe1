/**
 * A tiny, safe Markdown renderer for model text: paragraphs, headings,
 * lists, block quotes, fenced code, rules and the inline forms of
 * `_markdown_inline.ts`, produced as Lit templates. Raw HTML in the text is
 * shown as text, never parsed: nothing is ever assigned to `innerHTML`.
 *
 * Partial input renders sensibly, so streamed text can be re-rendered at
 * every delta (an unclosed fence is code up to the end).
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import { type Inline, renderInline } from "./_markdown_inline.ts";

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?/;
const BULLET = /^\s{0,3}[-*+]\s+/;
const ORDERED = /^\s{0,3}(\d{1,9})[.)]\s+/;
const MAX_QUOTE_DEPTH = 4;

/** Renders a paragraph's lines, keeping single line breaks (chat text relies on them). */
function paragraph(lines: string[]): TemplateResult {
  const parts: Inline[] = [];
  lines.forEach((line, i) => {
    if (i > 0) parts.push(html`<br />`);
    parts.push(...renderInline(line.trim()));
  });
  return html`<p>${parts}</p>`;
}

function heading(level: number, text: string): TemplateResult {
  const inner = renderInline(text);
  // Chat bubbles are small: Markdown levels 1-6 map to h3-h6.
  if (level <= 1) return html`<h3>${inner}</h3>`;
  if (level === 2) return html`<h4>${inner}</h4>`;
  if (level === 3) return html`<h5>${inner}</h5>`;
  return html`<h6>${inner}</h6>`;
}

function list(lines: string[], start: number, marker: RegExp): [TemplateResult, number] {
  const items: string[][] = [];
  let i = start;
  let first: number | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const m = line.match(marker);
    if (m) {
      first ??= marker === ORDERED ? Number(m[1]) : undefined;
      items.push([line.slice(m[0].length)]);
    } else if (line.trim() !== "" && /^\s+\S/.test(line) && items.length) {
      items.at(-1)!.push(line.trim());
    } else break;
  }
  const lis = items.map((item) => html`<li>${renderInline(item.join(" "))}</li>`);
  const tpl = marker === ORDERED
    ? html`<ol start=${first ?? 1}>${lis}</ol>`
    : html`<ul>${lis}</ul>`;
  return [tpl, i];
}

function blocks(lines: string[], depth: number): TemplateResult[] {
  const out: TemplateResult[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = line.match(FENCE);
    if (line.trim() === "") {
      i++;
    } else if (fence) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i]);
      i++;
      out.push(html`<pre part="code-block"><code>${code.join("\n")}</code></pre>`);
    } else if (HEADING.test(line)) {
      const [, hashes, text] = line.match(HEADING)!;
      out.push(heading(hashes.length, text));
      i++;
    } else if (RULE.test(line)) {
      out.push(html`<hr />`);
      i++;
    } else if (QUOTE.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) {
        quoted.push(lines[i].replace(QUOTE, ""));
      }
      out.push(
        depth < MAX_QUOTE_DEPTH
          ? html`<blockquote>${blocks(quoted, depth + 1)}</blockquote>`
          : paragraph(quoted),
      );
    } else if (BULLET.test(line) || ORDERED.test(line)) {
      const [tpl, next] = list(lines, i, BULLET.test(line) ? BULLET : ORDERED);
      out.push(tpl);
      i = next;
    } else {
      const para: string[] = [];
      for (; i < lines.length; i++) {
        const l = lines[i];
        if (l.trim() === "" || FENCE.test(l) || HEADING.test(l) || QUOTE.test(l) || RULE.test(l)) {
          break;
        }
        if (para.length && (BULLET.test(l) || ORDERED.test(l))) break;
        para.push(l);
      }
      out.push(paragraph(para));
    }
  }
  return out;
}

/**
 * Renders Markdown text as Lit templates; HTML in the text stays text.
 *
 * @example
 * ```ts
 * import { render } from "lit";
 * render(renderMarkdown("**Done:** see [the issue](https://example.com/42)"), container);
 * ```
 */
export function renderMarkdown(text: string): TemplateResult | typeof nothing {
  if (!text) return nothing;
  return html`${blocks(text.replace(/\r\n?/g, "\n").split("\n"), 0)}`;
}
