/**
 * `<tether-inspector>`: what the model saw and did, for the developer. Its
 * own chunk, never in the chat's first download: `<tether-chat inspect>`
 * loads it when the Inspect button is first pressed, and a page that shows
 * it alone imports `@tether/web/elements/inspector` (`define_inspector.ts`),
 * which defines it.
 *
 * @module
 */
import type { CSSResult, PropertyValues, TemplateResult } from "lit";
import type { Host, InspectionView, PendingFields, RunInspection } from "../client/mod.ts";
import type { HeadersSource } from "../client/_http.ts";
import type { Kit } from "./_lazy_kit.ts";
import { inspectorStyles } from "./inspector.styles.ts";

// Lit and the rest come from the bundle that loaded this module (see _lazy_kit.ts).
const found = (globalThis as { [key: symbol]: Kit | undefined })[Symbol.for("tether.elements.kit")];
if (!found) {
  throw new Error(
    "Load <tether-inspector> through @tether/web/elements/inspector or <tether-chat inspect>, not this module alone.",
  );
}
const kit: Kit = found;
// One name a statement, each typed: JSR's fast check reads no destructuring in a public class's heritage.
const LitElement: Kit["LitElement"] = kit.LitElement;
const html: Kit["html"] = kit.html;
const nothing: Kit["nothing"] = kit.nothing;
const HostController: Kit["HostController"] = kit.HostController;
const findChat: Kit["findChat"] = kit.findChat;
const watchChats: Kit["watchChats"] = kit.watchChats;
const headersOf: Kit["headersOf"] = kit.headersOf;
const runtimeHref: Kit["runtimeHref"] = kit.runtimeHref;
const readEventStream: Kit["readEventStream"] = kit.readEventStream;

type Inspection = InspectionView;
type Run = RunInspection;

interface SeenEvent {
  seq: number | null;
  name: string;
  at: string;
  summary: string;
}

/** Events kept on screen. */
const KEPT_EVENTS = 300;

const n = (value: number) => value.toLocaleString("en");
const ms = (value: number | null) => (value === null ? "–" : `${n(value)} ms`);

/** A short line of what an event says. */
function summarize(payload: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of ["status", "tool_name", "call_id", "content", "message", "error_type"]) {
    const value = payload[key];
    if (typeof value === "string" && value) parts.push(`${key}: ${value.slice(0, 80)}`);
  }
  return parts.join(" · ");
}

/**
 * The inspector: the session's live event stream (from its stored log on),
 * and for each run of a turn the context blocks exactly as the model received
 * them with their size in tokens, the tools offered with their kinds, each
 * call with its kind, status, what it waits for and the policy's decision
 * and reason, the model's usage and timings; the call pending now; the
 * page's connection and transport. The runtime must run with
 * `DEBUG__INSPECT=true` (the inspector says so otherwise) and only the
 * session's owner may inspect it.
 *
 * Give it a host (`inspector.host = host`: it follows the host's session,
 * switches included), the chat's through its `for` attribute, or a
 * `session-id` and `runtime-url` (any session, AG-UI ones too; set
 * `headers` for a token).
 *
 * @tagname tether-inspector
 * @summary The developer's view of a session: events, rendered context, tools, calls, policy, usage.
 *
 * @csspart panel - The inspector's frame.
 * @csspart header - The title bar.
 * @csspart heading - The inspector's title (an `h2`).
 * @csspart connection - The connection, transport and event stream.
 * @csspart pending - The call pending now.
 * @csspart turn - Each recorded run of a turn (a disclosure).
 * @csspart context - A context block as the model received it.
 * @csspart tools - The tools offered.
 * @csspart calls - The calls table.
 * @csspart requests - The model requests table.
 * @csspart events - The event stream.
 * @csspart notice - What the inspector says when it cannot show something.
 *
 * @cssprop --tether-font - Font family.
 * @cssprop --tether-font-mono - Monospace font of context and events.
 * @cssprop --tether-bg - Background.
 * @cssprop --tether-surface - Background of context blocks.
 * @cssprop --tether-fg - Text colour.
 * @cssprop --tether-muted - Secondary text colour.
 * @cssprop --tether-border - Border colour.
 * @cssprop --tether-warning - What waits.
 * @cssprop --tether-danger - Denials and errors.
 *
 * @example
 * ```html
 * <tether-inspector for="assistant"></tether-inspector>
 * <tether-inspector session-id="s-42" runtime-url="http://127.0.0.1:7100"></tether-inspector>
 * ```
 */
