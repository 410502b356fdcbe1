/**
 * The one place client/ reaches protocol/, so the SDK's bundle shows at a
 * glance which parts of the protocol it carries.
 *
 * Values are imported from their own files, not from mod.ts: mod.ts
 * re-exports modules whose top level builds zod schemas, which a bundler
 * must keep, so importing the zod-free JSON Schema validator through it
 * would put all of zod in the SDK entry. The host_context schema (zod/mini)
 * and the JSON Schema validator for action arguments are loaded on demand,
 * each as a chunk of its own: a page that registers no action never loads
 * the validator.
 *
 * @module
 */
import type { HostContext, Issue, JsonSchema, Result } from "../protocol/mod.ts";

export { formatIssues } from "../protocol/issues.ts";

let parser: Promise<(input: unknown) => Result<HostContext>> | undefined;
let validator: Promise<(schema: JsonSchema, value: unknown) => Issue[]> | undefined;

/** protocol's `parseHostContext`, imported on first use (start it early to have it warm). */
export const loadHostContextParser = (): Promise<(input: unknown) => Result<HostContext>> =>
  parser ??= import("../protocol/host_context.ts").then((m) => m.parseHostContext);

/** protocol's `validateJsonSchema`, imported on first use; a failed import is tried again next time. */
export const loadJsonSchemaValidator = (): Promise<
  (schema: JsonSchema, value: unknown) => Issue[]
> =>
  validator ??= import("../protocol/json_schema.ts").then(
    (m) => m.validateJsonSchema,
    (error) => {
      validator = undefined;
      throw error;
    },
  );

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
