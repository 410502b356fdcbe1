/**
 * An AG-UI `RunAgentInput` in Tether's terms: `threadId` is the session; a
 * trailing run of `tool` messages are continuations (an `error` means
 * `tool_outcome: "failed"`); otherwise the last message must be a user
 * message, whose image and document parts become reference attachments.
 * `tools` become host actions for this run, `context` entries become
 * `background`, and a `state` carrying `version: 1` is the host_context.
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
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** AG-UI ids are free strings; Tether's are 1..64 characters, so longer ones are hashed to a stable short id. */
async function shortId(id: string): Promise<string> {
  if (id.length >= 1 && id.length <= 64) return id;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)),
  );
  return `agui_${[...digest.slice(0, 20)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
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

function toolResult(message: Extract<Message, { role: "tool" }>): unknown {
  const text = typeof message.content === "string"
    ? message.content
    : message.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  let value: unknown = text;
  try {
    value = text ? JSON.parse(text) : text;
  } catch { /* a plain text result */ }
  if (!message.error) return value;
  return text ? { error: message.error, content: value } : message.error;
}

function userContent(
  content: string | ContentPart[],
  index: number,
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
    if (part.type !== "image" && part.type !== "document") {
      throw invalid(
        `${where}: ${part.type} parts are not supported; send text, image or document parts.`,
        where,
      );
    }
    const { source } = part;
    const base = {
      kind: part.type,
      purpose: "reference",
      ...(source.mimeType ? { media_type: source.mimeType } : {}),
    };
    if (source.type === "data") {
      attachments.push({ ...base, data_uri: `data:${source.mimeType};base64,${source.value}` });
    } else if (source.type === "url") attachments.push({ ...base, url: source.value });
    else {throw invalid(
        `${where}: file sources are not supported; send the ${part.type} inline (data) or by url.`,
        `${where}.source`,
      );}
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
  const { threadId, runId, messages } = input;
  if (!SESSION_ID.test(threadId)) {
    throw invalid(
      "threadId is the session id: 1 to 64 letters, digits, '.', '_', ':' or '-'; choose such an id.",
      "threadId",
    );
  }
  const context = hostContext(input);
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
        tool_result: toolResult(m),
        tool_outcome: m.error ? "failed" : "success",
        // Only the last continuation resumes the model, so it carries the context.
      }, i === tools.length - 1 ? context : null)
    ));
    return { threadId, runId, bodies, continuation: true };
  }
  const last = messages.at(-1);
  if (!last || last.role !== "user") {
    const got = last ? `a ${last.role} message` : "no messages";
    throw invalid(
      `The last message must be a user message or a run of tool messages answering pending calls; got ${got}.`,
      "messages",
    );
  }
  const { text, attachments } = userContent(last.content, messages.length - 1);
  const body = canonical({
    id: await shortId(last.id),
    session_id: threadId,
    content: text,
    ...(attachments.length ? { attachments } : {}),
  }, context);
  return { threadId, runId, bodies: [body], continuation: false };
}
