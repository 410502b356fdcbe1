/**
 * How the SDK words, and recognises, a host action the user declined (Cancel
 * on its confirmation). The wire has only `success` and `failed` for a host's
 * outcome, so a decline goes out as `failed` with this sentence, and the
 * state shows such a call as cancelled (neutral), also after a reload.
 *
 * @module
 */

const DECLINED = /^The user cancelled \S+; nothing was changed\.?$/;

/**
 * The result a declined host action sends: a sentence the model can read.
 *
 * @example
 * ```ts
 * declinedResult("create_issue"); // "The user cancelled create_issue; nothing was changed."
 * ```
 */
export const declinedResult = (name: string): string =>
  `The user cancelled ${name}; nothing was changed.`;

/**
 * Whether a failed call's result is the SDK's own decline sentence.
 *
 * @example
 * ```ts
 * isDeclined("The user cancelled create_issue; nothing was changed."); // true
 * ```
 */
export const isDeclined = (result: unknown): boolean =>
  typeof result === "string" && DECLINED.test(result);
