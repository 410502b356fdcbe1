/**
 * Reading a provider's refusal: what its own text says (for the log, never
 * a key), whether it refused the request for its length, and whether it
 * could not find a stored response the request referred to.
 *
 * @module
 */
import { APICallError } from "ai";

/** The provider error behind any thrown value, when there is one. */
export function apiErrorOf(error: unknown): APICallError | null {
  if (APICallError.isInstance(error)) return error;
  const cause = (error as { cause?: unknown })?.cause;
  return APICallError.isInstance(cause) ? cause : null;
}

const MAX_TEXT = 1_000;

/**
 * The provider's status and its own words, for the log: the message of its error body
 * (`error.message` in OpenAI's and Anthropic's shapes), else the body itself, cut short.
 *
 * @example
 * ```ts
 * logger.warn("model request failed", { ...providerErrorFields(error) });
 * ```
 */
export function providerErrorFields(error: unknown): { status?: number; provider_error: string } {
  const api = apiErrorOf(error);
  if (!api) {
    // A stream's own error event reaches the turn as the event's object.
    const message =
      (error as { error?: { message?: unknown }; message?: unknown })?.error?.message ??
        (error as { message?: unknown })?.message;
    return { provider_error: String(message ?? error).slice(0, MAX_TEXT) };
  }
  const data = api.data as
    | { error?: { message?: unknown; type?: unknown; code?: unknown } }
    | undefined;
  const own = typeof data?.error?.message === "string" ? data.error.message : undefined;
  const kind = [data?.error?.type, data?.error?.code].filter((v) => typeof v === "string").join(
    "/",
  );
  const text = own ?? api.responseBody ?? api.message;
  return {
    ...(api.statusCode ? { status: api.statusCode } : {}),
    provider_error: `${kind ? `${kind}: ` : ""}${String(text)}`.slice(0, MAX_TEXT),
  };
}

// What the providers say when a request is too long for the model: OpenAI's code, Anthropic's
// two messages, and what OpenAI-compatible servers (vLLM, llama.cpp, Ollama) commonly answer.
const LENGTH = new RegExp(
  [
    "context_length_exceeded",
    "prompt is too long",
    "exceed context limit",
    "maximum context length",
    "exceeds the context window",
    "exceeds the available context size",
    "context length",
    "too many tokens",
  ].join("|"),
  "i",
);

function texts(error: unknown): string {
  const api = apiErrorOf(error);
  if (api) return `${api.message}\n${api.responseBody ?? ""}\n${JSON.stringify(api.data ?? null)}`;
  try {
    return `${(error as Error)?.message ?? ""}\n${JSON.stringify(error)}`;
  } catch {
    return String(error);
  }
}

/**
 * Whether the provider refused the request as too long for the model's context window.
 *
 * @example
 * ```ts
 * if (isLengthRefusal(error)) await compactAndRetry();
 * ```
 */
export function isLengthRefusal(error: unknown): boolean {
  const status = apiErrorOf(error)?.statusCode;
  if (status !== undefined && status !== 400 && status !== 413 && status !== 500) return false;
  return LENGTH.test(texts(error));
}

/**
 * Whether OpenAI could not find a stored item or response the request referred to (404):
 * retention ended, another project's key, or storage disabled.
 *
 * @example
 * ```ts
 * if (isLostReference(error)) retryWithout(store);
 * ```
 */
export function isLostReference(error: unknown): boolean {
  const api = apiErrorOf(error);
  return api?.statusCode === 404 && /(Item|response) with id .* not found/i.test(texts(error));
}
