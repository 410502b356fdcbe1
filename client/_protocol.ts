/**
 * The one place client/ reaches protocol/, so the SDK's bundle shows at a
 * glance which parts of the protocol it carries.
 *
 * Values are imported from their own files, not from mod.ts: mod.ts
 * re-exports every module, and a bundler must keep each module whose top
 * level builds zod schemas, so importing through it would carry schemas the
 * SDK never uses. The host_context schema (zod/mini) and the JSON Schema
 * validator are in the entry: every context is validated before it leaves
 * the page, and every call's arguments before its handler runs.
 *
 * @module
 */
export { formatIssues } from "../protocol/issues.ts";
export { parseHostContext } from "../protocol/host_context.ts";
export { validateJsonSchema } from "../protocol/json_schema.ts";

export type {
  Approval,
  Attachment,
  CallStatus,
  ChatResult,
  DisplayCard,
  ErrorEvent,
  FinalResponse,
  HostAction,
  HostContext,
  HostInfo,
  InspectionView,
  Issue,
  JsonSchema,
  NavigationTarget,
  PendingAction,
  PendingState,
  PendingToolCall,
  Result,
  RunInspection,
  ServerEvents,
  SessionList,
  SessionSummary,
  SessionView,
  StatusEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolCallEvent,
  ToolErrorEvent,
  ToolResultEvent,
  Verb,
  View,
  WaitingFor,
} from "../protocol/mod.ts";

import type { Attachment } from "../protocol/mod.ts";

/** An attachment as a host writes it: `kind` defaults to image, `purpose` to reference. */
export type AttachmentInput =
  & Omit<Attachment, "kind" | "purpose">
  & Partial<Pick<Attachment, "kind" | "purpose">>;

/** A summary of something off screen: `{state, summary}` by the contract's example; the keys are the host's own. */
export interface BackgroundEntry {
  state?: string;
  summary?: Record<string, unknown>;
  [key: string]: unknown;
}
