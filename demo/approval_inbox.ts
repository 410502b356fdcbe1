/**
 * The operator's approval inbox: the calls the policy gate holds
 * (`GET /api/approvals`), each with its tool, input, reason and time left,
 * and Approve / Deny with an optional reason
 * (`POST /api/approvals/{id}/decision`). It signs in with the admin token as
 * `Authorization: Bearer`, refreshes on an interval, and says plainly what
 * went wrong (a refused token, a request decided or expired meanwhile, a
 * runtime out of reach). Every message names the tool and what it is about;
 * after a 401 or 403 it stops asking. The runtime leaves out a request whose
 * conversation moved on (a newer message superseded the call), so it goes. Everything shown is text: tool input and reasons
 * come from models and users.
 *
 * @module
 */
import { html, nothing, render, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";

/** One held call as `GET /api/approvals` lists it. */
export interface ApprovalRequest {
  request_id: string;
  user_id?: string;
  reason?: string;
  expires_at: string;
  seconds_left?: number;
  context?: { session_id?: string; tool_name?: string; tool_input?: unknown };
}

/** Options of {@linkcode mountApprovalInbox}. */
export interface InboxOptions {
  /** The runtime's base URL. */
  runtimeUrl: string;
  /** The admin (or operator) token. */
  token: string;
  /** How often the list is read again, in ms (default 2,000). */
  interval?: number;
}

/** What the inbox shows. */
interface View {
  requests: ApprovalRequest[];
  loaded: boolean;
  error: string;
  notice: string;
  busy: Set<string>;
}

/**
 * The token in a URL fragment `#token=...` (as `npm start` prints the
 * operator page's address), or "" when there is none.
 *
 * @example
 * ```ts
 * tokenFromFragment("#token=abc"); // "abc"
 * ```
 */
export function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token")?.trim() ?? "";
}

/** A refusal's message in the runtime's `{error: {message}}`, or the status alone. */
async function refusal(response: Response): Promise<string> {
  const body = await response.json().catch(() => null);
  const message = body?.error?.message ?? body?.error;
  return typeof message === "string" ? message : `HTTP ${response.status}`;
}

/** What to tell the operator about a refused request. */
function explain(status: number, message: string): string {
  if (status === 401) {
    return `The runtime refused the admin token (401): open the operator address that npm start printed again. ${message}`;
  }
  if (status === 403) {
    return `The runtime does not take this token as an admin's (403): open the operator address that npm start printed again. ${message}`;
  }
  if (status === 409) return `Already decided or expired (409): ${message}`;
  if (status === 404) return `Not found (404): ${message}`;
  return `The runtime answered ${status}: ${message}`;
}

const clock = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** What a held call is about: its tool and the item its input names ("assign_issue for #15"). */
export function about(r: ApprovalRequest): string {
  const tool = r.context?.tool_name ?? "the call";
  let args = r.context?.tool_input;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch { /* kept as text */ }
  }
  const a = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  const subject = typeof a.number === "number"
    ? `#${a.number}`
    : ["title", "name", "id"].map((k) => a[k]).find((v) => typeof v === "string");
  return subject === undefined
    ? tool
    : `${tool} for ${
      typeof subject === "string" && !subject.startsWith("#")
        ? `“${String(subject).slice(0, 80)}”`
        : subject
    }`;
}

/** The call's input as one line of text (the gate may pass it on already serialised). */
const input = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? {}) ?? "";
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
};

/**
 * Mounts the inbox in `root` and keeps it fresh until `stop()`.
 *
 * @example
 * ```ts
 * const inbox = mountApprovalInbox(document.querySelector("#inbox")!, {
 *   runtimeUrl: location.origin, token: tokenFromFragment(location.hash),
 * });
 * ```
 */
export function mountApprovalInbox(
  root: HTMLElement,
  options: InboxOptions,
): { refresh(): Promise<void>; stop(): void } {
  const view: View = { requests: [], loaded: false, error: "", notice: "", busy: new Set() };
  const base = options.runtimeUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${options.token}`, "content-type": "application/json" };

  let stopped = false;
  const request = async (path: string, init: RequestInit = {}): Promise<Response | string> => {
    try {
      const response = await fetch(`${base}${path}`, { ...init, headers });
      // A refused token stays refused: asking again every few seconds would only fill the log.
      if (response.status === 401 || response.status === 403) stop();
      return response.ok ? response : explain(response.status, await refusal(response));
    } catch {
      return `The runtime at ${base} cannot be reached; trying again.`;
    }
  };

  const refresh = async () => {
    const answer = await request("/api/approvals");
    if (typeof answer === "string") view.error = answer;
    else {
      const body = await answer.json();
      view.requests = Array.isArray(body?.requests) ? body.requests : [];
      view.error = "";
      view.loaded = true;
    }
    draw();
  };

  const decide = async (id: string, decision: "approve" | "deny") => {
    const held = view.requests.find((r) => r.request_id === id);
    const field = root.querySelector<HTMLInputElement>(`input[data-reason="${CSS.escape(id)}"]`);
    const reason = field?.value.trim() ?? "";
    view.busy.add(id);
    draw();
    const answer = await request(`/api/approvals/${encodeURIComponent(id)}/decision`, {
      method: "POST",
      body: JSON.stringify(reason ? { decision, reason } : { decision }),
    });
    view.busy.delete(id);
    const what = held ? about(held) : "the call";
    if (typeof answer === "string") view.notice = `${what}: ${answer}`;
    else view.notice = `${decision === "approve" ? "Approved" : "Denied"} ${what}.`;
    if (!stopped) await refresh();
    else draw();
  };

  const item = (r: ApprovalRequest): TemplateResult => {
    const busy = view.busy.has(r.request_id);
    return html`
      <li class="approval" data-request=${r.request_id}>
        <div class="head">
          <code class="tool">${about(r)}</code>
          <span class="left" role="timer">${clock(
            Date.parse(r.expires_at) - Date.now(),
          )} left</span>
        </div>
        <p class="reason">${r.reason || "The policy asks a person to look at this call."}</p>
        <pre class="input">${input(r.context?.tool_input)}</pre>
        <p class="meta">session ${r.context?.session_id ?? "?"} · user ${r.user_id ?? "?"} · ${r
          .request_id}</p>
        <div class="decide">
          <input data-reason=${r
            .request_id} aria-label="Reason (optional)" placeholder="Reason (optional)"
            maxlength="1000" />
          <button type="button" class="primary" data-decision="approve" ?disabled=${busy}
            @click=${() => decide(r.request_id, "approve")}>Approve</button>
          <button type="button" data-decision="deny" ?disabled=${busy}
            @click=${() => decide(r.request_id, "deny")}>Deny</button>
        </div>
      </li>
    `;
  };

  const draw = () =>
    render(
      html`
        ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : nothing}
        ${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : nothing}
        ${view.loaded && !view.requests.length
          ? html`<p class="empty">No calls are waiting for approval.</p>`
          : nothing}
        <ul class="approvals">${repeat(view.requests, (r) => r.request_id, item)}</ul>
      `,
      root,
    );

  const timers: ReturnType<typeof setInterval>[] = [];
  function stop() {
    stopped = true;
    for (const timer of timers) clearInterval(timer);
  }

  if (!options.token) {
    view.error =
      "No admin token: open the operator address that npm start printed (it ends in #token=…).";
    draw();
    return { refresh: () => Promise.resolve(), stop() {} };
  }
  timers.push(setInterval(() => stopped || void refresh(), options.interval ?? 2_000));
  // The countdowns move every second between two reads.
  timers.push(setInterval(draw, 1_000));
  void refresh();
  return { refresh, stop };
}
