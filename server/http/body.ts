/**
 * Reads a JSON request body under limits: a size cap (413 before parsing), a
 * deadline for the whole body (408, so a client trickling bytes cannot hold
 * a connection), a cap on bodies being read at once from one client (429)
 * under a ceiling for the whole runtime (503), and a nesting bound (422
 * naming the field) checked before anything recursive runs.
 *
 * A client is a principal at one address: behind a gateway every caller has
 * its own principal, in `trusted_local` every address is its own client. A
 * client may read more than its share while less than half the ceiling is in
 * use (a page sending a burst is not refused on an idle runtime); past that
 * it holds at most its share, so one client's slow bodies leave at least half
 * of the ceiling to the others.
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
/** Default bodies read at once per client, `LIMITS__MAX_BODY_READS_PER_CLIENT`. */
export const DEFAULT_MAX_BODY_READS_PER_CLIENT = 8;

interface Reads {
  count: number;
  /** Bodies in flight per client; a client with none has no entry, so the map stays bounded. */
  clients: Map<string, number>;
}

// One count of bodies in flight per runtime: its limits object is created once per runtime.
const inFlight = new WeakMap<object, Reads>();

function countFor(limits: object): Reads {
  let entry = inFlight.get(limits);
  if (!entry) inFlight.set(limits, entry = { count: 0, clients: new Map() });
  return entry;
}

/** Takes a reading slot for `client`, or throws the 429 or 503 that refuses it. */
function admit(reads: Reads, all: BodyLimits, client: string): () => void {
  const perClient = all.maxBodyReadsPerClient ?? DEFAULT_MAX_BODY_READS_PER_CLIENT;
  const mine = reads.clients.get(client) ?? 0;
  const maxReads = all.maxBodyReads ?? DEFAULT_MAX_BODY_READS;
  if (mine >= perClient && reads.count >= maxReads / 2) {
    throw new TetherError(
      429,
      "busy",
      `This client is already sending ${perClient} request bodies; wait for one to finish (the limit is LIMITS__MAX_BODY_READS_PER_CLIENT).`,
    );
  }
  if (reads.count >= maxReads) {
    throw new TetherError(
      503,
      "busy",
      `The runtime is already receiving ${maxReads} request bodies; retry shortly (the limit is LIMITS__MAX_BODY_READS).`,
    );
  }
  reads.count++;
  reads.clients.set(client, mine + 1);
  return () => {
    reads.count--;
    const left = reads.clients.get(client)! - 1;
    if (left) reads.clients.set(client, left);
    else reads.clients.delete(client);
  };
}

/** The body's text under the size cap and the time limit. */
async function readBody(request: Request, maxBytes: number, timeoutMs: number): Promise<string> {
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
    // @hono/node-server then reads the socket directly, with no WHATWG stream in between, and
    // decodes the bytes it read (an ArrayBuffer would be a copy of them, decoded after).
    try {
      return await Promise.race([request.text(), deadline]);
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
  return utf8.decode(bytes);
}

const utf8 = new TextDecoder();

/** `limits` as `BodyLimits` (a number is the byte cap alone). */
const bodyLimits = (limits: number | BodyLimits): BodyLimits =>
  typeof limits === "number" ? { maxBodyBytes: limits } : limits;

/**
 * Reads the body as text under `limits` (the size cap, the time limit and the share of body
 * reads `readJson` keeps), for a route that parses it itself; throws a TetherError (413, 408,
 * 503 or 429) as `readJson` does.
 *
 * @example
 * ```ts
 * const text = await readText(request, 1_048_576);
 * ```
 */
export async function readText(
  request: Request,
  limits: number | BodyLimits,
  client = "",
): Promise<string> {
  const all = bodyLimits(limits);
  const release = admit(countFor(all), all, client);
  try {
    return await readBody(
      request,
      all.maxBodyBytes,
      all.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    );
  } finally {
    release();
  }
}

/**
 * Reads, parses and depth-checks the body under `limits` (the runtime's `Limits`, or a byte cap).
 * `client` names who sends it (see the module doc); bodies without one share one count.
 *
 * @example
 * ```ts
 * const body = await readJson(request, options.limits, "ann@203.0.113.7");
 * ```
 */
export async function readJson(
  request: Request,
  limits: number | BodyLimits,
  client = "",
): Promise<unknown> {
  const all = bodyLimits(limits);
  const text = await readText(request, all, client);
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
