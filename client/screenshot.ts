/**
 * Screenshots of the page or of one element, as screenshot attachments. The
 * DOM-to-image library (modern-screenshot) is imported on first use, so it
 * is a separate chunk that pages without screenshots never load.
 *
 * @module
 */
import type { Attachment } from "./_protocol.ts";

/**
 * Options of `screenshot()`.
 *
 * @example
 * ```ts
 * await host.screenshot({ element: chart, maxWidth: 800, type: "jpeg", quality: 0.7 });
 * ```
 */
export interface ScreenshotOptions {
  /** What to capture. Default: the whole page (`document.documentElement`). */
  element?: Element;
  /** The image is scaled down to at most this width, in pixels. Default 1280. */
  maxWidth?: number;
  /** ...and at most this height. Default 2048. */
  maxHeight?: number;
  /** `png` (default) or `jpeg`. */
  type?: "png" | "jpeg";
  /** JPEG quality, 0 to 1. Default 0.8. */
  quality?: number;
}

/**
 * Renders the page (or an element) to a PNG or JPEG screenshot attachment.
 *
 * @example
 * ```ts
 * const shot = await screenshot({ element: document.querySelector("main")!, maxWidth: 800, type: "jpeg" });
 * await host.send("What do you see?", { attachments: [shot] });
 * ```
 */
export async function screenshot(options: ScreenshotOptions = {}): Promise<Attachment> {
  const { domToCanvas } = await import("modern-screenshot");
  const element = options.element ?? document.documentElement;
  const width = Math.max(1, element.scrollWidth || element.getBoundingClientRect().width);
  const height = Math.max(1, element.scrollHeight || element.getBoundingClientRect().height);
  const scale = Math.min(
    1,
    (options.maxWidth ?? 1280) / width,
    (options.maxHeight ?? 2048) / height,
  );
  const type = options.type ?? "png";
  // The option replaces the element's own background, so only fill what would be transparent (black in a JPEG).
  const transparent = /^(transparent|rgba\(.*, 0\))$/.test(
    getComputedStyle(element).backgroundColor,
  );
  const canvas = await domToCanvas(element, {
    scale,
    width,
    height,
    backgroundColor: transparent ? "#ffffff" : undefined,
  });
  return {
    kind: "image",
    purpose: "screenshot",
    media_type: `image/${type}`,
    data_uri: canvas.toDataURL(`image/${type}`, options.quality ?? 0.8),
  };
}
