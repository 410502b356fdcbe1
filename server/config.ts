/**
 * Runtime options: the typed object a library user passes to
 * `createRuntime()`, and `optionsFromEnv()`, which reads the same options from
 * `SECTION__KEY` environment variables.
 *
 * @module
 */
import type { HostAction } from "../protocol/mod.ts";
import type { Store } from "./kv/store.ts";
import type { BackendTool } from "./tools/backend_tool.ts";
import type { Authenticate } from "./http/principal.ts";
import type { PolicyHook } from "./tools/policy.ts";
import type { PolicyOptions } from "./policy/options.ts";
import type { ModelObject } from "./model/ai_sdk7.ts";
import type { Resolve } from "./remote-tools/address.ts";
import { createLogger, log, type Logger } from "./log.ts";
import { DEFAULT_MODEL_OPTIONS, type ModelOptions } from "./model/budget.ts";
import { DEFAULT_HISTORY_OPTIONS, type HistoryOptions } from "./history/options.ts";

export type { HistoryOptions, ModelOptions };

/** Per-turn budgets; a request's `config` may only lower them. */
export interface Limits {
  /** Model requests per run of a turn (default 8). */
  maxModelRequests: number;
  /** Tool calls per run of a turn (default 16). */
  maxToolCalls: number;
  /** Milliseconds a backend tool may run (default 30,000). */
  toolTimeoutMs: number;
  /** Largest request body in bytes (default 32 MiB); larger is a 413 before parsing. */
  maxBodyBytes: number;
  /** Milliseconds to receive a whole request body (default 30,000); slower is a 408. */
  bodyTimeoutMs: number;
  /** Request bodies read at once (default 64); more is a 503 until one finishes. */
  maxBodyReads: number;
  /**
   * Request bodies read at once from one client, a principal at one address (default 8), once
   * half of `maxBodyReads` is in use; more is a 429 until one of its own finishes, so one
   * client's slow bodies never hold the others'.
   */
  maxBodyReadsPerClient: number;
  /** Deepest nesting of objects and arrays in a request body or Socket.IO payload (default 64). */
  maxJsonDepth: number;
  /** Characters of `content` in one message (default 1,000,000); longer is a 413. */
  maxContentChars: number;
  /**
   * Characters of attachment content (text, data URIs, urls; screenshots aside) one session
   * keeps over all its messages (default 48,000,000); a message past it is a 413.
   */
  maxSessionAttachmentChars: number;
  /** Events kept per session for resuming streams (default 1,000). */
  eventLogSize: number;
  /** Milliseconds a process holds a session's lease without renewing it (default 10,000); shared stores only. */
  leaseTtlMs: number;
}

/** Who may use the runtime: see docs/configuration.md, "Access". */
export interface AccessOptions {
  /** `trusted_local` (default), `header`, or `custom` (uses `authenticate`). */
  mode: "trusted_local" | "header" | "custom";
  /** With `trusted_local`: a bearer token every request must carry. */
  token?: string;
  /** With `trusted_local`: the bearer token that makes the caller the local principal with role `admin`. */
  adminToken?: string;
  /** With `header`: the header a gateway sets to the principal id (default `x-tether-principal`). */
  principalHeader: string;
  /** With `header`: the header carrying comma-separated roles (default `x-tether-roles`). */
  rolesHeader: string;
  /** Origins allowed to change state; default localhost, 127.0.0.1 and [::1] on any port. */
  corsOrigins: string[];
  /** With `custom`: resolves the principal of a request, or null to refuse it. */
  authenticate?: Authenticate;
  /** With `header`: the header naming the caller's workspace (default `x-tether-workspace`). */
  workspaceHeader?: string;
}

/** Remote tool servers (the generic-rest contract): see docs/remote-tools.md. */
export interface RemoteToolsOptions {
  /**
   * `REMOTE_TOOLS__ALLOWED_HOSTS`: host names or IP addresses a base URL may reach even
   * though they are private, loopback or link-local (comma-separated in the environment).
   */
  allowedHosts: string[];
  /** `REMOTE_TOOLS__TIMEOUT_MS`: milliseconds one request to a tool server may take (default 10,000). */
  timeoutMs: number;
  /** `REMOTE_TOOLS__WORKSPACE`: the workspace of `trusted_local` callers (default `default`). */
  workspace: string;
  /**
   * Resolves a tool server's host name to its addresses (default: the system's resolver). The
   * check and the connection both use its one answer; tests give names their own answers here.
   */
  resolve?: Resolve;
}

/** Developer aids: see docs/inspector.md. */
export interface DebugOptions {
  /**
   * `DEBUG__INSPECT`: record each turn's rendered context, tools, usage, timings and policy
   * reasons, and answer `GET /api/sessions/{id}/inspect` to the session's owner. Off by default.
   */
  inspect: boolean;
}

/**
 * Everything the runtime can be told. All fields are optional in
 * `createRuntime()`; `resolveOptions()` fills the defaults.
 *
 * @example
 * ```ts
 * import { createRuntime } from "@tether/runtime";
 * const app = createRuntime({ storeUrl: "memory:", model: "offline" });
 * ```
 */
