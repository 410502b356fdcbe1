/**
 * The demo tracker's page, drawn with lit-html into the light DOM: the
 * filter bar, the issue list, the detail pane, the issue page and the new
 * issue form. A pure function of the tracker's state.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import { ASSIGNEES, type Issue, LABELS } from "./data.ts";
import type { Tracker } from "./tracker.ts";

const badge = (label: string) => html`<span class="label label-${label}">${label}</span>`;
// The letter is a picture; the name is what a screen reader hears.
const avatar = (name: string | null) =>
  name
    ? html`
      <span class="avatar" aria-hidden="true">${name[0].toUpperCase()}</span><span
        class="sr">assigned to ${name}</span>
    `
    : html`<span class="avatar none" aria-hidden="true"></span><span class="sr">unassigned</span>`;

/** Arrow keys, Home and End move along the list (one Tab stop for all of it); Space selects, Enter opens. */
function onRowKey(t: Tracker, issue: Issue, e: KeyboardEvent): void {
  const row = e.currentTarget as HTMLElement;
  const rows = [...row.parentElement!.querySelectorAll<HTMLElement>(".row")];
  const at = rows.indexOf(row);
  const to = e.key === "ArrowDown"
    ? rows[at + 1]
    : e.key === "ArrowUp"
    ? rows[at - 1]
    : e.key === "Home"
    ? rows[0]
    : e.key === "End"
    ? rows.at(-1)
    : undefined;
  if (to) {
    e.preventDefault();
    for (const r of rows) r.tabIndex = r === to ? 0 : -1;
    to.focus();
  } else if (e.key === " ") {
    e.preventDefault();
    t.select(issue.number);
  } else if (e.key === "Enter") t.open(issue.number);
}

function filters(t: Tracker): TemplateResult {
  const f = t.state.filter;
  return html`
    <div class="filters" role="toolbar" aria-label="Filters">
      <div class="segmented" role="group" aria-label="State">
          ${(["open", "closed", "all"] as const).map((s) =>
            html`
              <button type="button" aria-pressed=${f.state === s}
                @click=${() => t.setFilter({ state: s })}>${s}</button>
            `
          )}
        </div>
      <div class="chips" role="group" aria-label="Label">
          ${LABELS.map((l) =>
            html`
              <button type="button" class="chip label-${l}" aria-pressed=${f.label === l}
                @click=${() => t.setFilter({ label: f.label === l ? null : l })}>${l}</button>
            `
          )}
        </div>
      <select aria-label="Assignee" @change=${(e: Event) =>
        t.setFilter({ assignee: ((e.target as HTMLSelectElement).value || null) as never })}>
          <option value="" ?selected=${!f.assignee}>anyone</option>
          ${ASSIGNEES.map((a) =>
            html`<option value=${a} ?selected=${f.assignee === a}>${a}</option>`
          )}
        </select>
      <input type="search" placeholder="Search issues" aria-label="Search" .value=${f.query}
        @input=${(e: Event) => t.setFilter({ query: (e.target as HTMLInputElement).value })} />
    </div>
  `;
}

function row(t: Tracker, issue: Issue, first: boolean): TemplateResult {
  const selected = t.state.selected === issue.number;
  const shown = t.visible().some((i) => i.number === t.state.selected);
  // One row takes the Tab stop: the selected one, else the first.
  const stop = selected || (first && !shown);
  return html`
    <li class="row ${selected ? "selected" : ""} ${t.state.highlight === issue.number
      ? "flash"
      : ""}"
      data-number=${issue.number} aria-selected=${selected} role="option" tabindex=${stop ? 0 : -1}
      @click=${() => t.select(issue.number)} @keydown=${(e: KeyboardEvent) =>
        onRowKey(t, issue, e)}>
        <span class="state-dot ${issue.state}" aria-hidden="true"></span><span class="sr">${issue
          .state}</span>
        <span class="num">#${issue.number}</span>
        <span class="title">${issue.title}</span>
        <span class="labels">${issue.labels.map(badge)}</span>
        ${avatar(issue.assignee)}
      </li>
  `;
}

function detail(t: Tracker, issue: Issue | undefined, full: boolean): TemplateResult {
  if (!issue) return html`<div class="detail empty">Select an issue to see it here.</div>`;
  return html`<article class="detail ${
    t.state.highlight === issue.number ? "flash" : ""
  }" data-number=${issue.number}>
    ${
    full
      ? html`<a class="back" href="#/issues" @click=${() => t.go("list")}>← All issues</a>`
      : nothing
  }
    <h2><span class="num">#${issue.number}</span> ${issue.title}</h2>
    <p class="meta">
      <span class="state ${issue.state}">${issue.state}</span>${issue.labels.map(badge)}
      <span>${issue.assignee ?? "unassigned"} · opened ${issue.created} · ${issue.comments} ${
    issue.comments === 1 ? "comment" : "comments"
  }</span>
    </p>
    <p class="body">${issue.body || "No description."}</p>
    <div class="buttons">
      <button type="button" @click=${() =>
    t.setStatus(issue.number, issue.state === "open" ? "closed" : "open")}>
        ${issue.state === "open" ? "Close issue" : "Reopen issue"}</button>
      ${full ? nothing : html`<a class="button" href=${`#/issues/${issue.number}`}>Open page</a>`}
    </div>
  </article>`;
}

function form(t: Tracker): TemplateResult {
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    t.create({
      title: String(data.get("title") ?? ""),
      label: (data.get("label") || undefined) as never,
      assignee: (data.get("assignee") || undefined) as never,
      body: String(data.get("body") ?? ""),
    });
  };
  return html`
    <form class="new" @submit=${submit}>
      <h2>New issue</h2>
      <label>Title <input name="title" required /></label>
      <label>Label <select name="label"><option value="">none</option>${LABELS.map((l) =>
        html`<option>${l}</option>`
      )}</select></label>
      <label>Assignee <select name="assignee"><option value="">nobody</option>${ASSIGNEES.map((a) =>
        html`<option>${a}</option>`
      )}</select></label>
      <label>Description <textarea name="body" rows="4"></textarea></label>
      <div
        class="buttons"><button class="primary" type="submit">Create issue</button> <a class="button" href="#/issues">Cancel</a></div>
    </form>
  `;
}

/**
 * The whole tracker page for the current state.
 *
 * @example
 * ```ts
 * tracker.subscribe(() => render(trackerPage(tracker), app));
 * ```
 */
export function trackerPage(t: Tracker): TemplateResult {
  const { page, selected, issues } = t.state;
  const current = issues.find((i) => i.number === selected);
  const visible = t.visible();
  const body = page === "new" ? form(t) : page === "issue" ? detail(t, current, true) : html`
    ${filters(t)}
    <div class="split">
      <ul class="list" role="listbox" aria-label="Issues">
        ${visible.length
          ? visible.map((i, n) => row(t, i, n === 0))
          : html`<li class="none">No issues match these filters.</li>`}
      </ul>
      ${detail(t, current, false)}
    </div>
    <p class="count">${visible.length} of ${issues.length} issues</p>
  `;
  return html`
    <header class="topbar">
      <h1 class="logo">◆ Acme Tracker</h1>
      <nav>
        <a href="#/issues" aria-current=${page !== "new" ? "page" : "false"}>Issues</a>
        <a href="#/new" aria-current=${page === "new" ? "page" : "false"}>New issue</a>
      </nav>
    </header>
    <main class="page">${body}</main>
  `;
}
