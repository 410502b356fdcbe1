/**
 * An AG-UI `RunAgentInput` in Tether's terms: `threadId` is the session; a
 * trailing run of `tool` messages are continuations, one per call the
 * previous run left pending, answered together (an `error` means
 * `tool_outcome: "failed"`); otherwise the last message must be a user
 * message, whose image and document parts become reference attachments.
 * `tools` become host actions for this run, `context` entries become
 * `background`, and a `state` carrying `version: 1` is the host_context.
 *
 * Following AG-UI 1.0 and 1.1 (docs/agui.md has the rule by rule table):
 *
 * - `protocolVersion` is read: a 1.x consumer is served, one of another
 *   major line is refused before the run starts, one that cannot be read is
 *   served with a warning;
 * - members the protocol version does not describe, `resume` entries (Tether
 *   raises no interrupts) and activity messages are passed over with a
 *   warning, never a refusal;
 * - a content part Tether cannot use (audio, video, a provider file handle)
 *   is left out, never a failure; a tool result whose every part was left
 *   out still answers its call, with the empty string;
 * - a tool result's text parts are its text, and an image part given inline
 *   goes to the model the way a screenshot in a host result does (offered
 *   to `look_at_screen`).
 *
 * @module
 */
import { parseBody } from "../http/message_body.ts";
import type { ContentPart, Context, Message, RunAgentInput, Tool } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import {
  formatIssues,
  type HostContext,
  type MessageBody,
  parseHostContext,
  SESSION_ID,
} from "../../protocol/mod.ts";
import { validationError } from "../http/errors.ts";
import { invalid } from "./transport_error.ts";

/** The AG-UI version Tether speaks. */
export const AGUI_VERSION = "1.1";

/**
 * A run planned from an AG-UI input: one message, or the continuations (one per trailing tool message).
 *
 * @example
 * ```ts
 * const plan: AguiPlan = await planAguiRun(input);
 * if (plan.continuation) console.log(plan.bodies.map((b) => b.tool_call_id));
 * ```
 */
