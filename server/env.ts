/**
 * Reads runtime options from `SECTION__KEY` environment variables.
 *
 * @module
 */
import { parseHostContext } from "../protocol/mod.ts";
import type { HostAction } from "../protocol/mod.ts";
import { schemaIssues } from "./tools/bounded_schemas.ts";
import { policyOptionsFromEnv } from "./policy/env.ts";
import type {
  AccessOptions,
  HistoryOptions,
  Limits,
  ModelOptions,
  RemoteToolsOptions,
  RuntimeOptions,
} from "./config.ts";

type Env = Record<string, string | undefined>;

/** A configuration error; the message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

function json(env: Env, name: string): unknown {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name} is not valid JSON; give it a JSON value.`);
  }
}

function int(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new ConfigError(`${name} must be a non-negative integer, got "${raw}".`);
  }
  return n;
}

function ratio(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n >= 1) {
    throw new ConfigError(`${name} must be a number between 0 and 1 (such as 0.5), got "${raw}".`);
  }
  return n;
}

function bool(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return undefined;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}".`);
}

/** `MODEL__*` and `HISTORY__*` beyond `MODEL__DEFAULT` and `MODEL__ALLOWED`. */
function modelSettings(env: Env): Pick<Partial<RuntimeOptions>, "modelOptions" | "history"> {
  const out: Pick<Partial<RuntimeOptions>, "modelOptions" | "history"> = {};
  const model: Partial<ModelOptions> = {};
  const positive = (name: string) => {
    const n = int(env, name);
    if (n === 0) throw new ConfigError(`${name} must be a positive integer, got "0".`);
    return n;
  };
  const context = positive("MODEL__CONTEXT_TOKENS");
  if (context !== undefined) model.contextTokens = context;
  const output = positive("MODEL__MAX_OUTPUT_TOKENS");
  if (output !== undefined) model.maxOutputTokens = output;
  const firstByte = int(env, "MODEL__FIRST_BYTE_TIMEOUT_MS");
  if (firstByte !== undefined) model.firstByteTimeoutMs = firstByte;
  const idle = int(env, "MODEL__IDLE_TIMEOUT_MS");
  if (idle !== undefined) model.idleTimeoutMs = idle;
  const store = bool(env, "MODEL__OPENAI_STORE");
  if (store !== undefined) model.openaiStore = store;
  const stable = bool(env, "MODEL__STABLE_TOOLS");
  if (stable !== undefined) model.stableTools = stable;
  if (Object.keys(model).length) out.modelOptions = model as ModelOptions;
  const history: Partial<HistoryOptions> = {};
  const budget = positive("HISTORY__BUDGET_TOKENS");
  if (budget !== undefined) history.budgetTokens = budget;
  const target = ratio(env, "HISTORY__TARGET_RATIO");
  if (target !== undefined) history.targetRatio = target;
  const keep = positive("HISTORY__KEEP_TURNS");
  if (keep !== undefined) history.keepTurns = keep;
  const results = int(env, "HISTORY__PROTECTED_TOOL_RESULTS");
  if (results !== undefined) history.protectedToolResults = results;
  const summaryTokens = positive("HISTORY__SUMMARY_TOKENS");
  if (summaryTokens !== undefined) history.summaryTokens = summaryTokens;
  if (env.HISTORY__SUMMARY_MODEL?.trim()) history.summaryModel = env.HISTORY__SUMMARY_MODEL.trim();
  if (Object.keys(history).length) out.history = history as HistoryOptions;
  return out;
}

/**
 * Validates host tools with the host_context action rules.
 *
 * @example
 * ```ts
 * const tools = parseHostTools(JSON.parse(env.TOOLS__HOST_TOOLS ?? "[]"), "TOOLS__HOST_TOOLS");
 * ```
 */
export function parseHostTools(value: unknown, source: string): HostAction[] {
  if (!Array.isArray(value)) {
    throw new ConfigError(`${source} must be a JSON array of actions.`);
  }
  const parsed = parseHostContext({ actions: value });
  if (!parsed.ok) {
    const first = parsed.issues[0];
    throw new ConfigError(`${source}: ${first.path.replace(/^actions\.?/, "")} ${first.message}`);
  }
  const unbounded = schemaIssues(parsed.value.actions, source);
  if (unbounded.length) throw new ConfigError(unbounded[0].message);
  return parsed.value.actions ?? [];
}

/**
 * The options that the environment sets; read files with `readFile` (given by
 * the runtime entry, so this module stays free of Node and Deno APIs).
 *
 * @example
 * ```ts
 * const options = optionsFromEnv({ STORE__URL: "memory:", MODEL__DEFAULT: "offline" });
 * ```
 */
