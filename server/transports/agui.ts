/**
 * `POST /api/agui`: the runtime as an AG-UI agent. It takes a
 * `RunAgentInput` (see `_agui_input.ts` for how it maps onto a message or
 * continuations) and answers with the AG-UI event stream of the turn
 * (`data:` lines of JSON events). A request refused before its turn started
 * gets the ordinary HTTP error answer; a client that aborts the run cancels
 * the turn.
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import type { Engine } from "../engine.ts";
import type { Principal } from "../http/principal.ts";
import { type AguiEvent, AguiRun } from "./_agui_events.ts";
import { planAguiRun } from "./_agui_input.ts";
import { sseResponse } from "./_sse_response.ts";
import { followTurn } from "./_turn_follower.ts";
import { assertMayUse, dispatchMessage } from "./dispatch.ts";
import { transportError } from "./transport_error.ts";

/** Puts continuations in the order the runtime hands the calls out (pending first, then queued). */
async function inRuntimeOrder(engine: Engine, bodies: MessageBody[]): Promise<MessageBody[]> {
  const pending = (await engine.repo.record(bodies[0].session_id))?.value.pending_action;
  const order = pending ? [pending.tool_call_id, ...pending.queued.map((q) => q.call_id)] : [];
  // Results for calls that are not waiting go first, so the engine refuses them with its precise reason.
  const rank = (b: MessageBody) => order.indexOf(b.tool_call_id ?? "");
  const sorted = [...bodies].sort((a, b) => rank(a) - rank(b));
  const context = bodies.find((b) => b.host_context)?.host_context;
  return sorted.map((b, i) => {
    const { host_context: _h, ...rest } = b;
    return context && i === sorted.length - 1 ? { ...rest, host_context: context } : rest;
  });
}

/**
 * Runs an AG-UI request and answers with its event stream.
 *
 * @example
 * ```ts
 * app.post("/api/agui", async (c) => runAgui(engine, principal, await c.req.json()));
 * ```
 */
export async function runAgui(
  engine: Engine,
  principal: Principal,
  raw: unknown,
): Promise<Response> {
  const plan = await planAguiRun(raw);
  const sid = plan.threadId;
  await assertMayUse(engine, principal, sid);
  const bodies = plan.continuation ? await inRuntimeOrder(engine, plan.bodies) : plan.bodies;
  // Every result but the last only hands over the next queued call; the model runs after the last.
  for (const body of bodies.slice(0, -1)) {
    const dispatched = await dispatchMessage(engine, principal, body);
    if (!dispatched.steered) await dispatched.run;
  }
  const turn = await followTurn(engine, principal, bodies.at(-1)!);
  const run = new AguiRun(sid, plan.runId);
  return sseResponse((sink, signal) => {
    let finished = false;
    const send = (event: AguiEvent) => sink.send({ data: JSON.stringify(event) });
    signal.addEventListener("abort", () => {
      turn.stop();
      if (!finished) engine.cancel(principal, sid).catch(() => {});
    }, { once: true });
    send(run.start());
    turn.pipe((event) => run.translate(event).forEach(send), (failure) => {
      finished = true;
      const error = failure ? transportError(failure.error, sid, engine.options.logger) : null;
      run.finish(error ? { message: error.message, code: error.type } : undefined).forEach(send);
      sink.close();
    });
  });
}