export interface AguiPlan {
  threadId: string;
  runId: string;
  bodies: MessageBody[];
  continuation: boolean;
  /** What RUN_STARTED declares: Tether's version, or 1.0 toward a consumer that declared 1.0. */
  protocolVersion: string;
  /** The tools the application offered: the frontend tools, which Tether never answers itself. */
  frontendTools: Set<string>;
  /** The calls this input answers. */
  answered: Set<string>;
  /** What was passed over, for the developer (logged). */
  warnings: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The members `RunAgentInput` describes (1.1). */
const KNOWN = new Set([
  "threadId",
  "runId",
  "parentRunId",
  "protocolVersion",
  "state",
  "messages",
  "tools",
  "context",
  "forwardedProps",
  "resume",
]);

/** AG-UI ids are free strings; Tether's are 1..64 characters, so longer ones are hashed to a stable short id. */
async function shortId(id: string): Promise<string> {
  if (id.length >= 1 && id.length <= 64) return id;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)),
  );
  return `agui_${[...digest.slice(0, 20)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * What RUN_STARTED declares for a consumer's declared version; throws a 422
 * for a major line Tether does not implement.
 *
 * @example
 * ```ts
 * declaredVersion("1.0", []); // "1.0"
 * declaredVersion(undefined, []); // "1.1"
 * ```
 */
export function declaredVersion(consumer: string | undefined, warnings: string[]): string {
  if (consumer === undefined) return AGUI_VERSION;
  const m = /^(\d+)\.(\d+)$/.exec(consumer);
  if (!m) {
    warnings.push(`protocolVersion "${consumer}" cannot be read; serving AG-UI ${AGUI_VERSION}`);
    return AGUI_VERSION;
  }
  if (Number(m[1]) !== 1) {
    throw invalid(
      `protocolVersion ${consumer} is of a major line this agent does not speak; it speaks AG-UI ${AGUI_VERSION}.`,
      "protocolVersion",
    );
  }
  if (Number(m[2]) > 1) {
    warnings.push(`the consumer speaks AG-UI ${consumer}; this agent speaks ${AGUI_VERSION}`);
    return AGUI_VERSION;
  }
  // Nothing Tether sends differs between 1.0 and 1.1, so toward a 1.0 consumer the stream is 1.0.
  return `1.${m[2]}`;
}

function hostContext(input: RunAgentInput): HostContext | undefined {
  const state = isObject(input.state) && input.state.version === 1 ? input.state : null;
  const tools: Tool[] = input.tools ?? [];
  const context: Context[] = input.context ?? [];
  if (!state && !tools.length && !context.length) return undefined;
  const candidate: Record<string, unknown> = { version: 1, ...state };
  if (tools.length) {
    const declared = Array.isArray(candidate.actions)
      ? (candidate.actions as { name?: unknown }[])
      : [];
    const names = new Set(tools.map((t) => t.name));
    candidate.actions = [
      ...declared.filter((a) => !names.has(a.name as string)),
      ...tools.map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters ?? { type: "object", properties: {} },
      })),
    ];
  }
  if (context.length) {
    const background: Record<string, unknown> = isObject(candidate.background)
      ? { ...candidate.background }
      : {};
    for (const [i, entry] of context.entries()) {
      const name = entry.description || `context ${i + 1}`;
      background[name in background ? `${name} (${i + 1})` : name] = { state: entry.value };
    }
    candidate.background = background;
  }
  const parsed = parseHostContext(candidate);
  if (!parsed.ok) {
    throw validationError(
      `${formatIssues(parsed.issues, "host_context")} (built from state, tools and context)`,
      parsed.issues,
    );
  }
  return parsed.value;
}

/** A part Tether cannot pass on: said once, left out. */
function leaveOut(part: ContentPart, where: string, warnings: string[]): void {
  const source = "source" in part ? (part.source as { type?: string }).type : undefined;
  warnings.push(
    source === "file"
      ? `${where}: a ${part.type} part held by a provider file handle was left out (Tether cannot resolve handles)`
      : `${where}: a ${part.type} part was left out (Tether passes on text, images and documents)`,
  );
}

/**
 * A tool message's content as a host result: text (JSON when it parses), or
 * with inline images `{text, images: [data URIs]}`, whose images the runtime
 * offers to `look_at_screen`.
 */
function toolResult(
  message: Extract<Message, { role: "tool" }>,
  where: string,
  warnings: string[],
): unknown {
  const texts: string[] = [];
  const images: string[] = [];
  if (typeof message.content === "string") texts.push(message.content);
  else {
    for (const [j, part] of message.content.entries()) {
      if (part.type === "text") texts.push(part.text);
      else if (part.type === "image" && part.source.type === "data") {
        images.push(`data:${part.source.mimeType};base64,${part.source.value}`);
      } else if (part.type === "image" && part.source.type === "url") {
        texts.push(`[image: ${part.source.value}]`);
      } else leaveOut(part, `${where}.content.${j}`, warnings);
    }
  }
  const text = texts.join("");
  let value: unknown = text;
  try {
    value = text ? JSON.parse(text) : text;
  } catch { /* a plain text result */ }
  if (images.length) value = { ...(text ? { text: value } : {}), images };
  if (!message.error) return value;
  return text || images.length ? { error: message.error, content: value } : message.error;
}

function userContent(
  content: string | ContentPart[],
  index: number,
  warnings: string[],
): { text: string; attachments: Record<string, unknown>[] } {
  if (typeof content === "string") return { text: content, attachments: [] };
  const texts: string[] = [];
  const attachments: Record<string, unknown>[] = [];
  for (const [j, part] of content.entries()) {
    const where = `messages.${index}.content.${j}`;
    if (part.type === "text") {
      texts.push(part.text);
      continue;
    }
    if ((part.type !== "image" && part.type !== "document") || part.source.type === "file") {
      leaveOut(part, where, warnings);
      continue;
    }
    const { source } = part;
    const base = {
      kind: part.type,
      purpose: "reference",
      ...(source.mimeType ? { media_type: source.mimeType } : {}),
    };
    if (source.type === "data") {
      attachments.push({ ...base, data_uri: `data:${source.mimeType};base64,${source.value}` });
    } else attachments.push({ ...base, url: source.value });
  }
  return { text: texts.join("\n"), attachments };
}

/** The message body of `raw`, carrying `context` as it is: it was validated once already. */
function canonical(raw: Record<string, unknown>, context?: HostContext | null): MessageBody {
  const parsed = parseBody(raw);
  if (!parsed.ok) throw validationError(formatIssues(parsed.issues), parsed.issues);
  return context ? { ...parsed.value, host_context: context } : parsed.value;
}

/**
 * Validates a RunAgentInput and plans the message(s) it stands for; throws a 422 naming the problem.
 *
 * @example
 * ```ts
 * const plan = await planAguiRun({ threadId: "t1", runId: "r1", messages: [{ id: "m1", role: "user", content: "hi" }] });
 * plan.bodies[0].content; // "hi"
 * ```
 */
export async function planAguiRun(raw: unknown): Promise<AguiPlan> {
  const checked = RunAgentInputSchema.safeParse(raw);
  if (!checked.success) {
    const issues = checked.error.issues.map((i) => ({
      path: i.path.join("."),
      message: i.message,
    }));
    throw validationError(`The AG-UI RunAgentInput is invalid: ${formatIssues(issues)}`, issues);
  }
  const input = checked.data as RunAgentInput;
  const { threadId, runId } = input;
  const warnings: string[] = [];
  for (const key of Object.keys(raw as object)) {
    if (!KNOWN.has(key)) warnings.push(`the input member "${key}" is not AG-UI 1.1's; passed over`);
  }
  const protocolVersion = declaredVersion(input.protocolVersion, warnings);
  if (input.resume?.length) {
    warnings.push(
      `resume answers ${input.resume.length} interrupt(s), but this agent raises none; passed over`,
    );
  }
  if (!SESSION_ID.test(threadId)) {
    throw invalid(
      "threadId is the session id: 1 to 64 letters, digits, '.', '_', ':' or '-'; choose such an id.",
      "threadId",
    );
  }
  // Activity messages are the consumer's rendering material, never conversation.
  const messages = input.messages.filter((m) => (m.role as string) !== "activity");
  const context = hostContext(input);
  const frontendTools = new Set((context?.actions ?? []).map((a) => a.name));
  let first = messages.length;
  while (first > 0 && messages[first - 1].role === "tool") first--;
  if (first < messages.length) {
    const tools = messages.slice(first) as Extract<Message, { role: "tool" }>[];
    const bodies = await Promise.all(tools.map(async (m, i) =>
      canonical({
        id: await shortId(m.id),
        session_id: threadId,
        content: "",
        tool_call_id: m.toolCallId,
        tool_result: toolResult(m, `messages.${first + i}`, warnings),
        tool_outcome: m.error ? "failed" : "success",
        // Only the last continuation resumes the model, so it carries the context.
      }, i === tools.length - 1 ? context : null)
    ));
    return {
      threadId,
      runId,
      bodies,
      continuation: true,
      protocolVersion,
      frontendTools,
      answered: new Set(tools.map((m) => m.toolCallId)),
      warnings,
    };
  }
  const last = messages.at(-1);
  if (!last || last.role !== "user") {
    const got = last ? `a ${last.role} message` : "no messages";
    throw invalid(
      `The last message must be a user message or a run of tool messages answering pending calls; got ${got}.`,
      "messages",
    );
  }
  const { text, attachments } = userContent(last.content, messages.length - 1, warnings);
  const body = canonical({
    id: await shortId(last.id),
    session_id: threadId,
    content: text,
    ...(attachments.length ? { attachments } : {}),
  }, context);
  return {
    threadId,
    runId,
    bodies: [body],
    continuation: false,
    protocolVersion,
    frontendTools,
    answered: new Set(),
    warnings,
  };
}
