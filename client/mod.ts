/**
 * Tether's browser SDK: give the assistant the eyes (view, navigation,
 * background, screenshots) and the hands (host actions) of a web page.
 *
 * `createHost()` returns the host object. Register what the page shows and
 * can do, send messages, and the SDK answers every pending host call exactly
 * once, even across a reload, a dropped connection or a runtime restart: each
 * call is journaled in IndexedDB before its handler runs and its result is
 * re-sent, never re-run, until the runtime acknowledges it.
 *
 * ```ts
 * import { createHost, socketIoTransport } from "tether/client";
 *
 * const host = createHost({ runtimeUrl: "http://127.0.0.1:7100", transport: socketIoTransport() });
 * host.view({ name: "tasks", data: () => ({ tasks: store.tasks }) });
 * host.action("select_task", {
 *   description: "Select a task in the list.",
 *   parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
 * }, ({ id }) => store.select(id));
 * host.state.subscribe((s) => render(s.messages, s.streamingText));
 * await host.send("select task 3");
 * ```
 *
 * Register actions right after `createHost()`: the host connects on the next
 * task and then answers any call an earlier page left pending (a handler
 * registered up to 3 s later is still found).
 *
 * On a session that already has messages (a reload, a given `sessionId`),
 * `host.state` starts with the stored conversation, every tool call with
 * its status. `sseTransport({ follow: true })` (or Socket.IO) also streams
 * the turns another tab or client starts on the session.
 *
 * Silent decisions for an independent controller: `host.decide(content)`
 * then `host.receipt(callId, result)`.
 *
 * A person's conversations: `host.sessions.list()` (newest first, a page at a
 * time), `.rename(id, title)`, `.archive(id)` and `.switch(id)`, which makes
 * the host follow that conversation with its messages and pending call.
 *
 * A remote tool's action waits for the user: `state.pending` carries its
 * preview and confirmations (`waitingFor(pending) === "confirmation"`), and
 * `host.answer(callId, "apply" | "cancel")` answers it (a delete twice). A
 * call the policy gate holds (`waitingFor(pending) === "approval"`) carries
 * its approval with the reason and expiry; only an approver releases it.
 *
 * The host_context schema (zod/mini), the argument validator and the
 * screenshot library are separate chunks: the first is fetched when the host
 * is created, the second when the first action is registered, the third on
 * the first screenshot.
 *
 * @module
 */
export { createHost, Host } from "./host.ts";
export type { ActionOptions, HostOptions, SendOptions } from "./host.ts";
export type { Disposer, Source } from "./context.ts";
export { ContextRegistry } from "./context.ts";
export type {
  ActionContext,
  ActionDefinition,
  ActionHandler,
  ActionOutcome,
} from "./run_action.ts";
export { runAction } from "./run_action.ts";
export type { Parameters, StandardSchema } from "./schema.ts";
export { toJsonSchema } from "./schema.ts";
export type { DecideOptions, Decision, ReceiptOptions } from "./decision.ts";
export { requestDecision, sendReceipt } from "./decision.ts";
export { TetherError } from "./errors.ts";
export type { ErrorIssue } from "./errors.ts";
export type * from "./events.ts";
export type { Journal, JournalEntry } from "./journal.ts";
export { memoryJournal } from "./journal.ts";
export { indexedDbJournal } from "./indexeddb_journal.ts";
export type { IndexedDbJournalOptions } from "./indexeddb_journal.ts";
export { screenshot } from "./screenshot.ts";
export type { ScreenshotOptions } from "./screenshot.ts";
export { applyEvent, initialState } from "./state.ts";
export { pendingCall, type PendingFields, waitingFor } from "./pending.ts";
export type {
  AttachmentSummary,
  ChatMessage,
  HostState,
  StateEvent,
  ToolCallState,
  ToolCallStatus,
} from "./state.ts";
export { createStore } from "./store.ts";
export type { Store } from "./store.ts";
export type { ConnectionState, Transport, TransportFactory, TransportLink } from "./transport.ts";
export { sseTransport } from "./sse_transport.ts";
export type { SseTransportOptions } from "./sse_transport.ts";
export { socketIoTransport } from "./socketio_transport.ts";
export {
  type NamedTransport,
  registerTransport,
  type TransportName,
  transportNamed,
  TRANSPORTS,
} from "./transports.ts";
export type { SocketIoTransportOptions } from "./socketio_transport.ts";
export { type ModelContext, modelContext } from "./_model_context.ts";
export type {
  Approval,
  Attachment,
  AttachmentInput,
  BackgroundEntry,
  DisplayCard,
  HostAction,
  HostContext,
  HostInfo,
  InspectionView,
  JsonSchema,
  NavigationTarget,
  PendingAction,
  RunInspection,
  SessionList,
  SessionSummary,
  Verb,
  View,
  WaitingFor,
} from "./_protocol.ts";
export type { ListOptions as SessionListOptions, Sessions } from "./sessions.ts";
