/**
 * Ids for sessions and messages: UUID version 7 (RFC 9562), the time in milliseconds first and
 * 74 random bits after it. A store keeps its keys in an ordered tree (Deno KV's SQLite file,
 * Postgres's primary key), and a session's rows are keyed by its id, so ids that begin with the
 * time they were made put new sessions' rows beside one another at the tree's end; fully random
 * ids scatter each turn's writes over the whole file (docs/performance.md, thirteenth session).
 * `crypto.getRandomValues()` works outside a secure context too, where `randomUUID()` does not.
 *
 * @example
 * ```ts
 * newId("s-"); // "s-019aed4c-5e2f-7a31-9c4b-0f6e2d8a1b37"
 * ```
 */
export function newId(prefix = ""): string {
  const bytes = new Uint8Array(16);
  // Where there is no Web Crypto (an embedded runtime without it), Math.random stands in.
  const webCrypto: Crypto | undefined = globalThis.crypto;
  if (webCrypto) webCrypto.getRandomValues(bytes);
  else bytes.forEach((_, i) => bytes[i] = Math.random() * 256);
  const ms = Date.now();
  // 48 bits of milliseconds, big-endian (a division per byte: bitwise operators stop at 32 bits).
  for (let i = 0; i < 6; i++) bytes[i] = Math.floor(ms / 2 ** (40 - 8 * i)) & 0xff;
  bytes[6] = 0x70 | (bytes[6] & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8] & 0x3f); // the RFC's variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${prefix}${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${
    hex.slice(16, 20)
  }-${hex.slice(20)}`;
}
