// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime and the page
/**
 * Browser-side helpers: where the test runtime is, fresh ids, polling, and
 * the runtime's own view of a session (read over plain HTTP).
 *
 * @module
 */

/** The runtime's own URL (another origin) and the same runtime through the test server (this origin). */
export interface RuntimeUrls {
  url: string;
  proxied: string;
}

let urls: Promise<RuntimeUrls> | undefined;

/** Where the runtime the test setup started is. */
export const runtimeUrls = (): Promise<RuntimeUrls> =>
  urls ??= fetch("/runtime-url").then((r) => r.json()).then((body) => {
    if (body.error) throw new Error(`The test runtime is not running: ${body.error}`);
    return body;
  });

/** A session id no other test uses. */
export const freshSession = (label: string): string =>
  `${label}-${crypto.randomUUID().slice(0, 8)}`;

/** Resolves once `check()` returns a truthy value; rejects after `timeout` ms. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeout = 10_000,
  what = "condition",
): Promise<T> {
  const end = Date.now() + timeout;
  while (true) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `GET /api/sessions/{id}` as JSON (null for 404). */
export async function sessionInfo(base: string, id: string): Promise<Record<string, any> | null> {
  const response = await fetch(`${base}/api/sessions/${encodeURIComponent(id)}`);
  if (response.status === 404) return null;
  return await response.json();
}

/** `GET /api/sessions/{id}/messages` as JSON. */
export async function sessionMessages(base: string, id: string): Promise<any[]> {
  const response = await fetch(`${base}/api/sessions/${encodeURIComponent(id)}/messages`);
  return (await response.json()).messages;
}

/** Whether the runtime serves the Socket.IO namespace (the transports may land after the core). */
export async function hasSocketIo(base: string): Promise<boolean> {
  const response = await fetch(`${base}/socket.io/?EIO=4&transport=polling`).catch(() => null);
  return !!response && response.ok;
}
