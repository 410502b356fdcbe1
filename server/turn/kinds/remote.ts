/**
 * Remote tools (the generic-rest contract): the kind discovers the
 * workspace's tool servers' tools and contexts for each turn; a `get` runs inside the turn
 * through the tool server's execute; `create` and `update` pend with the
 * server's preview until the user applies or cancels; `delete` needs a
 * second apply. A failure reaches the user and the model as a short generic
 * message; the log keeps the status and the server's own error text.
 *
 * @module
 */
import { validationError } from "../../http/errors.ts";
import { RemoteFailure } from "../../remote-tools/client.ts";
import { sanitizeDisplay } from "../../remote-tools/display.ts";
import type { RemoteCall } from "../../remote-tools/remote_tools.ts";
import { renderRemoteContext } from "../../remote-tools/turn_parts.ts";
import type { Verb } from "../../../protocol/mod.ts";
import type { CallRecord } from "../../session/records.ts";
import { toolResultEvent } from "../events.ts";
import type { RunContext } from "../run_context.ts";
import { failCall, withToolTimeout } from "../tool_run.ts";
import type { ToolKind } from "./kind.ts";

/** What a remote tool and a call to it keep: the integration that offers it and its verb. */
export interface RemoteData {
  integrationId: string;
  verb: Verb;
}

/** A call's data; records written before kinds kept their data carry it at the top level. */
function dataOf(call: CallRecord<RemoteData>): Partial<RemoteData> {
  if (call.data) return call.data;
  const legacy = call as { verb?: Verb; integration_id?: string };
  return { verb: legacy.verb, integrationId: legacy.integration_id };
}

/** What a user's decline tells the model. */
export const DECLINED = "The user declined this action, so it was not carried out.";

function remoteCall(call: CallRecord<RemoteData>): RemoteCall {
  return {
    integrationId: dataOf(call).integrationId ?? "",
    tool: call.tool_name,
    callId: call.call_id,
    arguments: call.arguments,
  };
}

/** The short text the user and the model get for a failure (never the server's own words). */
function failure(call: CallRecord<RemoteData>, error: unknown, ctx: RunContext): string {
  const what = `${call.tool_name} could not be completed`;
  if (!(error instanceof RemoteFailure)) {
    return error instanceof Error && error.name === "ToolTimeoutError"
      ? `${what}: the tool server did not answer within ${ctx.limits.toolTimeoutMs} ms.`
      : `${what}: the tool server is not available.`;
  }
  switch (error.reason) {
    case "status":
      return `${what}: the tool server answered ${error.status}.`;
    case "timeout":
      return `${what}: the tool server did not answer in time.`;
    case "shape":
      return `${what}: the tool server's answer did not follow the contract.`;
    default:
      return `${what}: the tool server could not be reached.`;
  }
}

function scopeOf(ctx: RunContext) {
  if (!ctx.remote) throw new RemoteFailure("network", "no remote tool servers in this runtime");
  return ctx.remote;
}

/**
 * The remote kind.
 *
 * @example
 * ```ts
 * remoteKind.mode({ ...call, data: { integrationId: "int_1", verb: "delete" } }); // "pend"
 * ```
 */
export const remoteKind: ToolKind<RemoteData, RemoteData> = {
  category: "remote",
  async offer({ outputMode, scope, remote, fresh, options, sessionId, context }) {
    // Silent decisions offer only the context's actions: no tool server is asked.
    if (outputMode === "host_tools" || !scope) return { tools: [] };
    // The page's actions keep their names: a tool server's tool of the same name is refused.
    const pageActions = (context?.actions ?? []).map((a) => a.name);
    const found = await remote.discover(scope, fresh, pageActions).catch((error) => {
      options.logger.warn("remote tool discovery failed", { session_id: sessionId, error });
      return null;
    });
    return {
      tools: (found?.tools ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
        category: "remote",
        data: { integrationId: t.integrationId, verb: t.verb },
      })),
      context: fresh ? renderRemoteContext(found) : null,
    };
  },
  callData: (tool) => ({ ...tool.data! }),
  inspect: (tool) => (tool.data ? { verb: tool.data.verb } : {}),
  describe: (call) => {
    const { verb } = dataOf(call);
    return verb ? { verb } : {};
  },
  mode: (call) => (dataOf(call).verb === "get" ? "run" : "pend"),
  async run(ctx, call) {
    const started = Date.now();
    try {
      const { tools, scope } = scopeOf(ctx);
      const output = await withToolTimeout(
        ctx,
        (signal) => tools.execute(remoteCall(call), scope, signal),
      );
      const shown = new Set(ctx.assistant.calls.flatMap((c) => c.display ?? []).map((d) => d.url));
      const display = sanitizeDisplay(output, shown);
      const facts = output && typeof output === "object" && !Array.isArray(output)
        ? { ...(output as Record<string, unknown>) }
        : output;
      if (facts && typeof facts === "object" && "display" in facts) {
        // The model reads the cards as they were shown, never the raw entries.
        (facts as Record<string, unknown>).display = display;
      }
      call.result = facts;
      if (display.length) call.display = display;
      call.status = "completed";
      await ctx.emit(
        "assistant:tool_result",
        toolResultEvent(call, {
          duration_ms: Date.now() - started,
          ...(display.length ? { display } : {}),
        }),
      );
    } catch (error) {
      await failCall(ctx, call, error, failure(call, error, ctx));
    }
  },
  async pend(ctx, call) {
    const { verb = "update" } = dataOf(call);
    let preview: string;
    try {
      const { tools, scope } = scopeOf(ctx);
      preview = await withToolTimeout(
        ctx,
        (signal) => tools.preview(remoteCall(call), scope, signal),
      );
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw new Error(failure(call, error, ctx));
    }
    return {
      category: "remote",
      waiting_for: "confirmation",
      verb,
      preview,
      confirmations_required: verb === "delete" ? 2 : 1,
      confirmations_received: 0,
    };
  },
  continue(_ctx, call, pending, body) {
    const answer = body.tool_result as { decision?: unknown } | null | undefined;
    const decision = answer && typeof answer === "object" ? answer.decision : undefined;
    if (decision !== "apply" && decision !== "cancel") {
      throw validationError(
        `Call ${call.call_id} waits for a confirmation: send tool_result {"decision": "apply"} or {"decision": "cancel"}.`,
        [{ path: "tool_result.decision", message: 'must be "apply" or "cancel"' }],
      );
    }
    if (decision === "cancel") {
      call.status = "cancelled";
      call.error = DECLINED;
      return { kind: "recorded" };
    }
    if (pending.waiting_for !== "confirmation") {
      throw validationError(`Call ${call.call_id} does not wait for a confirmation.`, []);
    }
    if (pending.confirmations_required > pending.confirmations_received + 1) {
      return { kind: "pending", fields: { ...pending, confirmations_received: 1 } };
    }
    return { kind: "run" };
  },
};
