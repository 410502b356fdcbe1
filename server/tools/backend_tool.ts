/**
 * Backend tools: functions registered in code that run inside the turn.
 *
 * @module
 */

/** What a backend tool's `execute` receives besides its arguments. */
export interface ToolContext {
  sessionId: string;
  callId: string;
  /** Aborted when the turn is cancelled or the tool times out. */
  signal: AbortSignal;
  /** The latest screenshot data URI of the session, if any (used by look_at_screen). */
  screenshot?: string;
}

/** A tool result meant for the model: JSON, or content parts with an image. */
export type ToolOutput =
  | { type: "json"; value: unknown }
  | {
    type: "content";
    value:
      ({ type: "text"; text: string } | { type: "image-data"; data: string; mediaType: string })[];
  };

/**
 * A tool registered in code.
 *
 * @example
 * ```ts
 * const clock: BackendTool = {
 *   name: "current_time",
 *   description: "The server's current time.",
 *   parameters: { type: "object", properties: {} },
 *   execute: () => new Date().toISOString(),
 * };
 * ```
 */
export interface BackendTool {
  name: string;
  description: string;
  /** A JSON schema of type object. */
  parameters: Record<string, unknown>;
  /** Runs the tool; the return value (any JSON) goes back to the model. Return a `ToolOutput` with `output: true` to send content parts. */
  execute(args: Record<string, unknown>, context: ToolContext): unknown | Promise<unknown>;
  /** When true, `execute` returns a `ToolOutput`. */
  rawOutput?: boolean;
}
