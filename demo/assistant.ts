/**
 * What the demo tells the assistant and lets it do: the view (what is on
 * screen, read fresh for every message), the places it can go, and the
 * actions. Three actions are declared in index.html as `<tether-action>`
 * markup (select, create with a confirmation, delete with a double one); the
 * rest through the SDK's `host.action()`. Names and parameters are chosen so
 * the offline model finds them: "select issue 42", "show only bugs".
 *
 * @module
 */
import type { Host } from "../client/mod.ts";
import type { TetherAction, TetherView } from "../elements/mod.ts";
import { SDK_ACTIONS } from "./actions.ts";
import type { Issue } from "./data.ts";
import type { Tracker } from "./tracker.ts";

const summary = (i: Issue) => ({
  number: i.number,
  title: i.title,
  state: i.state,
  labels: i.labels,
  assignee: i.assignee,
});

/** A preview card for an issue; its link opens the issue's page in this demo. */
const card = (i: Issue) => ({
  title: `#${i.number} ${i.title}`,
  url: new URL(`#/issues/${i.number}`, location.href).href,
  subtitle: `${i.state} · ${i.assignee ?? "unassigned"} · ${i.comments} ${
    i.comments === 1 ? "comment" : "comments"
  }`,
  badges: i.labels,
});

/** Where a changed issue is now, when the filters hide it: said in the result, so the chat says it too. */
const where = (tracker: Tracker, number: number) =>
  tracker.visible().some((i) => i.number === number)
    ? {}
    : { note: `#${number} is hidden by the current filters` };

const VIEWS = {
  list: "The issue list with its filters and the selected issue's details.",
  issue: "One issue on its own page.",
  new: "The form to file a new issue.",
} as const;

/**
 * Keeps the `<tether-view>` in step with the tracker and registers the SDK actions; returns the disposer.
 *
 * @example
 * ```ts
 * const dispose = connectAssistant(tracker, host, document.querySelector("tether-view")!, actionsByName);
 * ```
 */
export function connectAssistant(
  tracker: Tracker,
  host: Host,
  view: TetherView,
  markup: Record<"select_issue" | "create_issue" | "delete_issue", TetherAction>,
): () => void {
  const sync = () => {
    const { page, filter, selected, issues } = tracker.state;
    const visible = tracker.visible();
    const current = issues.find((i) => i.number === selected);
    view.name = page === "list" ? "issues" : page === "new" ? "new_issue" : "issue";
    view.description = VIEWS[page];
    const list = {
      shown: `${visible.length} of ${issues.length} issues`,
      issues: visible.slice(0, 25).map(summary),
    };
    const open = current
      ? { selected_issue: { ...summary(current), body: current.body, comments: current.comments } }
      : {};
    // On an issue's own page that issue comes first: it is what the page is about.
    view.data = page === "issue" ? { ...open, ...list } : { ...list, ...open };
    view.state = { page, filter, selected };
  };
  sync();
  const unsubscribe = tracker.subscribe(sync);

  markup.select_issue.handler = ({ number }) => {
    tracker.select(number, true);
    const issue = tracker.get(number);
    return { selected: number, title: issue.title, display: [card(issue)] };
  };
  markup.create_issue.preview = ({ title, label, assignee }) =>
    `Create the issue “${title ?? ""}”${label ? ` labelled ${label}` : ""}${
      assignee ? `, assigned to ${assignee}` : ""
    }.`;
  markup.create_issue.handler = (args) => {
    const before = tracker.state.filter;
    const issue = tracker.create(args);
    // The tracker clears filters that would hide the new issue; say so, the list changed under the user.
    const cleared = tracker.state.filter !== before;
    return {
      created: issue.number,
      title: issue.title,
      ...(cleared
        ? { note: `the filters were cleared so #${issue.number} shows in the list` }
        : {}),
      display: [card(issue)],
    };
  };
  markup.delete_issue.preview = ({ number }) =>
    `Delete issue #${number} “${tracker.get(number as number).title}” for good.`;
  markup.delete_issue.handler = ({ number }) => {
    tracker.remove(number);
    return { deleted: number };
  };

  const act = (
    name: keyof typeof SDK_ACTIONS,
    // deno-lint-ignore no-explicit-any -- arguments arrive checked against the schema
    handler: (args: any) => unknown,
  ) => host.action(name, SDK_ACTIONS[name], handler);
  const shown = () => tracker.visible().map((i) => i.number);
  // An empty list says what hides everything, never "shown: " with nothing after it.
  const result = (extra: Record<string, unknown>) => {
    const list = shown();
    if (list.length) return { ...extra, shown: list };
    const { state, label, assignee, query } = tracker.state.filter;
    const by = [
      state !== "all" ? `${state}` : "",
      label ? `labelled ${label}` : "",
      assignee ? `assigned to ${assignee}` : "",
      query ? `containing “${query}”` : "",
    ].filter(Boolean).join(", ");
    return { ...extra, note: `no issue is ${by || "here"}; the filters hide the rest` };
  };
  const disposers = [
    unsubscribe,
    host.navigation([
      { name: "issues", description: "The issue list with filters" },
      { name: "new issue", description: "The form to file a new issue" },
    ]),
    act("open_issue", ({ number }) => {
      tracker.open(number, true);
      return { opened: number, display: [card(tracker.get(number))] };
    }),
    act("show_only", ({ label }) => (tracker.setFilter({ label }), result({ label }))),
    // The filters asked for, and only those: earlier ones do not pile up under a new request.
    act("filter_issues", (patch) => {
      tracker.clearFilters();
      tracker.setFilter({ state: "open", ...patch });
      return result({});
    }),
    act("clear_filters", () => (tracker.clearFilters(), { filter: tracker.state.filter })),
    act("change_status", ({ number, status }) => {
      const issue = tracker.setStatus(number, status);
      return { number, title: issue.title, state: issue.state, ...where(tracker, number) };
    }),
    act("assign_issue", ({ number, assignee }) => {
      const issue = tracker.assign(number, assignee);
      return { number, title: issue.title, assignee: issue.assignee, ...where(tracker, number) };
    }),
    act("go_to", ({ page }) => (tracker.go(page === "new issue" ? "new" : "list"), { page })),
  ];
  return () => disposers.forEach((d) => d());
}
