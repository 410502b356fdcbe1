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
import { ASSIGNEES, type Issue, LABELS } from "./data.ts";
import type { Tracker } from "./tracker.ts";

const integer = (description: string) => ({ type: "integer", description });
const schema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

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
  subtitle: `${i.state} · ${i.assignee ?? "unassigned"} · ${i.comments} comments`,
  badges: i.labels,
});

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
    view.data = {
      shown: `${visible.length} of ${issues.length} issues`,
      issues: visible.slice(0, 25).map(summary),
      ...(current
        ? {
          selected_issue: { ...summary(current), body: current.body, comments: current.comments },
        }
        : {}),
    };
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
    const issue = tracker.create(args);
    return { created: issue.number, display: [card(issue)] };
  };
  markup.delete_issue.preview = ({ number }) =>
    `Delete issue #${number} “${tracker.get(number as number).title}” for good.`;
  markup.delete_issue.handler = ({ number }) => {
    tracker.remove(number);
    return { deleted: number };
  };

  const disposers = [
    unsubscribe,
    host.navigation([
      { name: "issues", description: "The issue list with filters" },
      { name: "new issue", description: "The form to file a new issue" },
    ]),
    host.action(
      "open_issue",
      {
        description: "Open an issue on its own page.",
        parameters: schema({ number: integer("The issue number") }, ["number"]),
      },
      (
        { number },
      ) => (tracker.open(number, true), { opened: number, display: [card(tracker.get(number))] }),
    ),
    host.action(
      "show_only",
      {
        description: "Show only the issues with one label.",
        parameters: schema({ label: { type: "string", enum: LABELS } }, ["label"]),
      },
      (
        { label },
      ) => (tracker.setFilter({ label }), { label, shown: tracker.visible().map((i) => i.number) }),
    ),
    host.action(
      "filter_issues",
      {
        description:
          "Filter the issue list by state, label, assignee or text; omitted filters stay as they are.",
        parameters: schema({
          state: { type: "string", enum: ["open", "closed", "all"] },
          label: { type: "string", enum: LABELS },
          assignee: { type: "string", enum: ASSIGNEES },
          query: { type: "string", description: "Text the title must contain" },
        }),
      },
      (
        patch,
      ) => (tracker.setFilter(patch),
        { filter: tracker.state.filter, shown: tracker.visible().map((i) => i.number) }),
    ),
    host.action("clear_filters", {
      description: "Show all open issues again.",
      parameters: schema({}),
    }, () => (tracker.clearFilters(), { filter: tracker.state.filter })),
    host.action("change_status", {
      description: "Close or reopen an issue.",
      parameters: schema({
        number: integer("The issue number"),
        status: { type: "string", enum: ["open", "closed"] },
      }, ["number", "status"]),
    }, ({ number, status }) => ({ number, state: tracker.setStatus(number, status).state })),
    host.action("go_to", {
      description: "Go to a page of the tracker.",
      parameters: schema({ page: { type: "string", enum: ["issues", "new issue"] } }, ["page"]),
    }, ({ page }) => (tracker.go(page === "new issue" ? "new" : "list"), { page })),
  ];
  return () => disposers.forEach((d) => d());
}
