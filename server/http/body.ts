/**
 * Reads a JSON request body under limits: a size cap (413 before parsing), a
 * deadline for the whole body (408, so a client trickling bytes cannot hold
 * a connection), a cap on bodies being read at once (503), and a nesting
 * bound (422 naming the field) checked before anything recursive runs.
 *
 * @module
 */
import type { Limits } from "../config.ts";
import { TetherError } from "./errors.ts";
import { assertDepthText, DEFAULT_MAX_JSON_DEPTH } from "./json_depth.ts";

/** The limits a body is read under; a bare number is the byte cap alone (other limits default). */
export type BodyLimits = Pick<Limits, "maxBodyBytes"> & Partial<Limits>;

/** Default milliseconds to receive a whole body, `LIMITS__BODY_TIMEOUT_MS`. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** Default bodies read at once per runtime, `LIMITS__MAX_BODY_READS`. */
export const DEFAULT_MAX_BODY_READS = 64;

// One count of bodies in flight per runtime: its limits object is created once per runtime.
const inFlight = new WeakMap<object, { count: number }>();

function countFor(limits: object): { count: number } {
  let entry = inFlight.get(limits);
  if (!entry) inFlight.set(limits, entry = { count: 0 });
  return entry;
}

async function readBytes(request: Request, maxBytes: number, timeoutMs: number) {
  const tooBig = () =>
    new TetherError(
      413,
      "payload_too_large",
      `The request body is larger than ${maxBytes} bytes; send less (the limit is LIMITS__MAX_BODY_BYTES).`,
    );
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) throw tooBig();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() =>
      reject(
        new TetherError(
          408,
          "request_timeout",
          `The request body did not arrive within ${timeoutMs} ms; send it at once (the limit is LIMITS__BODY_TIMEOUT_MS).`,
        ),
      ), timeoutMs);
  });
  if (declared >= 0) {
    // A declared length bounds the body (HTTP framing stops it there), so it is read whole:
    // @hono/node-server then reads the socket directly, with no WHATWG stream in between.
    try {
      return new Uint8Array(await Promise.race([request.arrayBuffer(), deadline]));
    } finally {
      clearTimeout(timer);
    }
  }
  if (!request.body) {
    clearTimeout(timer);
    throw new TetherError(400, "validation", "The request has no body; send a JSON object.");
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooBig();
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return bytes;
}

const utf8 = new TextDecoder();

/**
 * Reads, parses and depth-checks the body under `limits` (the runtime's `Limits`, or a byte cap).
 *
 * @example
 * ```ts
 * const body = await readJson(request, options.limits);
 * ```
 */
export async function readJson(request: Request, limits: number | BodyLimits): Promise<unknown> {
  const all: BodyLimits = typeof limits === "number" ? { maxBodyBytes: limits } : limits;
  const reads = countFor(all);
  const maxReads = all.maxBodyReads ?? DEFAULT_MAX_BODY_READS;
  if (reads.count >= maxReads) {
    throw new TetherError(
      503,
      "busy",
      `The runtime is already receiving ${maxReads} request bodies; retry shortly (the limit is LIMITS__MAX_BODY_READS).`,
    );
  }
  reads.count++;
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(
      request,
      all.maxBodyBytes,
      all.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    );
  } finally {
    reads.count--;
  }
  const text = utf8.decode(bytes);
  assertDepthText(text, all.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
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
