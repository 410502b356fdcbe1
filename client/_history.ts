/**
 * The stored conversation as the state shows it: `GET
 * /api/sessions/{id}/messages` turned into `ChatMessage`s, every tool call
 * with the status the runtime recorded.
 *
 * @module
 */
import type { AttachmentInput } from "./_protocol.ts";
import { withKeptThumbnails } from "./_kept_thumbnails.ts";
import type { Attachment } from "./_protocol.ts";
import type { AttachmentSummary, ChatMessage, ToolCallStatus } from "./state.ts";

/**
 * `summarizeAttachments()`, fetched with the first attachment (thumbnails are drawn there): a
 * page that never attaches anything never loads it.
 */
export const summaries = (list: AttachmentInput[]): Promise<AttachmentSummary[]> =>
  list.length
    ? import("./_attachment_summary.ts").then((m) => m.summarizeAttachments(list))
    : Promise.resolve([]);

/** One message of `GET /api/sessions/{id}/messages` (server/session/views.ts), as far as the state reads it. */
export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  /** null for a silent decision. */
  content: string | null;
  attachments?: Attachment[];
  tool_calls?: {
    call_id: string;
    tool_name: string;
    category: string;
    arguments: Record<string, unknown>;
    status: ToolCallStatus;
    result?: unknown;
    error?: string;
  }[];
}

/**
 * The state's messages for the stored ones.
 *
 * @example
 * ```ts
 * const { messages } = await jsonRequest(href, "GET", {});
 * host.state.set((s) => ({ ...s, messages: await chatMessages(messages) }));
 * ```
 */
export function chatMessages(stored: StoredMessage[]): Promise<ChatMessage[]> {
  return Promise.all(stored.map(async (m) => {
    const message: ChatMessage = {
      id: m.id,
      role: m.role,
      content: m.content ?? "",
      toolCalls: (m.tool_calls ?? []).map((c) => ({
        callId: c.call_id,
        toolName: c.tool_name,
        arguments: c.arguments,
        category: c.category,
        status: c.status,
        output: c.result ?? c.error,
      })),
    };
    if (m.attachments?.length) {
      // Stored without their content: thumbnails come from what this tab kept when it sent them.
      message.attachments = withKeptThumbnails(m.id, await summaries(m.attachments));
    }
    return message;
  }));
}
