/**
 * The local provider servers' token counter, and the rendered prompt their
 * caches compare.
 *
 * Counting is an approximation, documented as such: one token per four
 * bytes of UTF-8 text (rounded up per segment), images by the provider's
 * published formula from the image's own size (OpenAI's 512-pixel tiles,
 * Anthropic's width × height / 750). Real tokenizers differ; what matters
 * here is that the servers refuse by a rule the runtime must respect, and
 * the runtime's estimate (`server/history/estimate.ts`) is higher than this
 * count for every request.
 *
 * @module
 */

/**
 * The UTF-8 length of a text.
 *
 * @example
 * ```ts
 * bytes("é"); // 2
 * ```
 */
export function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Tokens of a text: a quarter of its bytes, rounded up.
 *
 * @example
 * ```ts
 * countTokens("hello world"); // 3
 * ```
 */
export function countTokens(text: string): number {
  return Math.ceil(bytes(text) / 4);
}

/** One piece of a rendered prompt: text, or an image or file counted by its provider's rule. */
export type Segment = { text: string } | { blob: string; tokens: number };

/** Tokens of a segment. */
export function segmentTokens(segment: Segment): number {
  return "text" in segment ? countTokens(segment.text) : segment.tokens;
}

/**
 * The width and height of a PNG, JPEG, GIF or WebP from its base64 data, or null.
 *
 * @example
 * ```ts
 * imageSize(pngBase64); // { width: 1280, height: 800 }
 * ```
 */
export function imageSize(base64: string): { width: number; height: number } | null {
  let b: Uint8Array;
  try {
    const head = atob(base64.slice(0, 65_536 - (65_536 % 4)).replace(/[^A-Za-z0-9+/=]/g, ""));
    b = Uint8Array.from(head, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  const u16 = (i: number) => (b[i] << 8) | b[i + 1];
  const u32 = (i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
  if (b[0] === 0x89 && b[1] === 0x50 && b.length >= 24) return { width: u32(16), height: u32(20) };
  if (b[0] === 0x47 && b[1] === 0x49 && b.length >= 10) {
    return { width: b[6] | (b[7] << 8), height: b[8] | (b[9] << 8) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1];
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { width: u16(i + 7), height: u16(i + 5) };
      }
      i += 2 + u16(i + 2);
    }
  }
  return null;
}

/**
 * OpenAI's image cost at `detail: "high"` (or auto): the image fits 2048 × 2048, its short side
 * becomes 768, then 85 tokens plus 170 for every 512-pixel tile; 85 at `detail: "low"`.
 *
 * @example
 * ```ts
 * openaiImageTokens({ width: 1024, height: 1024 }, "auto"); // 765
 * ```
 */
export function openaiImageTokens(
  size: { width: number; height: number } | null,
  detail: string | undefined,
): number {
  if (detail === "low") return 85;
  if (!size) return 765;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, 768 / Math.min(width, height));
  width *= short;
  height *= short;
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/**
 * Anthropic's image cost: width × height / 750, after the image is scaled to a long edge of at
 * most 1568 pixels and about 1.15 megapixels.
 *
 * @example
 * ```ts
 * anthropicImageTokens({ width: 1000, height: 1000 }); // 1334
 * ```
 */
export function anthropicImageTokens(size: { width: number; height: number } | null): number {
  if (!size) return 1_600;
  let { width, height } = size;
  const edge = Math.min(1, 1568 / Math.max(width, height));
  width *= edge;
  height *= edge;
  const area = Math.min(1, Math.sqrt(1_150_000 / (width * height)));
  width *= area;
  height *= area;
  return Math.ceil((width * height) / 750);
}

/**
 * A short stand-in for a large value in a rendered prompt: its length and ends, enough to tell
 * two images apart without keeping them.
 *
 * @example
 * ```ts
 * digestOf("data:image/png;base64,iVBOR..."); // "31:data:image/png;base64,iVBOR...…"
 * ```
 */
export function digestOf(value: string): string {
  return value.length <= 256
    ? value
    : `${value.length}:${value.slice(0, 128)}…${value.slice(-128)}`;
}
