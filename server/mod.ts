/**
 * Tether's runtime: a Hono app that gives an AI assistant the eyes and hands
 * of a host application (the host contract), with pluggable stores and models.
 *
 * @example
 * ```ts
 * import { createRuntime } from "@tether/runtime";
 * const app = createRuntime({ storeUrl: "memory:", model: "offline" });
 * const res = await app.request("/health");
 * ```
 *
 * @module
 */
export { createEngine, createRuntime, type TetherApp } from "./app.ts";
export {
  type AccessOptions,
  DEFAULT_LIMITS,
  type Limits,
  resolveOptions,
  type RuntimeOptions,
} from "./config.ts";
export { ConfigError, optionsFromEnv } from "./env.ts";
export { type ChatResult, Engine } from "./engine.ts";
export type { BackendTool, ToolContext, ToolOutput } from "./tools/backend_tool.ts";
export {
  type ContinueContext,
  type Continued,
  type KindRegistry,
  type Offer,
  type OfferContext,
  registerToolKind,
  type ToolKind,
} from "./turn/kinds/mod.ts";
export type { RunContext } from "./turn/run_context.ts";
export type { TurnTool } from "./tools/turn_tools.ts";
export type { CallRecord } from "./session/records.ts";
export {
  allowAll,
  type PolicyDecision,
  type PolicyHook,
  type PolicyRequest,
} from "./tools/policy.ts";
export type { Authenticate, Principal } from "./http/principal.ts";
export { TetherError } from "./http/errors.ts";
export type { SessionEvent } from "./events/hub.ts";
export { createLogger, type Logger, registerSecret } from "./log.ts";
export type { PolicyOptions } from "./policy/options.ts";
export type { Policy, PolicyDocument, ToolPermissionConfig } from "./policy/policy_file.ts";
export { parsePolicyDocument, PolicyFileError } from "./policy/policy_file.ts";
export { LocalPolicyEngine } from "./policy/local_engine.ts";
export type { PolicyBackend } from "./policy/backend.ts";
export { localBackend } from "./policy/local_backend.ts";
export { zentinelleBackend, type ZentinelleOptions } from "./policy/zentinelle_backend.ts";
export type {
  ApprovalStatus,
  EvaluateAnswer,
  EvaluateBody,
  ToolCallContext,
} from "./policy/contract.ts";
export {
  HostError,
  type HostOptions,
  type HostTool,
  remoteToolsHost,
} from "./remote-tools/host.ts";
export type { ExecutionScope } from "./remote-tools/client.ts";
export type { DebugOptions, RemoteToolsOptions } from "./config.ts";