export function optionsFromEnv(
  env: Env,
  readFile?: (path: string) => string,
): Partial<RuntimeOptions> {
  const out: Partial<RuntimeOptions> = { env, ...modelSettings(env) };
  if (env.MODEL__DEFAULT) out.model = env.MODEL__DEFAULT;
  if (env.STORE__URL) out.storeUrl = env.STORE__URL;
  if (env.MODEL__ALLOWED) {
    out.allowedModels = env.MODEL__ALLOWED.split(",").map((s) => s.trim()).filter(Boolean);
  }
  let tools = json(env, "TOOLS__HOST_TOOLS");
  if (tools === undefined && env.TOOLS__HOST_TOOLS_PATH) {
    if (!readFile) throw new ConfigError("TOOLS__HOST_TOOLS_PATH needs a file reader.");
    try {
      tools = JSON.parse(readFile(env.TOOLS__HOST_TOOLS_PATH));
    } catch (error) {
      throw new ConfigError(
        `TOOLS__HOST_TOOLS_PATH (${env.TOOLS__HOST_TOOLS_PATH}) could not be read as JSON: ${
          (error as Error).message
        }`,
      );
    }
  }
  if (tools !== undefined) {
    out.hostTools = parseHostTools(
      tools,
      env.TOOLS__HOST_TOOLS ? "TOOLS__HOST_TOOLS" : "TOOLS__HOST_TOOLS_PATH",
    );
  }
  const scopes = json(env, "TOOLS__PAGE_SCOPES");
  if (scopes !== undefined) {
    const ok = typeof scopes === "object" && scopes !== null && !Array.isArray(scopes) &&
      Object.values(scopes).every((v) => Array.isArray(v) && v.every((s) => typeof s === "string"));
    if (!ok) {
      throw new ConfigError(
        'TOOLS__PAGE_SCOPES must map tool names to arrays of view names, like {"search":["tasks"]}.',
      );
    }
    out.pageScopes = scopes as Record<string, string[]>;
  }
  const limits: Partial<Limits> = {};
  const pairs: [keyof Limits, string][] = [
    ["maxModelRequests", "LIMITS__MAX_MODEL_REQUESTS"],
    ["maxToolCalls", "LIMITS__MAX_TOOL_CALLS"],
    ["toolTimeoutMs", "LIMITS__TOOL_TIMEOUT_MS"],
    ["maxBodyBytes", "LIMITS__MAX_BODY_BYTES"],
    ["bodyTimeoutMs", "LIMITS__BODY_TIMEOUT_MS"],
    ["maxBodyReads", "LIMITS__MAX_BODY_READS"],
    ["maxBodyReadsPerClient", "LIMITS__MAX_BODY_READS_PER_CLIENT"],
    ["maxJsonDepth", "LIMITS__MAX_JSON_DEPTH"],
    ["maxContentChars", "LIMITS__MAX_CONTENT_CHARS"],
    ["maxSessionAttachmentChars", "LIMITS__MAX_SESSION_ATTACHMENT_CHARS"],
    ["eventLogSize", "LIMITS__EVENT_LOG_SIZE"],
    ["leaseTtlMs", "LIMITS__LEASE_TTL_MS"],
  ];
  for (const [key, name] of pairs) {
    const value = int(env, name);
    if (value !== undefined) limits[key] = value;
  }
  if (Object.keys(limits).length) out.limits = limits as Limits;
  const access: Partial<AccessOptions> = {};
  const mode = env.ACCESS__MODE;
  if (mode) {
    if (mode !== "trusted_local" && mode !== "header") {
      throw new ConfigError(`ACCESS__MODE must be trusted_local or header, got "${mode}".`);
    }
    access.mode = mode;
  }
  if (env.ACCESS__TOKEN) access.token = env.ACCESS__TOKEN;
  if (env.ACCESS__ADMIN_TOKEN) access.adminToken = env.ACCESS__ADMIN_TOKEN;
  if (env.ACCESS__WORKSPACE_HEADER) {
    access.workspaceHeader = env.ACCESS__WORKSPACE_HEADER.toLowerCase();
  }
  if (env.ACCESS__PRINCIPAL_HEADER) {
    access.principalHeader = env.ACCESS__PRINCIPAL_HEADER.toLowerCase();
  }
  if (env.ACCESS__ROLES_HEADER) access.rolesHeader = env.ACCESS__ROLES_HEADER.toLowerCase();
  if (env.ACCESS__CORS_ORIGINS) {
    access.corsOrigins = env.ACCESS__CORS_ORIGINS.split(",").map((s) => s.trim()).filter(Boolean);
  }
  if (Object.keys(access).length) out.access = access as AccessOptions;
  try {
    const gate = policyOptionsFromEnv(env);
    if (gate) out.gate = gate;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const inspect = env.DEBUG__INSPECT?.trim().toLowerCase();
  if (inspect) {
    if (inspect !== "true" && inspect !== "false") {
      throw new ConfigError(`DEBUG__INSPECT must be true or false, got "${env.DEBUG__INSPECT}".`);
    }
    out.debug = { inspect: inspect === "true" };
  }
  const remote: Partial<RemoteToolsOptions> = {};
  if (env.REMOTE_TOOLS__ALLOWED_HOSTS) {
    remote.allowedHosts = env.REMOTE_TOOLS__ALLOWED_HOSTS.split(",").map((s) => s.trim())
      .filter(Boolean);
  }
  const timeout = int(env, "REMOTE_TOOLS__TIMEOUT_MS");
  if (timeout !== undefined) remote.timeoutMs = timeout;
  if (env.REMOTE_TOOLS__WORKSPACE) remote.workspace = env.REMOTE_TOOLS__WORKSPACE;
  if (Object.keys(remote).length) out.remoteTools = remote as RemoteToolsOptions;
  return out;
}
