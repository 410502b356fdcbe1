/**
 * Screenshots inside tool results: removed from what the model reads and
 * offered to look_at_screen instead. Screenshots are never stored; the latest
 * one of each session lives in process memory only.
 *
 * @module
 */

const IMAGE_URI = /^data:image\/[a-z0-9.+-]+;base64,/i;
const PLACEHOLDER = "[screenshot removed: call look_at_screen to see it]";

/**
 * Replaces every image data URI in a JSON value with a placeholder and returns the last one found.
 *
 * @example
 * ```ts
 * const { value, screenshot } = extractScreenshots({ shot: "data:image/png;base64,AA==" });
 * ```
 */
export function extractScreenshots(input: unknown): { value: unknown; screenshot?: string } {
  let screenshot: string | undefined;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (IMAGE_URI.test(v)) {
        screenshot = v;
        return PLACEHOLDER;
      }
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  const value = walk(input);
  return { value, screenshot };
}

/**
 * The latest screenshot per session, bounded in count, process memory only.
 *
 * @example
 * ```ts
 * const shots = new ScreenshotCache(100);
 * shots.set("s1", "data:image/png;base64,AA==");
 * ```
 */
export class ScreenshotCache {
  #max: number;
  #map = new Map<string, string>();
  constructor(max = 500) {
    this.#max = max;
  }
  /** Remembers the latest screenshot of a session. */
  set(sessionId: string, uri: string): void {
    this.#map.delete(sessionId);
    this.#map.set(sessionId, uri);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value!);
  }
  /** Remembers the last screenshot among attachments, if there is one. */
  remember(sessionId: string, attachments: { purpose?: string; data_uri?: string }[]): void {
    let shot: string | undefined;
    for (const a of attachments) if (a.purpose === "screenshot" && a.data_uri) shot = a.data_uri;
    if (shot) this.set(sessionId, shot);
  }

  /** The latest screenshot of a session, if any. */
  get(sessionId: string): string | undefined {
    return this.#map.get(sessionId);
  }
  /** Forgets a session. */
  delete(sessionId: string): void {
    this.#map.delete(sessionId);
  }
}
