/**
 * The oldest Zentinelle Tether works with, checked at start by two probe
 * evaluations.
 *
 * Tether needs the agent-host contract (#377: `decision`, `ask` and the
 * approval hold, answered to a key registered as `agent_type: agent_host`)
 * and the argument rules (#384: `tool_configs` commands and paths, judged
 * before approval). A release before #377 requires `agent_id` and answers
 * without `decision`, so every call would be denied; a release before #384
 * holds, as `ask`, calls its argument rules should refuse. Neither release
 * names its version on the wire, so the probe reads behaviour:
 *
 * 1. A tool_call context without `harness`. A release with #377 refuses it
 *    with `{"error": "Invalid agent host tool_call context", "context":
 *    {"harness": [...]}}` and evaluates nothing. A release before #377
 *    answers 400 for the missing `agent_id`, or evaluates it without a
 *    `decision`; an evaluation with a `decision` means the key's endpoint is
 *    not registered as an agent host.
 * 2. A whole evaluation of the tool `tether_version_probe`. Its answer must
 *    carry `decision` and `enforcement`. Zentinelle's answers carry
 *    `enforcement` since #396, the first release on the wire that can be
 *    told to include #384; a release without it is refused as lacking the
 *    argument rules. (The stored Zentinelle sources show no other sign of
 *    #384 on the wire; this is Tether's decision, in docs/architecture.md.)
 *
 * A refusal for an outdated or misregistered service is final: the runtime
 * does not start. A service that cannot be reached (or answers 5xx) is not
 * judged: the gate denies every call and probes again before the next one.
 *
 * @module
 */
import type { ProbeResult } from "./backend.ts";
import { PolicyUnavailable } from "./backend.ts";
import { reasonOf, type ZentinelleReply } from "./_zentinelle_reply.ts";

/** The tool name the probe evaluates; a policy that asks a person about it would open a request. */
export const PROBE_TOOL = "tether_version_probe";

/** What the probe needs of the client. */
interface Sender {
  send(path: string, init: RequestInit, signal?: AbortSignal): Promise<ZentinelleReply>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const UPGRADE =
  "Tether needs a Zentinelle release with the agent-host contract (#377) and its argument rules (#384); upgrade Zentinelle";

/** A transport failure or a 5xx: not a verdict on the release. */
function transient(reply: ZentinelleReply): ProbeResult | null {
  if (reply.status >= 500) {
    const said = reasonOf(reply.body);
    return {
      ok: false,
      final: false,
      reason: `Zentinelle answered ${reply.status}${said ? ` (${said})` : ""}`,
    };
  }
  return null;
}

function refusedKey(reply: ZentinelleReply): ProbeResult | null {
  if (reply.status === 401) {
    return {
      ok: false,
      final: true,
      reason: `Zentinelle refused POLICY__ZENTINELLE_KEY (401: ${
        reasonOf(reply.body) || "no reason given"
      }); use the sk_agent_ key of an endpoint registered as agent_type agent_host.`,
    };
  }
  if (reply.status === 403) {
    return {
      ok: false,
      final: true,
      reason: `Zentinelle refused the key (403: ${reasonOf(reply.body) || "no reason given"}).`,
    };
  }
  return null;
}

async function post(
  client: Sender,
  body: unknown,
  signal?: AbortSignal,
): Promise<ZentinelleReply | ProbeResult> {
  try {
    return await client.send("/evaluate", { method: "POST", body: JSON.stringify(body) }, signal);
  } catch (error) {
    if (!(error instanceof PolicyUnavailable)) throw error;
    return { ok: false, final: false, reason: error.message };
  }
}

/**
 * Probes a Zentinelle for the behaviour Tether needs.
 *
 * @example
 * ```ts
 * const result = await probeZentinelle(zentinelleBackend(options), "tether");
 * if (!result.ok) console.error(result.reason);
 * ```
 */
export async function probeZentinelle(
  client: Sender,
  harness: string,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  const probeId = `tether-version-probe-${crypto.randomUUID()}`;
  const first = await post(client, {
    action: "tool_call",
    user_id: "tether-version-probe",
    context: { session_id: probeId, tool_name: PROBE_TOOL },
  }, signal);
  if ("ok" in first) return first;
  const early = transient(first) ?? refusedKey(first);
  if (early) return early;
  const said = isObject(first.body) ? first.body : {};
  if (first.status === 400 && isObject(said.context) && "harness" in said.context) {
    // The agent-host contract is there, and the key is an agent host's. On to the whole evaluation.
  } else if (first.status === 400 && "agent_id" in said) {
    return {
      ok: false,
      final: true,
      reason:
        `${UPGRADE}: this one predates the agent-host contract (#377): it requires agent_id and answers without a decision, so every call would be denied.`,
    };
  } else if (first.status === 200 && !("decision" in said)) {
    return {
      ok: false,
      final: true,
      reason:
        `${UPGRADE}: this one predates the agent-host contract (#377): its evaluations carry no decision, so every call would be denied.`,
    };
  } else if (first.status === 200) {
    return {
      ok: false,
      final: true,
      reason:
        "Zentinelle evaluated a tool call that names no harness, which it does only for endpoints that are not agent hosts: register POLICY__ZENTINELLE_KEY's endpoint with agent_type agent_host, or calls needing approval are denied instead of held.",
    };
  } else {
    return {
      ok: false,
      final: true,
      reason: `Zentinelle answered the version probe with ${first.status}${
        reasonOf(first.body) ? ` (${reasonOf(first.body)})` : ""
      }, which no release of the agent-host contract does.`,
    };
  }
  const second = await post(client, {
    action: "tool_call",
    user_id: "tether-version-probe",
    context: {
      harness,
      session_id: probeId,
      tool_call_id: probeId,
      tool_name: PROBE_TOOL,
      tool_input: {},
    },
  }, signal);
  if ("ok" in second) return second;
  const late = transient(second) ?? refusedKey(second);
  if (late) return late;
  const answer = isObject(second.body) ? second.body : {};
  if (second.status !== 200) {
    return {
      ok: false,
      final: true,
      reason: `Zentinelle refused the version probe's evaluation (${second.status}${
        reasonOf(second.body) ? `: ${reasonOf(second.body)}` : ""
      }).`,
    };
  }
  if (!["allow", "deny", "ask"].includes(answer.decision as string)) {
    return {
      ok: false,
      final: true,
      reason:
        `${UPGRADE}: this one answers without a decision (#377), so every call would be denied.`,
    };
  }
  if (!isObject(answer.enforcement)) {
    return {
      ok: false,
      final: true,
      reason:
        `${UPGRADE}: this one answers without enforcement, which releases since #396 carry; releases before #384 hold, as ask, calls their argument rules should refuse.`,
    };
  }
  return { ok: true };
}
