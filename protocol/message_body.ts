/**
 * The message body of POST /api/chat and Socket.IO `assistant_message`.
 *
 * @module
 */
import * as z from "zod/mini";
import { idSchema, sessionIdSchema } from "./_id.ts";
import { contractObject } from "./_keys.ts";
import { runSchema, type Wording } from "./_zod_result.ts";
import {
  type Attachment,
  attachmentSchema,
  legacyImageSchema,
  withLegacyScreenshots,
} from "./attachment.ts";
import { type HostContext, hostContextSchema } from "./host_context.ts";
import type { Result } from "./issues.ts";
import { HOST_CONTEXT_LIMITS } from "./limits.ts";
import { type MessageConfig, messageConfigSchema } from "./message_config.ts";

/**
 * A message in canonical form: snake_case keys, defaults filled in, legacy
 * screenshots moved into `attachments`.
 *
 * A continuation (`tool_call_id` set) always carries `tool_result` (null when
 * absent) and `tool_outcome` ("success" when absent).
 *
 * @example
 * ```ts
 * const continuation: MessageBody = {
 *   id: "m-2",
 *   session_id: "s-1",
 *   content: "",
 *   message_type: "standard",
 *   output_mode: "text",
 *   attachments: [],
 *   tool_call_id: "call_1",
 *   tool_result: { selected: 42 },
 *   tool_outcome: "success",
 * };
 * ```
 */
export interface MessageBody {
  /** The client's message id, 1-64 characters, unique within the session; the runtime makes one when absent. */
  id?: string;
  /** The session, 1-64 characters; created on first use. */
  session_id: string;
  /** The user's text; may be "" on a continuation. */
  content: string;
  /** standard, or steering (streaming transports only). */
  message_type: "standard" | "steering";
  /** text, or host_tools for a silent host decision. */
  output_mode: "text" | "host_tools";
  /** The host context, canonical; the session keeps it as its last context. */
  host_context?: HostContext;
  /** Message-level attachments, legacy screenshots last. */
  attachments: Attachment[];
  /** The pending call this message answers. */
  tool_call_id?: string;
  /** The host's result for that call: any JSON. */
  tool_result?: unknown;
  /** Whether the host could perform the action. */
  tool_outcome?: "success" | "failed";
  /** Per-request overrides that may only lower limits or pick an allowed model. */
  config?: MessageConfig;
}

/**
 * What a client may send: {@linkcode MessageBody} with defaults optional and
 * legacy `images`/`screenshot` allowed (camelCase keys are accepted too).
 *
 * @example
 * ```ts
 * const outgoing: MessageBodyInput = { id: crypto.randomUUID(), session_id: "s-1", content: "Hi" };
 * ```
 */
export type MessageBodyInput =
  & Pick<MessageBody, "session_id" | "content">
  & { id?: string }
  & Partial<Omit<MessageBody, "id" | "session_id" | "content" | "host_context">>
  & {
    /** A host context; parsed and normalised by the runtime. */
    host_context?: HostContext | Record<string, unknown>;
    /** Legacy: image data URIs that become screenshot attachments. */
    images?: string[];
    /** Legacy: an image data URI that becomes a screenshot attachment. */
    screenshot?: string;
  };

const fields = contractObject({
  id: z.optional(idSchema("id")),
  session_id: sessionIdSchema(),
  content: z.string(),
  message_type: z._default(z.enum(["standard", "steering"]), "standard"),
  output_mode: z._default(z.enum(["text", "host_tools"]), "text"),
  host_context: z.optional(hostContextSchema),
  attachments: z.optional(z.array(attachmentSchema)),
  images: z.optional(z.array(legacyImageSchema)),
  screenshot: z.optional(legacyImageSchema),
  // Call ids come from model providers, whose formats vary; 256 leaves room.
  tool_call_id: z.optional(idSchema("tool_call_id", 256)),
  tool_result: z.optional(z.unknown()),
  tool_outcome: z.optional(z.enum(["success", "failed"])),
  config: z.optional(messageConfigSchema),
});

/**
 * The zod schema of a message body; {@linkcode parseMessageBody} words its issues.
 *
 * @example
 * ```ts
 * const parsed = messageBodySchema.safeParse({ id: "m-1", sessionId: "s-1", content: "hi" });
 * // parsed.data.session_id is "s-1", parsed.data.message_type is "standard"
 * ```
 */
export const messageBodySchema: z.ZodMiniType<MessageBody, unknown> = z.pipe(
  fields,
  z.transform((value, ctx) => {
    const { images, screenshot, attachments, ...rest } = value;
    const body: MessageBody = {
      ...rest,
      attachments: withLegacyScreenshots(attachments, images, screenshot) ?? [],
    };
    const report = (path: string, message: string) =>
      ctx.issues.push({ code: "custom", message, input: value, path: [path] });
    if (body.attachments.length > HOST_CONTEXT_LIMITS.attachments) {
      report(
        "attachments",
        `attachments has ${body.attachments.length} entries (legacy screenshots included), over the limit of ${HOST_CONTEXT_LIMITS.attachments}; attach fewer.`,
      );
    }
    if (body.tool_call_id !== undefined) {
      body.tool_result ??= null;
      body.tool_outcome ??= "success";
    } else if (body.tool_outcome !== undefined) {
      report(
        "tool_outcome",
        "tool_outcome was sent without tool_call_id; add the id of the pending call it reports on.",
      );
    } else if (body.tool_result !== undefined && body.tool_result !== null) {
      report(
        "tool_result",
        "tool_result was sent without tool_call_id; add the id of the pending call it answers.",
      );
    }
    return body;
  }),
);

const WORDING: Wording = { root: "the message body", subject: "the message body" };

/**
 * Validates a message body and returns its canonical form; never throws.
 *
 * @example
 * ```ts
 * const result = parseMessageBody(await request.json());
 * if (!result.ok) return new Response(formatIssues(result.issues), { status: 422 });
 * ```
 */
export function parseMessageBody(input: unknown): Result<MessageBody> {
  return runSchema(messageBodySchema, input, WORDING);
}
