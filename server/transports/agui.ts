/**
 * `POST /api/agui`: the runtime as an AG-UI agent (AG-UI 1.1 over HTTP and
 * SSE; docs/agui.md compares it rule by rule). It takes a `RunAgentInput`
 * (see `_agui_input.ts` for how it maps onto a message or continuations,
 * several tool messages answering several pending calls at once) and
 * answers with the AG-UI event stream of the turn (`data:` lines of JSON
 * events). A request refused before its turn started gets the ordinary HTTP
 * error answer; a client that aborts the run cancels the turn. A turn that
 * stops on a call held for a person's approval does not end the run: the
 * application cannot answer it, so the run waits (with keep-alive comments)
 * until the hold is decided and the turn has gone on.
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
import { follow } from "../events/follow.ts";
import { viewer } from "../events/stamp.ts";
import type { SessionEvent } from "../events/hub.ts";

/** How often a run that waits on an approval hold says it is still there. */
const HOLD_KEEPALIVE_MS = 15_000;

const isCompleted = (e: SessionEvent) =>
  e.event === "assistant:status" && e.payload.status === "completed";

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
  if (plan.warnings.length) {
    // For the developer, not the user: what the input carried that Tether passed over.
    engine.options.logger.warn("AG-UI input: material passed over", {
      session_id: sid,
      run_id: plan.runId,
      passed_over: plan.warnings,
    });
  }
  await assertMayUse(engine, principal, sid);
  const bodies = plan.continuation ? await inRuntimeOrder(engine, plan.bodies) : plan.bodies;
  // Every result but the last only hands over the next queued call; the model runs after the last.
  for (const body of bodies.slice(0, -1)) {
    const dispatched = await dispatchMessage(engine, principal, body);
    if (!dispatched.steered) await dispatched.run;
  }
  const turn = await followTurn(engine, principal, bodies.at(-1)!);
  const run = new AguiRun(sid, plan.runId, {
    protocolVersion: plan.protocolVersion,
    frontendTools: plan.frontendTools,
    answered: plan.answered,
  });
  return sseResponse((sink, signal) => {
    let finished = false;
    let lastSeq = 0;
    let stopHold = () => {};
    let beat: ReturnType<typeof setInterval> | undefined;
    const send = (event: AguiEvent) => sink.send({ data: JSON.stringify(event) });
    const end = (failure: { error: unknown } | null) => {
      finished = true;
      stopHold();
      clearInterval(beat);
      const error = failure ? transportError(failure.error, sid, engine.options.logger) : null;
      run.finish(error ? { message: error.message, code: error.type } : undefined).forEach(send);
      sink.close();
    };
    signal.addEventListener("abort", () => {
      turn.stop();
      stopHold();
      clearInterval(beat);
      if (!finished) engine.cancel(principal, sid).catch(() => {});
    }, { once: true });
    send(run.start());
    turn.pipe((event) => {
      lastSeq = event.payload.seq;
      run.translate(event).forEach(send);
    }, (failure) => {
      if (failure || !run.holding) return end(failure);
      // The turn stopped on a call held for a person's approval. Nothing the application can
      // answer: the run goes on, quiet but for keep-alives, until the hold is decided and the
      // turn has gone on from it.
      beat = setInterval(() => sink.comment("keep-alive"), HOLD_KEEPALIVE_MS);
      const see = viewer(principal);
      follow(engine.hub, sid, lastSeq, (event) => {
        if (finished) return;
        if (!see(event)) return end(null);
        run.translate(event).forEach(send);
        if (isCompleted(event) && !run.holding) end(null);
      }, () => end(null)).then((stop) => {
        if (finished || signal.aborted) stop();
        else stopHold = stop;
      }, (error) => end({ error }));
    });
  });
}
