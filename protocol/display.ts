/**
 * Preview cards of a tool result (`display`, remote tools contract) and
 * their limits. No schema is built here: the elements import the limits
 * without carrying any zod.
 *
 * @module
 */

/**
 * A preview card of a tool result's `display` (sanitised by the runtime;
 * clients check it again before rendering).
 *
 * @example
 * ```ts
 * const card: DisplayCard = { title: "RTX 4070", url: "https://shop.example.com/p/4070", badges: ["8 GB"] };
 * ```
 */
export interface DisplayCard {
  title: string;
  /** An absolute http(s) link. */
  url: string;
  /** An absolute https image link. */
  image?: string;
  subtitle?: string;
  badges?: string[];
}

/**
 * The contract's limits on `display` cards, applied by the runtime and again by clients:
 * characters of each text, badges per card, cards per tool result and per turn.
 *
 * @example
 * ```ts
 * DISPLAY_LIMITS.perTurn; // 8
 * ```
 */
export const DISPLAY_LIMITS = {
  title: 120,
  subtitle: 100,
  badge: 48,
  badges: 4,
  perResult: 6,
  perTurn: 8,
} as const;
