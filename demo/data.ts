/**
 * The demo tracker's seed data: a small product's issues, with labels and
 * assignees a team would recognise. Issue 42 exists, so "select issue 42"
 * works out of the box.
 *
 * @module
 */

/**
 * The labels an issue can carry.
 *
 * @example
 * ```ts
 * LABELS.includes("bug"); // true
 * ```
 */
export const LABELS = ["bug", "feature", "docs", "ui", "performance"] as const;
/** A label. */
export type Label = (typeof LABELS)[number];

/**
 * The people issues can be assigned to.
 *
 * @example
 * ```ts
 * ASSIGNEES[0]; // "alice"
 * ```
 */
export const ASSIGNEES = ["alice", "bob", "chen", "dana"] as const;
/** An assignee. */
export type Assignee = (typeof ASSIGNEES)[number];

/** An issue's state. */
export type IssueState = "open" | "closed";

/** One issue. */
export interface Issue {
  number: number;
  title: string;
  state: IssueState;
  labels: Label[];
  assignee: Assignee | null;
  body: string;
  created: string;
  comments: number;
}

const rows: [number, string, IssueState, Label[], Assignee | null, string][] = [
  [
    7,
    "Onboarding checklist skips the billing step",
    "open",
    ["bug", "ui"],
    "alice",
    "New workspaces jump from Invite team straight to Done.",
  ],
  [
    12,
    "Export issues as CSV",
    "open",
    ["feature"],
    "bob",
    "Teams want to pull the list into spreadsheets for planning.",
  ],
  [
    15,
    "API reference lists removed endpoints",
    "open",
    ["docs"],
    "chen",
    "GET /v1/boards was removed in 3.0 but is still documented.",
  ],
  [
    19,
    "Search is slow on projects with 10k issues",
    "open",
    ["performance"],
    "dana",
    "p95 is 2.4 s; the label filter scans every row.",
  ],
  [
    23,
    "Dark mode: badges unreadable",
    "closed",
    ["bug", "ui"],
    "alice",
    "Badge text uses the light palette in dark mode.",
  ],
  [
    27,
    "Keyboard shortcut to assign to me",
    "open",
    ["feature", "ui"],
    null,
    "Press `i` to assign the selected issue to yourself.",
  ],
  [
    31,
    "Webhook retries flood the log",
    "open",
    ["bug"],
    "bob",
    "A failing endpoint produces one log line per retry per second.",
  ],
  [
    34,
    "Document the rate limits",
    "closed",
    ["docs"],
    "chen",
    "Publish the per-token and per-workspace limits.",
  ],
  [
    38,
    "Board view drops cards while dragging fast",
    "open",
    ["bug", "ui"],
    "dana",
    "Dragging across two columns quickly loses the card.",
  ],
  [
    42,
    "Fix login redirect loop on expired sessions",
    "open",
    ["bug"],
    "alice",
    "After a session expires, /login redirects to itself until cookies are cleared.",
  ],
  [
    45,
    "Bulk edit labels",
    "open",
    ["feature"],
    "bob",
    "Select several issues and add or remove a label at once.",
  ],
  [
    48,
    "Cache avatar images",
    "closed",
    ["performance"],
    "chen",
    "Avatars are fetched on every list render.",
  ],
  [
    51,
    "Mention autocomplete ignores display names",
    "open",
    ["bug"],
    null,
    "Typing @Ali does not suggest Alice Martin.",
  ],
  [
    55,
    "Getting-started guide for self-hosting",
    "open",
    ["docs"],
    "dana",
    "Cover Docker, environment variables and upgrades.",
  ],
  [
    58,
    "Issue list jumps when new issues arrive",
    "open",
    ["bug", "ui", "performance"],
    "alice",
    "The scroll position resets on every live update.",
  ],
  [
    61,
    "Saved filters",
    "open",
    ["feature"],
    "chen",
    "Save a combination of filters under a name and share it.",
  ],
  [
    64,
    "Email digest sends twice on Mondays",
    "closed",
    ["bug"],
    "bob",
    "The weekly and daily schedules overlap on Mondays.",
  ],
  [
    67,
    "Changelog page for 3.2",
    "open",
    ["docs"],
    null,
    "Summarise the 3.2 release for customers.",
  ],
];

/**
 * A fresh copy of the seed issues (dates spread over the last weeks).
 *
 * @example
 * ```ts
 * const issues = seedIssues();
 * issues.find((i) => i.number === 42)?.title; // "Fix login redirect loop on expired sessions"
 * ```
 */
export function seedIssues(): Issue[] {
  const day = 86_400_000;
  const base = Date.UTC(2026, 8, 1);
  return rows.map(([number, title, state, labels, assignee, body], i) => ({
    number,
    title,
    state,
    labels: [...labels],
    assignee,
    body,
    created: new Date(base + i * 2 * day).toISOString().slice(0, 10),
    comments: (number * 7) % 9,
  }));
}