export interface RuntimeOptions {
  /** `MODEL__DEFAULT`: `offline`, `openai:<model>`, `anthropic:<model>`, `openai-compatible:<url>#<model>`. */
  model: string | ModelObject;
  /** A name for a model passed as an object (shown on /health and in results). */
  modelName?: string;
  /** `MODEL__ALLOWED`: model specs a request's `config.model` may pick (comma-separated in the environment). */
  allowedModels: string[];
  /**
   * `MODEL__CONTEXT_TOKENS`, `MODEL__MAX_OUTPUT_TOKENS`, `MODEL__FIRST_BYTE_TIMEOUT_MS`,
   * `MODEL__IDLE_TIMEOUT_MS`, `MODEL__OPENAI_STORE`: limits for models the provider table does
   * not know, timeouts of model requests, and OpenAI's stored responses (docs/long-conversations.md).
   */
  modelOptions: ModelOptions;
  /** `HISTORY__*`: how long conversations are compacted (docs/long-conversations.md). */
  history: HistoryOptions;
  /** `STORE__URL`: `memory:`, a file path or `denokv:<path>`, `redis://…`, `postgres://…`. */
  storeUrl: string;
  /** A ready store instead of `storeUrl`. */
  store?: Store;
  /** `TOOLS__HOST_TOOLS` / `TOOLS__HOST_TOOLS_PATH`: host actions offered every turn. */
  hostTools: HostAction[];
  /** `TOOLS__PAGE_SCOPES`: backend tool name → the view names where it is offered. */
  pageScopes: Record<string, string[]>;
  /** Backend tools registered in code; they run inside the turn. */
  backendTools: BackendTool[];
  /** Remote tool servers: which private hosts are allowed, the timeout, the local workspace. */
  remoteTools: RemoteToolsOptions;
  /** A policy hook in code; when given it decides instead of the gate's backend. */
  policy?: PolicyHook;
  /** `POLICY__*`: the policy gate (embedded engine or Zentinelle); see docs/policy.md. */
  gate?: Partial<PolicyOptions>;
  limits: Limits;
  access: AccessOptions;
  /** `DEBUG__INSPECT`: offer the inspector route to sessions' owners and record what it shows (default off). */
  debug: DebugOptions;
  /** Extra stable instructions appended to the system prompt. */
  instructions?: string;
  /** Environment the model providers read keys from (default: the process environment). */
  env: Record<string, string | undefined>;
  /** Receives each finished log line (JSON, secrets redacted); default: standard error. */
  warn: (message: string) => void;
  /** The structured logger every part of the runtime writes to (built from `warn` when absent). */
  logger: Logger;
}

/** Default limits. */
export const DEFAULT_LIMITS: Limits = {
  maxModelRequests: 8,
  maxToolCalls: 16,
  toolTimeoutMs: 30_000,
  maxBodyBytes: 32 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  maxBodyReads: 64,
  maxBodyReadsPerClient: 8,
  maxJsonDepth: 64,
  maxContentChars: 1_000_000,
  maxSessionAttachmentChars: 48_000_000,
  eventLogSize: 1_000,
  leaseTtlMs: 10_000,
};

/** The default Origin allow-list: loopback names on any port. */
export const DEFAULT_CORS_ORIGINS = [
  "http://localhost:*",
  "http://127.0.0.1:*",
  "http://[::1]:*",
  "https://localhost:*",
  "https://127.0.0.1:*",
  "https://[::1]:*",
];

/**
 * Fills every option the caller left out with its default.
 *
 * @example
 * ```ts
 * const options = resolveOptions({ storeUrl: "memory:" });
 * options.limits.maxToolCalls; // 16
 * ```
 */
export function resolveOptions(partial: Partial<RuntimeOptions> = {}): RuntimeOptions {
  const sink = partial.warn;
  const logger = partial.logger ?? (sink ? createLogger((line) => sink(line)) : log);
  return {
    model: partial.model ?? "",
    modelName: partial.modelName,
    allowedModels: partial.allowedModels ?? [],
    modelOptions: { ...DEFAULT_MODEL_OPTIONS, ...partial.modelOptions },
    history: { ...DEFAULT_HISTORY_OPTIONS, ...partial.history },
    storeUrl: partial.storeUrl ?? ".tether/store.db",
    store: partial.store,
    hostTools: partial.hostTools ?? [],
    pageScopes: partial.pageScopes ?? {},
    backendTools: partial.backendTools ?? [],
    policy: partial.policy,
    gate: partial.gate,
    limits: { ...DEFAULT_LIMITS, ...partial.limits },
    access: {
      mode: "trusted_local",
      principalHeader: "x-tether-principal",
      rolesHeader: "x-tether-roles",
      corsOrigins: DEFAULT_CORS_ORIGINS,
      workspaceHeader: "x-tether-workspace",
      ...partial.access,
    },
    remoteTools: {
      allowedHosts: [],
      timeoutMs: 10_000,
      workspace: "default",
      ...partial.remoteTools,
    },
    debug: { inspect: false, ...partial.debug },
    instructions: partial.instructions,
    env: partial.env ?? {},
    warn: (line) => logger.warn(line),
    logger,
  };
}
