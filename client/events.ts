/**
 * The typed events a host can listen to with `host.on()`: every runtime
 * event (the Socket.IO names, which SSE uses too; payloads as protocol/
 * defines them) plus the SDK's own `action:start` and `action:end` around
 * each host action it runs.
 *
 * @module
 */
import type { PendingToolCall, ServerEvents } from "./_protocol.ts";

export type {
  ErrorEvent,
  FinalResponse,
  PendingToolCall,
  StatusEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolCallEvent,
  ToolErrorEvent,
  ToolResultEvent,
} from "./_protocol.ts";

/**
 * `action:start`: the SDK is about to run a host action's handler.
 *
 * @example
 * ```ts
 * host.on("action:start", ({ call }) => spinner.show(call.tool_name));
 * ```
 */
export interface ActionStartEvent {
  call: PendingToolCall;
}

/**
 * `action:end`: a host action settled; `outcome` and `result` are what the runtime is told.
 *
 * @example
 * ```ts
 * host.on("action:end", ({ call, outcome }) => console.log(call.tool_name, outcome));
 * ```
 */
export interface ActionEndEvent {
  call: PendingToolCall;
  /** `declined`: the user cancelled it at its confirmation (the runtime is told `failed`). */
  outcome: "success" | "failed" | "declined";
  result: unknown;
}

/**
 * Event name to payload, for `host.on()`.
 *
 * @example
 * ```ts
 * host.on("assistant:text_delta", (e) => output.append(e.content));
 * host.on("action:end", (e) => console.log(e.call.tool_name, e.outcome));
 * ```
 */
export interface TetherEventMap extends ServerEvents {
  /** A host action asks the user first: its confirmation is open, nothing ran yet. */
  "action:confirm": ActionStartEvent;
  "action:start": ActionStartEvent;
  "action:end": ActionEndEvent;
}

/**
 * A name of `TetherEventMap`.
 *
 * @example
 * ```ts
 * const name: TetherEventName = "assistant:final_response";
 * ```
 */
export type TetherEventName = keyof TetherEventMap;
