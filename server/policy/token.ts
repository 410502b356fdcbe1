/**
 * Approval tokens of the embedded engine: single-use, bound by an HMAC (with
 * a server secret) to the request id, a fresh nonce and the digest of
 * everything the approval covers (agent, user, action, policy versions and
 * every context field except `approval_token`, `request_id` and `trace_id`).
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * JSON with object keys sorted at every level, so equal values digest equally.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).filter((k) =>
      (value as Record<string, unknown>)[k] !== undefined
    ).sort();
    return `{${
      keys.map((k) =>
        `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`
      )
        .join(",")
    }}`;
  }
  return JSON.stringify(value ?? null);
}

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");

/** What an approval is bound to. */
export interface Binding {
  agent_id: string;
  user_id: string | null;
  action: string;
  /** `id:version` of every policy in force. */
  policy_versions: string[];
  context: Record<string, unknown>;
}

/**
 * The SHA-256 digest (hex) of a binding, leaving out the fields a retry may change.
 *
 * @example
 * ```ts
 * const digest = await bindingDigest({ agent_id: "a", user_id: "u", action: "tool_call", policy_versions: [], context: {} });
 * ```
 */
export async function bindingDigest(binding: Binding): Promise<string> {
  const { approval_token: _a, request_id: _r, trace_id: _t, ...context } = binding.context;
  const text = canonicalJson({ ...binding, context });
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * Imports the server secret as an HMAC-SHA256 key.
 *
 * @example
 * ```ts
 * const key = await hmacKey("a long random secret");
 * ```
 */
export function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/**
 * The token for an approved request: `<request_id>.<nonce>.<mac>`.
 *
 * @example
 * ```ts
 * const token = await signToken(key, "req-1", "n0nce", digest);
 * ```
 */
export async function signToken(
  key: CryptoKey,
  requestId: string,
  nonce: string,
  digest: string,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    encoder.encode(`${requestId}.${nonce}.${digest}`),
  );
  return `${requestId}.${nonce}.${base64url(mac)}`;
}

/**
 * The request id a token names, or null when it is not shaped like one of ours.
 *
 * @example
 * ```ts
 * tokenRequestId("req-1.n0nce.mac"); // "req-1"
 * ```
 */
export function tokenRequestId(token: string): string | null {
  const parts = token.split(".");
  return parts.length === 3 && parts.every((p) => /^[A-Za-z0-9_-]{1,128}$/.test(p))
    ? parts[0]
    : null;
}

/**
 * Compares two strings in time that depends only on their lengths.
 *
 * @example
 * ```ts
 * sameText("a", "a"); // true
 * ```
 */
export function sameText(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
