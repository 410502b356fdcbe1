/**
 * A compile-time proof that a written-out type is exactly what its schema
 * infers. The protocol's public types are written out (JSR refuses inferred
 * types in a published API), and each schema module states
 * `const _x: Same<z.infer<typeof raw>, T> = true` so the two cannot drift.
 *
 * @module
 */

type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** `true` when A and B are assignable both ways and have the same keys, else `false`. */
export type Same<A, B> = Both<A, B> extends true ? Both<keyof A, keyof B> : false;
