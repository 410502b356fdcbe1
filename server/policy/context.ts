/**
 * Checks an evaluation request the way Zentinelle's serializers do, before
 * any policy reads it, so Tether's policy service accepts exactly what
 * Zentinelle accepts and refuses the rest with Zentinelle's 400 bodies:
 *
 * - the request: `action` (required, up to 50 characters), `user_id` (up to
 *   255, may be empty), `agent_id` (may be empty), `authority` and
 *   `context` (objects), `target_capabilities` (booleans); a refusal is
 *   `{"<field>": ["<message>"]}`;
 * - a host's `tool_call` context: `harness` (a lowercase slug of up to 50),
 *   `session_id` and `tool_name` (up to 255), `chat_id` and `tool_call_id`
 *   (up to 255, optional), `tool_input` (any JSON but null); a refusal is
 *   `{"error": "Invalid agent host tool_call context", "context": {...}}`.
 *
 * Text fields read like Django REST framework's `CharField`: a number is
 * taken as its text, whitespace at either end is dropped, `null`, `true` and
 * objects are refused. The context itself is evaluated as sent.
 *
 * @module
 */
import { canonicalAction, type EvaluateBody } from "./contract.ts";

/** A refusal: the status and Zentinelle's body. */
export interface Refusal {
  status: 400 | 403;
  body: Record<string, unknown>;
}

/** A checked request, or the refusal to answer with. */
export type CheckedRequest =
  | {
    ok: true;
    body: EvaluateBody;
    /** `agent_id` as sent (empty when absent). */
    agentId: string;
    targetCapabilities?: Record<string, boolean>;
  }
  | { ok: false; refusal: Refusal };

const REQUIRED = "This field is required.";
const HARNESS = /^[a-z0-9][a-z0-9_.-]*$/;
const CAPABILITIES = [
  "supports_steer",
  "supports_redact",
  "supports_approval",
  "supports_interrupt",
  "supports_revoke_key",
  "supports_stop",
  "supports_quarantine",
];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Python's name for a JSON value's type, as DRF's messages spell it. */
function pythonType(v: unknown): string {
  if (v === null) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return "dict";
}

interface TextRule {
  required: boolean;
  allowBlank: boolean;
  max: number;
}

/** A DRF CharField: the text, or the field's messages. */
function text(present: boolean, v: unknown, rule: TextRule): { value?: string; errors?: string[] } {
  if (!present) return rule.required ? { errors: [REQUIRED] } : {};
  if (v === null) return { errors: ["This field may not be null."] };
  if (typeof v !== "string" && typeof v !== "number") return { errors: ["Not a valid string."] };
  const value = String(v).trim();
  if (value === "" && !rule.allowBlank) return { errors: ["This field may not be blank."] };
  if (value.length > rule.max) {
    return { errors: [`Ensure this field has no more than ${rule.max} characters.`] };
  }
  return { value };
}

function dict(present: boolean, v: unknown): string[] | null {
  if (!present) return null;
  if (v === null) return ["This field may not be null."];
  if (!isObject(v)) {
    return [`Expected a dictionary of items but got type "${pythonType(v)}".`];
  }
  return null;
}

/** The host context's errors per field (empty when it is valid). */
function hostContextErrors(ctx: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const field = (name: string, rule: TextRule, pattern?: RegExp) => {
    const checked = text(name in ctx, ctx[name], rule);
    if (checked.errors) errors[name] = checked.errors;
    else if (pattern && checked.value !== undefined && !pattern.test(checked.value)) {
      errors[name] = ["This value does not match the required pattern."];
    }
  };
  field("harness", { required: true, allowBlank: false, max: 50 }, HARNESS);
  field("session_id", { required: true, allowBlank: false, max: 255 });
  field("chat_id", { required: false, allowBlank: false, max: 255 });
  field("tool_call_id", { required: false, allowBlank: false, max: 255 });
  field("tool_name", { required: true, allowBlank: false, max: 255 });
  if ("tool_input" in ctx && ctx.tool_input === null) {
    errors.tool_input = ["This field may not be null."];
  }
  return errors;
}

/**
 * Validates an evaluation request from an agent host (and, given the key's
 * agent id, refuses a body naming another agent with 403).
 *
 * @example
 * ```ts
 * const checked = checkEvaluateBody({ action: "tool_call", context: { harness: "claude", session_id: "s", tool_name: "Bash" } });
 * if (!checked.ok) console.log(checked.refusal.body);
 * ```
 */
export function checkEvaluateBody(value: unknown, agentId?: string): CheckedRequest {
  if (!isObject(value)) {
    return {
      ok: false,
      refusal: {
        status: 400,
        body: {
          non_field_errors: [
            `Invalid data. Expected a dictionary, but got ${pythonType(value)}.`,
          ],
        },
      },
    };
  }
  const errors: Record<string, string[]> = {};
  const agent = text("agent_id" in value, value.agent_id, {
    required: false,
    allowBlank: true,
    max: Infinity,
  });
  if (agent.errors) errors.agent_id = agent.errors;
  const action = text("action" in value, value.action, {
    required: true,
    allowBlank: false,
    max: 50,
  });
  if (action.errors) errors.action = action.errors;
  const user = text("user_id" in value, value.user_id, {
    required: false,
    allowBlank: true,
    max: 255,
  });
  if (user.errors) errors.user_id = user.errors;
  for (const name of ["authority", "context"]) {
    const problem = dict(name in value, value[name]);
    if (problem) errors[name] = problem;
  }
  let capabilities: Record<string, boolean> | undefined;
  if ("target_capabilities" in value) {
    const caps = value.target_capabilities;
    if (caps === null) errors.target_capabilities = ["This field may not be null."];
    else if (!isObject(caps)) {
      errors.target_capabilities = ["target_capabilities must be an object of booleans"];
    } else {
      const wrong = Object.keys(caps).filter((k) => typeof caps[k] !== "boolean").sort();
      if (wrong.length) {
        errors.target_capabilities = [
          `target_capabilities values must be true or false: ${wrong.join(", ")}`,
        ];
      } else {
        capabilities = Object.fromEntries(
          Object.entries(caps).filter(([k]) => CAPABILITIES.includes(k)),
        ) as Record<string, boolean>;
      }
    }
  }
  if (Object.keys(errors).length) return { ok: false, refusal: { status: 400, body: errors } };
  // An agent_id in the body must be the key's own.
  if (agentId !== undefined && agent.value && agent.value !== agentId) {
    return { ok: false, refusal: { status: 403, body: { error: "Agent ID mismatch" } } };
  }
  const canonical = canonicalAction(action.value!);
  const context = isObject(value.context) ? value.context : {};
  if (canonical === "tool_call") {
    const problems = hostContextErrors(context);
    if (Object.keys(problems).length) {
      return {
        ok: false,
        refusal: {
          status: 400,
          body: { error: "Invalid agent host tool_call context", context: problems },
        },
      };
    }
  }
  const body: EvaluateBody = {
    action: canonical,
    ...(user.value !== undefined ? { user_id: user.value } : {}),
    context: {
      ...context,
      ...(isObject(value.authority) && Object.keys(value.authority).length
        ? { authority: value.authority }
        : {}),
    } as EvaluateBody["context"],
  };
  return {
    ok: true,
    body,
    agentId: agent.value ?? "",
    ...(capabilities ? { targetCapabilities: capabilities } : {}),
  };
}
