/**
 * The one place client/ reaches protocol/, so the SDK's bundle shows at a
 * glance which parts of the protocol it carries.
 *
 * Values are imported from their own files, not from mod.ts: mod.ts
 * re-exports modules whose top level builds zod schemas, which a bundler
 * must keep, so importing the zod-free JSON Schema validator through it
 * would put all of zod in the SDK entry. The host_context schema (zod/mini)
 * is loaded on demand, as a chunk of its own.
 *
 * @module
 */
import type { HostContext, Result } from "../protocol/mod.ts";

export { validateJsonSchema } from "../protocol/json_schema.ts";
export { formatIssues } from "../protocol/issues.ts";

let parser: Promise<(input: unknown) => Result<HostContext>> | undefined;

/** protocol's `parseHostContext`, imported on first use (start it early to have it warm). */
export const loadHostContextParser = (): Promise<(input: unknown) => Result<HostContext>> =>
  parser ??= import("../protocol/host_context.ts").then((m) => m.parseHostContext);

export type {
  Attachment,
  ChatResult,
  ErrorEvent,
  FinalResponse,
  HostAction,
  HostContext,
  HostInfo,
  Issue,
  JsonSchema,
  NavigationTarget,
  PendingToolCall,
  Result,
  ServerEvents,
  SessionView,
  StatusEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolCallEvent,
  ToolErrorEvent,
  ToolResultEvent,
  View,
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
