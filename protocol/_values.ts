/**
 * Small helpers about plain values and their wording; no zod here, so the
 * zod-free parts of the protocol (limits, JSON schema) stay zod-free.
 *
 * @module
 */

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Names a value's JSON type the way a message should ("an array", "null"). */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return Number.isInteger(value) ? "a whole number" : "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/** Groups digits so limits read well: 12000000 to "12,000,000". */
export function grouped(n: number | bigint): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Names the field at `path` for a message: its key, or "list[2]" for an item; `root` when empty. */
export function label(path: readonly PropertyKey[], root: string): string {
  const last = path[path.length - 1];
  if (last === undefined) return root;
  if (typeof last !== "number") return String(last);
  const parent = path[path.length - 2];
  return `${parent === undefined ? root : String(parent)}[${last}]`;
}

type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A compile-time proof that a written-out type is exactly what its schema
 * infers: `true` when A and B are assignable both ways and have the same
 * keys. The protocol's public types are written out (JSR refuses inferred
 * types in a published API), and each schema module states
 * `const _x: Same<z.infer<typeof raw>, T> = true` so the two cannot drift.
 */
export type Same<A, B> = Both<A, B> extends true ? Both<keyof A, keyof B> : false;
