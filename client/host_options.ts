/**
 * The options of `createHost()`, of `host.action()` and of `host.send()`.
 *
 * @module
 */
import type { HeadersSource } from "./_http.ts";
import type { AttachmentInput, HostInfo } from "./_protocol.ts";
import type { Journal } from "./journal.ts";
import type { ActionContext } from "./run_action.ts";
import type { Parameters } from "./schema.ts";
import type { ScreenshotOptions } from "./screenshot.ts";
import type { TransportFactory } from "./transport.ts";

/**
 * Options of `createHost()`.
 *
 * @example
 * ```ts
 * const options: HostOptions = { runtimeUrl: "http://127.0.0.1:7100", screenshots: "on-request" };
 * ```
 */
export interface HostOptions {
  /** The runtime's base URL, e.g. `http://127.0.0.1:7100`. */
  runtimeUrl: string;
  /** The conversation's session. Default: one per tab, kept across reloads in sessionStorage. */
  sessionId?: string;
  /** `sseTransport()` (default) or `socketIoTransport()`. */
  transport?: TransportFactory;
  /** Descriptive metadata sent as `host`. Default `{ name: location.hostname, kind: "browser" }`. */
  host?: HostInfo;
  /** Headers for every request (a bearer token, say). */
  headers?: HeadersSource;
  /** Where calls are recorded. Default: `indexedDbJournal()` where IndexedDB exists, else `memoryJournal()`. */
  journal?: Journal;
  /** Default handler timeout in ms. Default 30 s. */
  actionTimeout?: number;
  /**
   * `each-message`: attach a screenshot to every message; `on-request`: offer
   * a `take_screenshot` action the model calls when it wants to look; `never` (default).
   */
  screenshots?: "never" | "each-message" | "on-request";
  /** How those screenshots are taken. */
  screenshotOptions?: ScreenshotOptions;
  /** Offer actions to WebMCP where the browser has it. Default true. */
  webmcp?: boolean;
  /** Connect (and recover pending calls) on the next task after creation. Default true. */
  autoConnect?: boolean;
  /**
   * Ms a running turn may go without an event before the page asks the runtime whether it
   * still runs (and shows it ended if not: the process running it died). Default 15 s.
   */
  quietTurnCheck?: number;
}

/**
 * Options of `host.action()`.
 *
 * @example
 * ```ts
 * host.action("open_issue", {
 *   description: "Open an issue by number.",
 *   parameters: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
 *   timeout: 5_000,
 * }, ({ number }) => router.open(number));
 * ```
 */
export interface ActionOptions {
  /** What the action does, for the model. */
  description: string;
  /** A JSON schema of type object, or a zod (or other self-describing Standard Schema) object schema. */
  parameters?: Parameters;
  /** Handler timeout in ms (default: the host's `actionTimeout`). */
  timeout?: number;
  /** Safe to run again: after a reload cut it off, it runs again instead of being reported unknown. */
  idempotent?: boolean;
  /** Offer it to WebMCP too. Default: the host's `webmcp`. */
  webmcp?: boolean;
  /**
   * It only reads: running it changes nothing. Offered to WebMCP with
   * `readOnlyHint`, so a browser agent may call it freely. Default false.
   */
  readOnly?: boolean;
  /**
   * Ask the user before the handler runs; resolve true to run it, false to
   * decline (the runtime is told the user cancelled, the chat shows
   * "Cancelled"). A reload while it waits asks again: nothing ran.
   */
  confirm?: (args: Record<string, unknown>, context: ActionContext) => Promise<boolean>;
}

/**
 * Options of `host.send()`.
 *
 * @example
 * ```ts
 * await host.send("What is in this photo?", { attachments: [{ kind: "image", data_uri: photo }] });
 * ```
 */
export interface SendOptions {
  /** Reference attachments (or screenshots) for this message. */
  attachments?: AttachmentInput[];
  /** The client message id. Default: a fresh one. */
  id?: string;
  /** `steering` delivers the text to the live turn (streaming transports). */
  messageType?: "standard" | "steering";
  /** Per-request overrides that only lower limits or pick an allowed model. */
  config?: Record<string, unknown>;
}

/** `GET /api/sessions/{id}` */
