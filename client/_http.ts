/**
 * Small fetch helpers shared by the transports and the host: URLs under the
 * runtime, the runtime's JSON errors as `TetherError`, network failures as
 * `TetherError` of type `network`.
 *
 * @module
 */
import { TetherError } from "./errors.ts";

/** Headers to send with every request (a bearer token, say). */
export type HeadersSource = Record<string, string> | (() => Record<string, string>);

/** Resolves `path` against the runtime URL, keeping a path prefix the runtime is mounted under. */
export const runtimeHref = (runtimeUrl: string, path: string): string =>
  new URL(path.replace(/^\//, ""), runtimeUrl.endsWith("/") ? runtimeUrl : runtimeUrl + "/").href;

/** The headers of a source. */
export const headersOf = (source: HeadersSource | undefined): Record<string, string> =>
  typeof source === "function" ? source() : { ...source };

/** Turns a non-2xx response into a TetherError carrying the runtime's type, message and issues. */
export async function errorFromResponse(response: Response): Promise<TetherError> {
  let error: { type?: string; message?: string; issues?: { path: string; message: string }[] } = {};
  try {
    error = (await response.json())?.error ?? {};
  } catch {
    // A proxy's HTML error page: keep the status.
  }
  return new TetherError(
    response.status,
    error.type ?? (response.status === 409 ? "session_error" : "http"),
    error.message ?? `The runtime answered ${response.status} ${response.statusText}.`,
    error.issues ?? [],
  );
}

/** fetch() that turns a network failure into a TetherError of type `network`. */
export async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new TetherError(
      0,
      "network",
      `Could not reach the runtime at ${url}: ${(error as Error).message}`,
    );
  }
}

/** Sends JSON and returns the parsed JSON answer; a non-2xx answer throws a TetherError. */
export async function jsonRequest<T>(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await request(url, {
    method,
    headers: {
      ...headers,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await errorFromResponse(response);
  return await response.json() as T;
}
