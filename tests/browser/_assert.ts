/**
 * A tiny assert for browser tests (node:assert does not exist in the page).
 *
 * @module
 */

const show = (value: unknown) => {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
};

/** Throws when `condition` is falsy. */
export function ok(condition: unknown, message = "expected a truthy value"): asserts condition {
  if (!condition) throw new Error(message);
}

/** Throws unless `actual === expected`. */
export function equal<T>(actual: T, expected: T, message = ""): void {
  if (actual !== expected) {
    throw new Error(
      `${message ? message + ": " : ""}expected ${show(expected)}, got ${show(actual)}`,
    );
  }
}

/** Throws unless both have the same JSON form. */
export function deepEqual(actual: unknown, expected: unknown, message = ""): void {
  if (show(actual) !== show(expected)) {
    throw new Error(
      `${message ? message + ": " : ""}expected ${show(expected)}, got ${show(actual)}`,
    );
  }
}

/** Throws unless `text` matches `pattern`. */
export function match(text: unknown, pattern: RegExp, message = ""): void {
  if (typeof text !== "string" || !pattern.test(text)) {
    throw new Error(`${message ? message + ": " : ""}expected ${show(text)} to match ${pattern}`);
  }
}

/** Resolves with the error `fn` rejects with; throws when it does not reject. */
export async function rejects(fn: () => unknown, message = "expected a rejection"): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error(message);
}

/** Returns the error `fn` throws synchronously; throws when it does not. */
export function throws(fn: () => unknown, message = "expected an exception"): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error(message);
}
