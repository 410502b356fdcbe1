/**
 * What the runtime stores for a session: the session record (with the
 * pending action) and its messages. See docs/architecture.md for the keys.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import type {
  Attachment,
  CallStatus,
  DisplayCard,
  HostContext,
  PendingState,
  Verdict,
  WaitingFor,
} from "../../protocol/mod.ts";

/** Where a tool call stands: the statuses of docs/runtime-wire.md, plus the live ones. */
export type { CallStatus };

/** What a pending item waits for: see `server/turn/kinds/kind.ts` for each one's continuation rules. */
export type { WaitingFor };

/**
 * One tool call made in an assistant message. `C` is the data its kind keeps
 * on it (`ToolKind.callData`), stored with the message.
 */
export interface CallRecord<C = unknown> {
  call_id: string;
  tool_name: string;
  /** Its tool kind's category (`server/turn/kinds/`). */
  category: string;
  arguments: Record<string, unknown>;
  /** Index in the assistant message's `steps` of the model message that made the call. */
  step: number;
  status: CallStatus;
  /** The result as recorded (host results verbatim, screenshots removed). */
  result?: unknown;
  /** Set when the call failed before running (bad arguments, a policy denial, a timeout). */
  error?: string;
  /** What its kind keeps about it (a remote call's verb and integration). */
  data?: C;
  /** Remote tools: the sanitised cards of the result (counted against the turn's limit). */
  display?: DisplayCard[];
}

/**
 * A pending call waiting to be handed out, with what it waits for. Records
 * written before tool kinds existed lack `category` and `waiting_for`: they
 * are host calls (see `stateOf`).
 */
export type QueuedCall = PendingState & {
  call_id: string;
  tool_name: string;
  arguments: Record<string, unknown>;
  /** A held call's approval verdict that arrived while it was queued; applied when handed out. */
  verdict?: Verdict;
};

/** How an approval ended: allow, or deny with the reason (expiry and timeouts are denials). */
export type { Verdict };

/**
 * The one pending item of a session as stored: the call, its state (one of
 * `PendingState`), the calls queued behind it. The wire shows it as
 * `PendingAction` and `PendingToolCall` (see `pending.ts`).
 */
export type StoredPending = PendingState & {
  tool_call_id: string;
  tool_name: string;
  assistant_message_id: string;
  arguments: Record<string, unknown>;
  /** Calls of the same model response still to hand out, in order. */
  queued: QueuedCall[];
  /** See `QueuedCall.verdict`: set only on a call handed out with its verdict already known. */
  verdict?: Verdict;
  output_mode: "text" | "host_tools";
  /** Steering text to deliver when the model resumes. */
  steering?: string[];
};

/** The session record, stored at `["session", id]`. */
export interface SessionRecord {
  session_id: string;
  owner_id: string;
  created_at: string;
  /**
   * Made when the session is created; a session deleted and re-created under
   * the same id gets a new one, so its events never reach the old one's
   * followers (server/events/stamp.ts). Absent on records from before.
   */
  generation?: string;
  turn_number: number;
  /** Number of stored messages; also the next message's sequence number. */
  message_count: number;
  /**
   * The page the session was last shown, without its attachments. A large one is stored
   * beside the record, at `["session_page", id]`, and put back when the record is read
   * (session/_page.ts).
   */
  host_context: HostContext | null;
  /** The digest of the page stored beside the record; absent when the record holds its page. */
  page?: string;
  pending_action: StoredPending | null;
  /**
   * Who the session's remote tool calls act for, from the principal and the
   * configuration when the last turn started (never from a message body).
   */
  scope?: { workspace_id: string; external_user_id: string; permissions: string[] };
  /**
   * Characters of attachment content the session's messages keep (screenshots aside), held
   * under `limits.maxSessionAttachmentChars` (session/attachments.ts). Absent: none counted yet.
   */
  attachment_chars?: number;
  /** The conversation's place in its owner's listing: see `ListingFields` (session/listing.ts). */
  listing?: ListingFields;
}

/**
 * What the listing shows of a session besides its counts, kept on the record
 * and written with it. Records written before listings existed have none
 * until their next write (or the backfill at start) gives them some.
 */
export interface ListingFields {
  /** The workspace the session was made in (absent: the runtime's default); a listing is per owner and workspace. */
  workspace?: string;
  /** Made from the first message, or given by a person. */
  title?: string;
  /** `user` once a person renamed it: an automatic title never replaces that one. */
  title_source?: "auto" | "user";
  archived?: boolean;
  /** A session made by a silent decision (`output_mode: "host_tools"`): no conversation, never listed. */
  unlisted?: boolean;
  /** When the conversation last changed; the listing's order. Set by the first commit. */
  updated_at?: string;
  /**
   * The index key the session is listed under now, moved in the commits that write the record.
   * Given to a record as read (`withListingKey`, session/listing.ts), never stored: its fields
   * give it again. Records stored before hold it.
   */
  key?: string[];
}

/** A user message. `model` is replayed verbatim in later turns. */
export interface UserMessage {
  role: "user";
  id: string;
  turn: number;
  created_at: string;
  content: string;
  message_type: "standard" | "steering";
  attachments: Attachment[];
  model: ModelMessage;
}

/** An assistant message: every model step, tool result and context update of one turn, in order. */
export interface AssistantMessage {
  role: "assistant";
  id: string;
  turn: number;
  created_at: string;
  output_mode: "text" | "host_tools";
  /** The model messages of this turn after the user message, replayed verbatim. */
  steps: ModelMessage[];
  calls: CallRecord[];
  /** The visible text (empty in host_tools mode). */
  text: string;
  status: "running" | "pending" | "completed" | "failed" | "cancelled";
  model: string;
  decision?: "hold" | "pending" | "completed" | null;
  error?: string;
  error_type?: string;
}

/** Any stored message. */
export type StoredMessage = UserMessage | AssistantMessage;

/** Statuses that end a call. */
export const FINAL_STATUSES: ReadonlySet<CallStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
  "superseded",
  "unknown",
]);
