/**
 * The demo tracker's state and what can change it. The page's own controls
 * and the assistant's actions call the same methods, so whatever the model
 * does, the user sees happen.
 *
 * @module
 */
import { type Assignee, type Issue, type IssueState, type Label, seedIssues } from "./data.ts";
import { loadSaved, type Saved, STORAGE_KEY } from "./saved.ts";

/** The list's filters; `null` means any. */
export interface Filter {
  label: Label | null;
  state: IssueState | "all";
  assignee: Assignee | null;
  query: string;
}

/** Which page is showing. */
export type Page = "list" | "issue" | "new";

/** Everything the page shows. */
export interface TrackerState {
  issues: Issue[];
  filter: Filter;
  selected: number | null;
  page: Page;
  /** The issue the assistant touched last, highlighted for a moment. */
  highlight: number | null;
}

/** What a new issue needs. */
export interface NewIssue {
  title: string;
  label?: Label;
  assignee?: Assignee;
  body?: string;
}

const ALL: Filter = { label: null, state: "open", assignee: null, query: "" };

/**
 * The tracker: state plus the operations on it. Given a `Storage`
 * (`localStorage`), it keeps its issues, filters and selection there, so the
 * page still shows what the assistant did after a reload.
 *
 * @example
 * ```ts
 * const tracker = new Tracker(localStorage);
 * tracker.subscribe(() => render(tracker.state));
 * tracker.setFilter({ label: "bug" });
 * ```
 */
export class Tracker {
  #state: TrackerState;
  #subscribers = new Set<() => void>();
  #storage: Pick<Storage, "getItem" | "setItem"> | undefined;

  constructor(storage?: Pick<Storage, "getItem" | "setItem">) {
    this.#storage = storage;
    const saved = loadSaved(storage);
    this.#state = {
      issues: saved?.issues ?? seedIssues(),
      filter: { ...ALL, ...saved?.filter },
      selected: saved?.selected ?? null,
      page: "list",
      highlight: null,
    };
  }

  /**
   * Reads the store again (another tab changed it: every tab of the demo reads one store, the
   * browser's localStorage), and redraws; nothing is written back.
   */
  reload(): void {
    const saved = loadSaved(this.#storage);
    if (!saved) return;
    this.#state = {
      ...this.#state,
      issues: saved.issues ?? this.#state.issues,
      filter: { ...ALL, ...saved.filter },
      selected: saved.selected ?? null,
    };
    for (const fn of [...this.#subscribers]) fn();
  }

  /** The current state (replace it only through the methods). */
  get state(): TrackerState {
    return this.#state;
  }

  /** Calls `fn` after every change; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.#subscribers.add(fn);
    return () => void this.#subscribers.delete(fn);
  }

  /** The issues the filters let through, newest first. */
  visible(): Issue[] {
    const { label, state, assignee, query } = this.#state.filter;
    const q = query.trim().toLowerCase();
    return this.#state.issues
      .filter((i) =>
        (state === "all" || i.state === state) && (!label || i.labels.includes(label)) &&
        (!assignee || i.assignee === assignee) &&
        (!q || `#${i.number} ${i.title}`.toLowerCase().includes(q))
      )
      .sort((a, b) => b.number - a.number);
  }

  /** The issue numbered `number`; throws a message for the model when there is none. */
  get(number: number): Issue {
    const issue = this.#state.issues.find((i) => i.number === number);
    if (!issue) {
      throw new Error(
        `there is no issue #${number}; the tracker has ${
          this.#state.issues.map((i) => i.number).join(", ")
        }`,
      );
    }
    return issue;
  }

  /** Selects an issue in the list (showing it in the detail pane). */
  select(number: number | null, highlight = false): void {
    if (number !== null) this.get(number);
    this.#set({
      selected: number,
      page: this.#state.page === "new" ? "list" : this.#state.page,
      highlight: highlight ? number : null,
    });
  }

  /** Opens an issue on its own page. */
  open(number: number, highlight = false): void {
    this.get(number);
    this.#set({ selected: number, page: "issue", highlight: highlight ? number : null });
  }

  /** Changes some filters; the others stay. */
  setFilter(patch: Partial<Filter>): void {
    this.#set({
      filter: { ...this.#state.filter, ...patch },
      page: this.#state.page === "issue" ? "list" : this.#state.page,
    });
  }

  /** Back to the default filters (open issues, anything else). */
  clearFilters(): void {
    this.#set({ filter: { ...ALL } });
  }

  /** Shows a page. */
  go(page: Page): void {
    this.#set({ page });
  }

  /** Assigns an issue to someone (or nobody). */
  assign(number: number, assignee: Assignee | null): Issue {
    const updated = { ...this.get(number), assignee };
    this.#set({
      issues: this.#state.issues.map((i) => (i.number === number ? updated : i)),
      highlight: number,
    });
    return updated;
  }

  /** Files a new issue and selects it; filters that would hide it are cleared, so it shows in the list. */
  create(fields: NewIssue): Issue {
    const title = fields.title.trim();
    if (!title) throw new Error("a new issue needs a title");
    const issue: Issue = {
      number: Math.max(...this.#state.issues.map((i) => i.number)) + 1,
      title,
      state: "open",
      labels: fields.label ? [fields.label] : [],
      assignee: fields.assignee ?? null,
      body: fields.body?.trim() ?? "",
      created: new Date().toISOString().slice(0, 10),
      comments: 0,
    };
    const f = this.#state.filter;
    const hidden = f.state === "closed" || (f.label && f.label !== fields.label) ||
      (f.assignee && f.assignee !== issue.assignee) ||
      (f.query.trim() &&
        !`#${issue.number} ${title}`.toLowerCase().includes(f.query.trim().toLowerCase()));
    this.#set({
      issues: [...this.#state.issues, issue],
      selected: issue.number,
      page: "list",
      highlight: issue.number,
      ...(hidden ? { filter: { ...ALL } } : {}),
    });
    return issue;
  }

  /** Opens or closes an issue. */
  setStatus(number: number, state: IssueState): Issue {
    const updated = { ...this.get(number), state };
    this.#set({
      issues: this.#state.issues.map((i) => (i.number === number ? updated : i)),
      highlight: number,
    });
    return updated;
  }

  /** Deletes an issue for good. */
  remove(number: number): void {
    this.get(number);
    const selected = this.#state.selected === number ? null : this.#state.selected;
    this.#set({
      issues: this.#state.issues.filter((i) => i.number !== number),
      selected,
      page: "list",
    });
  }

  #set(patch: Partial<TrackerState>): void {
    this.#state = { ...this.#state, ...patch };
    const { issues, filter, selected } = this.#state;
    const saved: Saved = { issues, filter, selected };
    try {
      this.#storage?.setItem(STORAGE_KEY, JSON.stringify(saved));
    } catch {
      // Storage full or blocked (private mode): the page works, it just forgets on reload.
    }
    for (const fn of [...this.#subscribers]) fn();
  }
}
