/**
 * The host context the demo sends (issue 42 selected, the default filters),
 * built from the demo's own actions (the markup in demo/index.html and
 * demo/actions.ts) and seed data, rendered by the runtime's own renderer,
 * followed by the milestones tool server's `<remote_context>` block as
 * `npm start` composes them; and the tools the model is offered with it (the
 * page's actions, the tool server's tools, `look_at_screen`). For the offline
 * model's phrasing table and its benchmark.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { jsonSchema, tool, type ToolSet } from "ai";
import type { HostContext } from "../protocol/mod.ts";
import { renderHostContext } from "../server/turn/prompt.ts";
import { renderRemoteContext } from "../server/remote-tools/turn_parts.ts";
import { milestonesHost } from "../demo/tools_host.ts";
import { SDK_ACTIONS } from "../demo/actions.ts";
import { seedIssues } from "../demo/data.ts";

const html = await readFile(new URL("../demo/index.html", import.meta.url), "utf8");
const MARKUP = /<tether-action name="(\w+)"[^>]*?description="([^"]*)"\s+parameters='([^']*)'/g;
const declared = [
  ...[...html.matchAll(MARKUP)].map((m) => ({
    name: m[1],
    description: m[2],
    parameters: JSON.parse(m[3]),
  })),
  ...Object.entries(SDK_ACTIONS).map(([name, a]) => ({ name, ...a })),
];

/** The demo's actions as the model is offered them, plus the runtime's own `look_at_screen`. */
export const tools: ToolSet = {};
for (const a of declared) {
  tools[a.name] = tool({ description: a.description, inputSchema: jsonSchema(a.parameters) });
}
// The milestones tool server `npm start` registers: its tools and context, read from it.
const secret = "a-secret-for-the-demo-context-only";
const host = milestonesHost(secret, "http://127.0.0.1:7100");
const scope = "?workspaceId=local&externalUserId=demo";
const read = async (path: string) =>
  await (await host.fetch(
    new Request(`http://tools${path}${scope}`, { headers: { authorization: `Bearer ${secret}` } }),
  )).json();
const remote = (await read("/tools")).tools as {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}[];
for (const t of remote) {
  tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) });
}
/** The remote tools' names: the table's phrasings for milestones call these. */
export const remoteToolNames: string[] = remote.map((t) => t.name);
const remoteBlock = renderRemoteContext(
  {
    tools: [],
    contexts: [{ integrationId: "demo-milestones", context: await read("/context") }],
  } as unknown as Parameters<typeof renderRemoteContext>[0],
);
// The runtime offers this one on every turn; without a screenshot it must never be chosen or suggested.
tools.look_at_screen = tool({
  description: "Look at the latest screenshot of the page.",
  inputSchema: jsonSchema({ type: "object", properties: {} }),
  execute: () => "No screenshot is available.",
});

const issues = seedIssues();
const visible = issues.filter((i) => i.state === "open").sort((a, b) => b.number - a.number);
const summary = (i: (typeof issues)[number]) => ({
  number: i.number,
  title: i.title,
  state: i.state,
  labels: i.labels,
  assignee: i.assignee,
});
const selected = issues.find((i) => i.number === 42)!;
// What demo/assistant.ts sends with issue 42 selected.
const context: HostContext = {
  version: 1,
  host: { name: "acme-tracker", kind: "browser", version: "1.0" },
  view: {
    name: "issues",
    description: "The issue list with its filters and the selected issue's details.",
    data: {
      shown: `${visible.length} of ${issues.length} issues`,
      issues: visible.map(summary),
      selected_issue: { ...summary(selected), body: selected.body, comments: selected.comments },
    },
    state: {
      page: "list",
      filter: { label: null, state: "open", assignee: null, query: "" },
      selected: 42,
    },
  },
  navigation: [
    { name: "issues", description: "The issue list with filters" },
    { name: "new issue", description: "The form to file a new issue" },
  ],
  actions: declared.map((a) => ({
    name: a.name,
    description: a.description,
    parameters: a.parameters,
  })),
} as HostContext;
/** The rendered `<host_context>` and `<remote_context>` blocks a user message starts with, as `npm start` composes them. */
export const block = `${renderHostContext(context)}\n\n${remoteBlock}\n\n`;

/** The same blocks with no issue selected (the demo as it first opens). */
export const unselectedBlock = `${
  renderHostContext({
    ...context,
    view: {
      ...context.view!,
      data: { shown: context.view!.data!.shown, issues: context.view!.data!.issues },
      state: { ...context.view!.state, selected: null },
    },
  } as HostContext)
}\n\n${remoteBlock}\n\n`;
