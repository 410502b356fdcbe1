/**
 * Shared pieces of the hold tests: a runtime on loopback whose model calls a
 * backend tool `run_command` (counting its runs), the policy that holds it,
 * and a Socket.IO client attached to a session.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
import { client, type TestClient, type TestRuntime } from "../../server/transports/_test_kit.ts";
import { runtime } from "../../server/transports/_test_kit.ts";
import { scriptedModel } from "../../server/testing/scripted_model.ts";
import type { BackendTool } from "../../server/tools/backend_tool.ts";
import type { PolicyOptions } from "../../server/policy/options.ts";
import { manualClock } from "../../server/policy/testing/manual_clock.ts";

/** The admin token the tests' operator uses. */
export const ADMIN = "admin-token-for-tests-0123456789";

/** A policy that holds `run_command` for approval (with an optional window). */
export const holdPolicy = (seconds?: number) => ({
  policies: [{
    id: "hold-shell",
    name: "Shell needs a human",
    type: "tool_permission" as const,
    version: 1,
    config: {
      requires_approval: ["run_command"],
      ...(seconds ? { approval_timeout_seconds: seconds } : {}),
    },
  }],
});

/** A runtime whose model calls run_command once per turn, then answers. */
export async function holdRuntime(
  gate: Partial<PolicyOptions>,
  env: Record<string, string> = {},
  call: { name: string; args: Record<string, unknown> } = {
    name: "run_command",
    args: { command: "npm test" },
  },
) {
  const clock = manualClock();
  const runs: unknown[] = [];
  const tool: BackendTool = {
    name: "run_command",
    description: "Runs a shell command.",
    parameters: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
    },
    execute: (args) => (runs.push(args), { exit: 0 }),
  };
  // Each turn: one run_command call, then an answer once the call is settled.
  const model = scriptedModel(
    Array.from({ length: 8 }, () => [
      { calls: [call] },
      { text: "Done." },
    ]).flat(),
  );
  const rt: TestRuntime = await runtime({
    model,
    backendTools: [tool],
    gate: { clock, now: clock.now, pollMs: 2_000, ...gate },
    env: { ACCESS__ADMIN_TOKEN: ADMIN, ...env },
  });
  return { rt, clock, runs, model };
}

/** A client attached to a session that has sent one message. */
export async function ask(
  rt: TestRuntime,
  sid: string,
  hostContext?: unknown,
): Promise<{ c: TestClient; call: any }> {
  const c = await client(rt.url);
  await c.ask("assistant_join_session", { session_id: sid });
  c.socket.emit("assistant_message", {
    session_id: sid,
    content: "run the tests",
    ...(hostContext ? { host_context: hostContext } : {}),
  });
  await c.until((e) => e.event === "assistant:status" && e.payload.status === "completed");
  const call = c.events.find((e) => e.event === "assistant:tool_call")?.payload;
  return { c, call };
}

/** Calls an operator route with the admin token (or the given headers). */
export async function operator(
  rt: TestRuntime,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${ADMIN}` },
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${rt.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Counts the events named `event` a client received. */
export const count = (c: TestClient, event: string, status?: string) =>
  c.events.filter((e) => e.event === event && (status === undefined || e.payload.status === status))
    .length;
