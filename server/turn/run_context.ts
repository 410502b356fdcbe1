/**
 * What one run of a turn works with (`RunContext`) and how it ends
 * (`RunOutcome`): shared by the loop (`run.ts`), the tool kinds
 * (`kinds/`), admission, releasing held calls and the inspector.
 *
 * @module
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Limits } from "../config.ts";
import type { Principal } from "../http/principal.ts";
import type { ExecutionScope } from "../remote-tools/client.ts";
import type { RemoteTools } from "../remote-tools/remote_tools.ts";
import type { AssistantMessage, StoredPending } from "../session/records.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import type { PolicyHook } from "../tools/policy.ts";
import type { ScreenshotCache } from "../tools/screenshots.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { TurnTrace } from "../trace/tracer.ts";
import type { Emit } from "./events.ts";
import type { ModelRequests, Usage } from "./model_request.ts";

/** Token usage of a run. */
export type { Usage };

/** What a run needs from the engine. */
export interface RunContext {
  sessionId: string;
  principal: Principal;
  model: LanguageModelV3;
  /** Builds and sends each model request: history, budget, compaction, provider rules. */
  requests: ModelRequests;
  policy: PolicyHook;
  limits: Limits;
  outputMode: "text" | "host_tools";
  assistant: AssistantMessage;
  /** The tools every kind offered for this run (`kinds/offer.ts`), by name. */
  tools: Map<string, TurnTool>;
  /** The workspace's tool servers and who this run acts for; null when none are registered. */
  remote: { tools: RemoteTools; scope: ExecutionScope } | null;
  signal: AbortSignal;
  usage: Usage;
  /** The turn's spans (OTLP), when tracing is on. */
  trace?: TurnTrace;
  screenshots: ScreenshotCache;
  /** Steering text waiting for the next model step (transports push here). */
  steering: string[];
  /** Called once the run takes no more steering (its last model step is done). */
  close(): void;
  emit: Emit;
  /**
   * Work done before the first model step of this run (a confirmed or approved
   * call that runs now): an outcome ends the run there, null lets the model run.
   */
  resume?: (ctx: RunContext, live: Map<string, ToolOutput>) => Promise<RunOutcome | null>;
  /** Writes the assistant message as it is now (before tools run, so a crash leaves a record). */
  checkpoint(): Promise<void>;
}

/** How a run ended. */
export type RunOutcome =
  | { kind: "final" }
  | { kind: "pending"; pending: StoredPending }
  | { kind: "hold" };
