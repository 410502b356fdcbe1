/**
 * Where a registered tool server may live: an http(s) URL whose host, and
 * every address it resolves to, is public, unless the operator allowed it
 * (`REMOTE_TOOLS__ALLOWED_HOSTS`). A registration must not become a way to
 * reach the runtime's own network (loopback, private, link-local ranges).
 * The name is resolved once: the connection is made to an address the check
 * saw (`resolveBaseUrl`), never resolved again.
 *
 * @module
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** Resolves a host name to its addresses. */
export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

function v4(address: string): number[] | null {
  const parts = address.split(".").map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255)
    ? parts
    : null;
}

function privateV4([a, b]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19));
}

/** Expands an IPv6 address to its eight 16-bit groups. */
function groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/^\[|\]$/g, "").split("%")[0];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const p = v4(dotted[1]);
    if (!p) return null;
    text = text.slice(0, -dotted[1].length) +
      `${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = text.includes("::") ? 8 - h.length - t.length : 0;
  const all = [...h, ...Array(fill).fill("0"), ...t].map((g) => parseInt(g, 16));
  return all.length === 8 && all.every((g) => g >= 0 && g <= 0xffff) ? all : null;
}

/**
 * Whether an IP address is one a registration may not reach without permission:
 * unspecified, loopback, private, link-local and site-local, carrier-grade NAT,
 * multicast, reserved, and IPv6 forms that embed such an IPv4 address (mapped,
 * translated, compatible, NAT64, 6to4, Teredo).
 *
 * @example
 * ```ts
 * isPrivateAddress("10.0.0.5"); // true
 * isPrivateAddress("::ffff:127.0.0.1"); // true
 * isPrivateAddress("::ffff:0:7f00:1"); // true
 * isPrivateAddress("93.184.216.34"); // false
 * ```
 */
export function isPrivateAddress(address: string): boolean {
  const four = v4(address);
  if (four) return privateV4(four);
  const g = groups(address);
  if (!g) return true; // Not an address we understand: refuse rather than guess.
  const embedded = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    return g[5] === 0 && g[6] === 0 && g[7] <= 1 ? true : privateV4(embedded);
  }
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT): the embedded address decides, as for mapped ones.
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0) {
    return privateV4(embedded);
  }
  if (g[0] === 0x64 && g[1] === 0xff9b) return privateV4(embedded); // NAT64
  return (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xffc0) === 0xfec0 || // site-local (deprecated, still routed inside sites)
    (g[0] === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) || // discard-only
    (g[0] === 0x2001 && g[1] === 0) || // Teredo embeds an IPv4 address
    (g[0] & 0xff00) === 0xff00 || // multicast
    g[0] === 0x2002 || // 6to4 may embed anything
    (g[0] === 0x2001 && g[1] === 0x0db8); // documentation
}

/**
 * Checks a tool server's base URL; returns the normalised URL (no trailing
 * slash) or throws an Error saying what to change.
 *
 * @example
 * ```ts
 * await checkBaseUrl("https://app.example.com/internal/assistant", []);
 * await checkBaseUrl("http://127.0.0.1:7200", ["127.0.0.1"]); // allowed by configuration
 * ```
 */
export async function checkBaseUrl(
  raw: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
): Promise<string> {
  return (await resolveBaseUrl(raw, allowedHosts, resolve)).url;
}

/**
 * Checks a tool server's base URL as {@linkcode checkBaseUrl} does, and returns the address the
 * connection must use: the first of the addresses the check resolved (every one of them checked).
 * Connecting there, not to the name, means a name that answers a public address to the check and
 * a private one to the connection (DNS rebinding) reaches only the address that was checked.
 *
 * @example
 * ```ts
 * const { url, address } = await resolveBaseUrl("https://app.example.com/assistant", []);
 * ```
 */
export async function resolveBaseUrl(
  raw: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
): Promise<{ url: string; address: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      "base_url must be an absolute http(s) URL, like https://app.example.com/assistant.",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`base_url must use http or https, not ${url.protocol.replace(":", "")}.`);
  }
  if (url.username || url.password) {
    throw new Error("base_url must not carry a user name or password; use the secret field.");
  }
  if (url.search || url.hash) throw new Error("base_url must not carry a query or a fragment.");
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const allowed = new Set(allowedHosts.map((h) => h.replace(/^\[|\]$/g, "").toLowerCase()));
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new Error(`The host of base_url (${host}) could not be resolved.`);
  }
  if (!addresses.length) throw new Error(`The host of base_url (${host}) has no address.`);
  if (!allowed.has(host)) {
    const blocked = addresses.find((a) => !allowed.has(a.toLowerCase()) && isPrivateAddress(a));
    if (blocked) {
      throw new Error(
        `base_url reaches ${blocked}, a private, loopback or link-local address; add the host to REMOTE_TOOLS__ALLOWED_HOSTS if it is meant to.`,
      );
    }
  }
  return { url: url.href.replace(/\/+$/, ""), address: addresses[0] };
}
