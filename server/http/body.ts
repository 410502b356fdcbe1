/**
 * Reads a JSON request body under a size cap: 413 before parsing when the
 * body is too big, 400 when it is not JSON.
 *
 * @module
 */
import { TetherError } from "./errors.ts";

/**
 * Reads and parses the body, refusing more than `maxBytes`.
 *
 * @example
 * ```ts
 * const body = await readJson(request, 32 * 1024 * 1024);
 * ```
 */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const tooBig = () =>
    new TetherError(
      413,
      "payload_too_large",
      `The request body is larger than ${maxBytes} bytes; send less (the limit is LIMITS__MAX_BODY_BYTES).`,
    );
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) throw tooBig();
  if (!request.body) {
    throw new TetherError(400, "validation", "The request has no body; send a JSON object.");
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TetherError(
      400,
      "validation",
      `The request body is not valid JSON (${(error as Error).message}).`,
    );
  }
}
