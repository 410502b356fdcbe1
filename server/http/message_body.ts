/**
 * `parseMessageBody()` with the host contexts of recent bodies remembered. A
 * page sends the same context turn after turn (and many users the same
 * page), and checking it is most of a body's parse. A body whose
 * `host_context` is, as JSON text, one that parsed cleanly before gets that
 * canonical context (its own object when it was sent in canonical form, else
 * a fresh copy), and only the rest of the body is parsed: a rest of plain
 * fields by the quick check of `_simple_body.ts`, any other by zod. The
 * result is the one a whole parse gives.
 *
 * Contexts that failed are not remembered, so their issues are always
 * reported in full; nor are contexts whose action schemas are unbounded
 * (`bounded_schemas.ts`). A context that is returned has its actions marked
 * as checked, so the engine does not walk their schemas a second time.
 * Bounded: the 256 most recent contexts of up to 128 K characters of JSON
 * each, and at most `KEPT_CHARS` characters of text in all (the oldest go
 * first). The cache holds only what a sender sent; another sender gets an
 * entry only by sending the same bytes.
 *
 * Each context returned is known with its canonical JSON text
 * (`canonicalText()`), so code that needs that text (the page kept beside
 * a session, `server/session/_page.ts`) does not write it again.
 *
 * @module
 */
import { type MessageBody, parseMessageBody, type Result } from "../../protocol/mod.ts";
import { markBounded, schemaIssues } from "../tools/bounded_schemas.ts";
import { simpleBody } from "./_simple_body.ts";

const REMEMBERED = 256;
/** The largest context remembered, in characters of JSON as sent (a data-rich page is 20 to 60 K). */
const LARGEST = 131_072;
/** Characters of text the remembered contexts hold together, sent and canonical. */
export const KEPT_CHARS = 8_388_608;
/** The JSON text of a context as sent, to the JSON text of its canonical form. */
const contexts = new Map<string, string>();
let kept = 0;
/** The canonical JSON text of each context `parseBody()` answered. */
const texts = new WeakMap<object, string>();

function remember(sent: string, canonical: string): void {
  const was = contexts.get(sent);
  if (was !== undefined) {
    contexts.delete(sent);
    kept -= sent.length + was.length;
  }
  contexts.set(sent, canonical);
  kept += sent.length + canonical.length;
  while (contexts.size > REMEMBERED || kept > KEPT_CHARS) {
    const [oldest, text] = contexts.entries().next().value!;
    contexts.delete(oldest);
    kept -= oldest.length + text.length;
  }
}

/**
 * The canonical JSON text of a host context `parseBody()` answered (undefined for any other
 * object).
 *
 * @example
 * ```ts
 * const parsed = parseBody(raw);
 * if (parsed.ok && parsed.value.host_context) canonicalText(parsed.value.host_context);
 * ```
 */
export function canonicalText(context: object): string | undefined {
  return texts.get(context);
}

/**
 * Validates a message body like `parseMessageBody()`, reusing the check of a host context
 * seen before.
 *
 * @example
 * ```ts
 * const parsed = parseBody(await readJson(request, limits));
 * if (!parsed.ok) throw validationError(formatIssues(parsed.issues), parsed.issues);
 * ```
 */
export function parseBody(raw: unknown): Result<MessageBody> {
  // Only the plain spelling is looked up; an alias (hostContext) takes the whole parse.
  const context = typeof raw === "object" && raw !== null && !Array.isArray(raw) &&
      Object.hasOwn(raw, "host_context") && !Object.hasOwn(raw, "hostContext")
    ? (raw as Record<string, unknown>).host_context
    : undefined;
  if (typeof context !== "object" || context === null) return parseRest(raw);
  let sent: string;
  try {
    sent = JSON.stringify(context);
  } catch {
    return parseMessageBody(raw); // not JSON: the parse says what is wrong with it
  }
  if (sent.length > LARGEST) return parseMessageBody(raw);
  const known = contexts.get(sent);
  if (known === undefined) {
    const parsed = parseMessageBody(raw);
    const checked = parsed.ok ? parsed.value.host_context : undefined;
    if (checked && !schemaIssues(checked.actions, "host_context.actions").length) {
      const canonical = JSON.stringify(checked);
      texts.set(checked, canonical);
      remember(sent, canonical);
      markBounded(checked.actions);
    }
    return parsed;
  }
  remember(sent, known); // the most recent go last
  const { host_context: _, ...rest } = raw as Record<string, unknown>;
  const parsed = parseRest(rest);
  if (!parsed.ok) return parsed;
  // Sent in canonical form already (the JSON texts match): the sender's own object serves.
  const hostContext = (known === sent ? context : JSON.parse(known)) as NonNullable<
    MessageBody["host_context"]
  >;
  texts.set(hostContext, known);
  markBounded(hostContext.actions);
  return { ok: true, value: { ...parsed.value, host_context: hostContext } };
}

/** A body without a host context: the quick check of `_simple_body.ts`, else the whole parse. */
function parseRest(raw: unknown): Result<MessageBody> {
  const simple = simpleBody(raw);
  return simple ? { ok: true, value: simple } : parseMessageBody(raw);
}

/**
 * How many host contexts are remembered (for tests).
 *
 * @example
 * ```ts
 * rememberedContexts(); // 0 on a fresh process
 * ```
 */
export function rememberedContexts(): number {
  return contexts.size;
}