export class TetherInspector extends LitElement {
  static override styles: CSSResult[] = inspectorStyles(kit);
  static override properties = {
    sessionId: { type: String, attribute: "session-id" },
    runtimeUrl: { type: String, attribute: "runtime-url" },
    theme: { type: String, reflect: true },
    host: { attribute: false },
    headers: { attribute: false },
  };

  /** The session to inspect when no host is given. */
  declare sessionId: string | undefined;
  /** The runtime's URL when no host is given (relative URLs resolve against the page). */
  declare runtimeUrl: string | undefined;
  /** `light`, `dark`, or unset to follow the user's preference. */
  declare theme: "light" | "dark" | undefined;
  /** Headers for the inspector's requests when no host is given (a bearer token, say). */
  declare headers: HeadersSource | undefined;
  #explicit: Host | undefined;
  #client = new HostController(this);
  #unwatch: (() => void) | undefined;
  #view: Inspection | null = null;
  #notice = "";
  #events: SeenEvent[] = [];
  #stream: AbortController | undefined;
  #streaming: "idle" | "open" | "reconnecting" | "closed" = "idle";
  #target = "";
  #refresh: ReturnType<typeof setTimeout> | undefined;

  /**
   * Registers `<tether-inspector>`, unless taken.
   *
   * @example
   * ```ts
   * TetherInspector.define();
   * ```
   */
  static define(tag = "tether-inspector"): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The host whose session it inspects (set, or the chat's). */
  get host(): Host | undefined {
    if (this.#explicit) return this.#explicit;
    return this.sessionId ? undefined : findChat(this.getAttribute("for") ?? "")?.host;
  }

  set host(host: Host | undefined) {
    this.#explicit = host;
    this.requestUpdate();
  }

  /** What the inspector shows now (null until the first answer). */
  get inspection(): Inspection | null {
    return this.#view;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatch ??= watchChats(() => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#stream?.abort();
    this.#stream = undefined;
    this.#target = "";
    clearTimeout(this.#refresh);
  }

  /** Reads the runtime's record of the session again. */
  async refresh(): Promise<void> {
    const where = this.#where();
    if (!where) return;
    try {
      const response = await fetch(
        runtimeHref(where.url, `api/sessions/${encodeURIComponent(where.session)}/inspect`),
        { headers: { ...headersOf(where.headers), accept: "application/json" } },
      );
      const body = await response.json().catch(() => null);
      if (where.session !== this.#where()?.session) return;
      if (response.ok) {
        this.#view = body as Inspection;
        this.#notice = "";
      } else {
        this.#view = null;
        this.#notice = response.status === 404 && /DEBUG__INSPECT/.test(body?.error?.message ?? "")
          ? "Inspection is off on this runtime: start it with DEBUG__INSPECT=true to see what the model was given."
          : response.status === 404
          ? "This session has no messages yet."
          : `The runtime refused the inspection (${response.status}): ${
            body?.error?.message ?? response.statusText
          }`;
      }
    } catch (error) {
      this.#notice = `The runtime could not be reached: ${(error as Error).message}`;
    }
    this.requestUpdate();
  }

  #where(): { url: string; session: string; headers?: HeadersSource } | null {
    const host = this.host;
    if (host) {
      return {
        url: host.options.runtimeUrl,
        session: host.sessionId,
        headers: host.options.headers,
      };
    }
    if (!this.sessionId || !this.runtimeUrl) return null;
    return {
      url: new URL(this.runtimeUrl, location.href).href,
      session: this.sessionId,
      headers: this.headers,
    };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (this.#client.host !== this.host) this.#client.host = this.host;
    const where = this.#where();
    const target = where ? `${where.url} ${where.session}` : "";
    if (target === this.#target || !this.isConnected) return;
    this.#target = target;
    this.#stream?.abort();
    this.#events = [];
    this.#view = null;
    this.#notice = "";
    if (!where) return;
    void this.refresh();
    void this.#follow(where);
  }

  /** Follows the session's event stream from its stored log on, reconnecting after a break. */
  async #follow(where: { url: string; session: string; headers?: HeadersSource }): Promise<void> {
    const stream = this.#stream = new AbortController();
    let last = 0;
    let delay = 500;
    while (!stream.signal.aborted) {
      try {
        const response = await fetch(
          runtimeHref(where.url, `api/sessions/${encodeURIComponent(where.session)}/events`),
          {
            headers: {
              ...headersOf(where.headers),
              accept: "text/event-stream",
              "last-event-id": String(last),
            },
            signal: stream.signal,
          },
        );
        if (!response.ok || !response.body) {
          // A session not started yet has no stream: look again in a while.
          this.#streaming = "reconnecting";
        } else {
          this.#streaming = "open";
          delay = 500;
          this.requestUpdate();
          for await (const message of readEventStream(response.body)) {
            const payload = JSON.parse(message.data) as Record<string, unknown>;
            const seq = typeof payload.seq === "number" ? payload.seq : null;
            if (seq !== null) last = Math.max(last, seq);
            this.#seen({
              seq,
              name: message.event,
              at: new Date().toISOString(),
              summary: summarize(payload),
            });
            if (message.event === "assistant:status" && payload.status === "completed") {
              clearTimeout(this.#refresh);
              this.#refresh = setTimeout(() => void this.refresh(), 150);
            }
          }
          this.#streaming = "reconnecting";
        }
      } catch {
        if (stream.signal.aborted) break;
        this.#streaming = "reconnecting";
      }
      this.requestUpdate();
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10_000);
    }
    this.#streaming = "closed";
  }

  #seen(event: SeenEvent): void {
    this.#events = [...this.#events.slice(-(KEPT_EVENTS - 1)), event];
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const where = this.#where();
    const view = this.#view;
    const host = this.host;
    const state = this.#client.state;
    return html`
      <section part="panel" class="panel" aria-labelledby="inspector-heading">
        <header part="header">
          <h2 part="heading" id="inspector-heading">Inspector</h2>
          <button type="button" @click=${() => this.refresh()} ?disabled=${!where}>Refresh</button>
        </header>
        <dl part="connection" class="facts">
          <dt>Session</dt><dd><code>${where?.session ?? "none"}</code></dd>
          ${host
            ? html`
              <dt>Connection</dt>
              <dd>${state?.connection ?? "idle"}</dd>
              <dt>Transport</dt>
              <dd>${host.transport}</dd>
            `
            : nothing}
          <dt>Event stream</dt><dd>${this.#streaming} (${this.#events.length} events)</dd>
        </dl>
        ${this.#notice
          ? html`<p part="notice" class="notice" role="status">${this.#notice}</p>`
          : nothing}
        ${view ? this.#pending(view) : nothing}
        ${view
          ? html`<div class="runs">${
            [...view.runs].reverse().map((run, i) => this.#run(run, i === 0))
          }</div>`
          : nothing}
        ${this.#eventList()}
      </section>
    `;
  }

  #pending(view: Inspection): TemplateResult {
    const p: (PendingFields & { tool_name: string }) | null = view.pending;
    return html`
      <section part="pending" class="pending" aria-label="Pending now">
        <h3>Pending now</h3>
        ${p
          ? html`<p><code>${p.tool_name}</code> (${p.category ?? "host"}) waits for
              <strong>${p.waiting_for ?? "host"}</strong>${
            p.approval
              ? html`: ${p.approval.reason} <span class="muted">(expires ${p.approval.expires_at})</span>`
              : nothing
          }${
            p.preview
              ? html`
                · preview: ${p.preview}
              `
              : nothing
          }</p>`
          : html`<p class="muted">Nothing is pending.</p>`}
      </section>
    `;
  }

  #run(run: Run, open: boolean): TemplateResult {
    const tokens = run.context.reduce((sum, b) => sum + b.tokens, 0);
    return html`
      <details part="turn" class="turn" ?open=${open}>
        <summary>
          Turn ${run.turn} · ${run.status} · ${ms(run.duration_ms)} · ${run.usage.model_requests}
          request${run.usage.model_requests === 1 ? "" : "s"} · ${n(run.usage.input_tokens)} in /
          ${n(run.usage.output_tokens)} out · ${run.model}
        </summary>
        ${run.error ? html`<p class="denied">${run.error.type}: ${run.error.message}</p>` : nothing}
        <h4>Context the model was given (≈ ${n(tokens)} tokens)</h4>
        ${run.context.length
          ? run.context.map((b) =>
            html`
              <p class="muted">${b.tag}: ≈ ${n(b.tokens)} tokens${b.truncated
                ? " (cut here)"
                : ""}</p>
              <pre part="context" class="context">${b.text}</pre>
            `
          )
          : html`<p class="muted">No context block in this run's prompt.</p>`}
        <h4>Calls (${run.calls.length})</h4>
        ${run.calls.length
          ? html`
            <ul part="calls" class="calls">${run.calls.map((c) =>
              html`
                <li class="call ${c.policy?.decision ?? ""}" data-call=${c.call_id}>
                  <code class="tool">${c.tool_name}</code>
                  <span class="kind">${c.kind}${c.verb ? ` · ${c.verb}` : ""}</span> ·
                  <span class="status">${c.status}</span>
                  <div class="muted">
                    waits for <span class="waits">${c.waiting_for ?? "nothing"}</span> · policy
                    <span class="decision">${c.policy?.decision ??
                      "not asked"}</span>${c.policy?.reason ||
                        c.error
                      ? html`: <span class="reason">${c.policy?.reason ?? c.error}</span>`
                      : nothing}
                  </div>
                </li>
              `
            )}</ul>
          `
          : html`<p class="muted">No calls.</p>`}
        <h4>Tools offered (${run.tools.length})</h4>
        <ul part="tools" class="tools">
          ${run.tools.map((t) =>
            html`<li><code>${t.name}</code> <span class="muted">${t.kind}${
              t.verb ? ` · ${t.verb}` : ""
            }</span></li>`
          )}
        </ul>
        <h4>Model requests (${run.requests.length})</h4>
        <ol part="requests" class="requests">${run.requests.map((r) =>
          html`
            <li>
              first chunk <span class="first">${ms(r.first_chunk_ms)}</span>, done in
              ${ms(r.duration_ms)} · ${r.usage
                ? `${n(r.usage.input_tokens)} in (${n(r.usage.cached_input_tokens)} cached) / ${
                  n(r.usage.output_tokens)
                } out`
                : "no usage"} · ${r.error ?? r.finish_reason ?? "not finished"}
            </li>
          `
        )}</ol>
      </details>
    `;
  }

  #eventList(): TemplateResult {
    return html`
      <section part="events" class="events" aria-label="Events">
        <h3>Events</h3>
        ${this.#events.length
          ? html`<ol>${
            [...this.#events].reverse().map((e) =>
              html`<li><code>${
                e.seq ?? "·"
              }</code> <strong>${e.name}</strong> <span class="muted">${e.summary}</span></li>`
            )
          }</ol>`
          : html`<p class="muted">No events yet.</p>`}
      </section>
    `;
  }
}
