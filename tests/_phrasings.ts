/**
 * What people type to the demo, each with what it must lead to: a call
 * (tool name and arguments) or a plain answer (a pattern its words match).
 * The offline model's phrasing test and the end-to-end suite both read this
 * table; the context is the demo's, issue 42 selected, as `npm start`
 * composes it (the page's block and the milestones tool server's block).
 *
 * @module
 */

/** A call the phrasing must make, or a pattern the plain answer must match. */
export type Expected = [string, Record<string, unknown>] | RegExp;

const NO_LABEL_ACTION = /no action here to label/i;
const WHO_IS_ME = /do not know who you are/i;
const NOT_UNDERSTOOD = /I did not understand that/;
const HELP = /I can:\n(?:- .*\n)*- select an issue in the list/;

/** The table: phrasing → expected. Those the README or the demo's hints suggest come first. */
export const PHRASINGS: [string, Expected][] = [
  // The README's and the demo's own suggestions.
  ["select issue 42", ["select_issue", { number: 42 }]],
  ["close 42", ["change_status", { number: 42, status: "closed" }]],
  ["close issue 42", ["change_status", { number: 42, status: "closed" }]],
  ["reopen issue 42", ["change_status", { number: 42, status: "open" }]],
  ["help", HELP],
  ["what is on screen?", /issues view[\s\S]*\n- Issues: #67 Changelog page for 3\.2/],
  ["show me the issues assigned to alice", ["filter_issues", { assignee: "alice" }]],
  ["open the issue about login", ["open_issue", { number: 42 }]],
  // By place in the list on screen.
  ["open the first issue", ["open_issue", { number: 67 }]],
  ["close the last issue", ["change_status", { number: 7, status: "closed" }]],
  ["select the second bug", ["select_issue", { number: 51 }]],
  ["open the oldest issue", ["open_issue", { number: 7 }]],
  // Beside the selected issue (42) in the list.
  ["select the next issue", ["select_issue", { number: 38 }]],
  ["open the previous issue", ["open_issue", { number: 45 }]],
  ["close the oldest docs issue", ["change_status", { number: 15, status: "closed" }]],
  ["what's the newest issue?", /^#67 Changelog page for 3\.2 \(open, docs, unassigned\)\.$/],
  ["show issues about login", ["filter_issues", { query: "login" }]],
  ["show only bugs", ["show_only", { label: "bug" }]],
  ["change status of issue 42 to closed", ["change_status", { number: 42, status: "closed" }]],
  [`create issue "Dark mode flickers" label ui`, [
    "create_issue",
    { title: "Dark mode flickers", label: "ui" },
  ]],
  ["list milestones", ["find_milestones", {}]],
  [`create milestone "GA" due 2027-05-01`, [
    "create_milestone",
    { title: "GA", due: "2027-05-01" },
  ]],
  // Selecting.
  ["pick 12", ["select_issue", { number: 12 }]],
  ["pick #15", ["select_issue", { number: 15 }]],
  ["choose issue 7", ["select_issue", { number: 7 }]],
  ["select the webhook issue", ["select_issue", { number: 31 }]],
  ["select 31", ["select_issue", { number: 31 }]],
  ["selct 31", ["select_issue", { number: 31 }]],
  ["slect issue 12", ["select_issue", { number: 12 }]],
  ["highlight 19", ["select_issue", { number: 19 }]],
  ["select #58", ["select_issue", { number: 58 }]],
  ["Select issue 23.", ["select_issue", { number: 23 }]],
  ["please select issue 27", ["select_issue", { number: 27 }]],
  ["can you select 61?", ["select_issue", { number: 61 }]],
  ["focus on issue 67", ["select_issue", { number: 67 }]],
  // Opening.
  ["open 42", ["open_issue", { number: 42 }]],
  ["show issue 19", ["open_issue", { number: 19 }]],
  ["open the CSV export issue", ["open_issue", { number: 12 }]],
  ["open issue 31", ["open_issue", { number: 31 }]],
  ["opne 23", ["open_issue", { number: 23 }]],
  ["view issue 58", ["open_issue", { number: 58 }]],
  ["open it", ["open_issue", { number: 42 }]],
  ["open the selected issue", ["open_issue", { number: 42 }]],
  ["display issue 15", ["open_issue", { number: 15 }]],
  ["read issue 27", ["open_issue", { number: 27 }]],
  // Closing and reopening.
  ["close it", ["change_status", { number: 42, status: "closed" }]],
  ["close this", ["change_status", { number: 42, status: "closed" }]],
  ["close the login issue", ["change_status", { number: 42, status: "closed" }]],
  ["please close #31", ["change_status", { number: 31, status: "closed" }]],
  ["clsoe 15", ["change_status", { number: 15, status: "closed" }]],
  ["cloes 15", ["change_status", { number: 15, status: "closed" }]],
  ["close 15", ["change_status", { number: 15, status: "closed" }]],
  ["Close #19!", ["change_status", { number: 19, status: "closed" }]],
  ["reopen 23", ["change_status", { number: 23, status: "open" }]],
  ["re-open 31", ["change_status", { number: 31, status: "open" }]],
  ["reopn 23", ["change_status", { number: 23, status: "open" }]],
  ["reopen it", ["change_status", { number: 42, status: "open" }]],
  ["mark 31 as closed", ["change_status", { number: 31, status: "closed" }]],
  ["mark 19 as done", ["change_status", { number: 19, status: "closed" }]],
  ["mark 19 done", ["change_status", { number: 19, status: "closed" }]],
  ["mark it as fixed", ["change_status", { number: 42, status: "closed" }]],
  ["mark 23 as open", ["change_status", { number: 23, status: "open" }]],
  ["resolve issue 58", ["change_status", { number: 58, status: "closed" }]],
  ["resolve 12", ["change_status", { number: 12, status: "closed" }]],
  ["finish 27", ["change_status", { number: 27, status: "closed" }]],
  ["complete issue 61", ["change_status", { number: 61, status: "closed" }]],
  ["set 42 to closed", ["change_status", { number: 42, status: "closed" }]],
  ["set status of 31 to open", ["change_status", { number: 31, status: "open" }]],
  ["close the webhook issue", ["change_status", { number: 31, status: "closed" }]],
  ["shut 15", ["change_status", { number: 15, status: "closed" }]],
  // Filtering by state.
  ["show closed issues", ["filter_issues", { state: "closed" }]],
  ["show all issues", ["filter_issues", { state: "all" }]],
  ["show open issues", ["filter_issues", { state: "open" }]],
  ["list closed issues", ["filter_issues", { state: "closed" }]],
  ["only closed ones", ["filter_issues", { state: "closed" }]],
  ["filter closed", ["filter_issues", { state: "closed" }]],
  ["show everything", ["filter_issues", { state: "all" }]],
  // Filtering by label.
  ["show bugs", ["show_only", { label: "bug" }]],
  ["only docs", ["filter_issues", { label: "docs" }]],
  ["filter by performance", ["filter_issues", { label: "performance" }]],
  ["show only features", ["show_only", { label: "feature" }]],
  ["show only ui issues", ["show_only", { label: "ui" }]],
  ["show only docs", ["show_only", { label: "docs" }]],
  ["filter by bug", ["filter_issues", { label: "bug" }]],
  ["filtr by docs", ["filter_issues", { label: "docs" }]],
  ["only performance issues", ["filter_issues", { label: "performance" }]],
  ["show me the bugs", ["show_only", { label: "bug" }]],
  ["just the feature requests", ["filter_issues", { label: "feature" }]],
  // Filtering by assignee.
  ["which issues are assigned to bob?", ["filter_issues", { assignee: "bob" }]],
  ["list bugs assigned to bob", ["filter_issues", { label: "bug", assignee: "bob" }]],
  ["issues assigned to chen", ["filter_issues", { assignee: "chen" }]],
  ["show dana's issues", ["filter_issues", { assignee: "dana" }]],
  ["filter by alice", ["filter_issues", { assignee: "alice" }]],
  ["what is bob working on?", ["filter_issues", { assignee: "bob" }]],
  ["show closed bugs", ["filter_issues", { state: "closed", label: "bug" }]],
  ["show all docs issues", ["filter_issues", { state: "all", label: "docs" }]],
  ["closed issues assigned to alice", ["filter_issues", { state: "closed", assignee: "alice" }]],
  // Searching.
  [`search for "dark mode"`, ["filter_issues", { query: "dark mode" }]],
  ["search for login", ["filter_issues", { query: "login" }]],
  ["look for export", ["filter_issues", { query: "export" }]],
  ["search export", ["filter_issues", { query: "export" }]],
  ["find webhook", ["filter_issues", { query: "webhook" }]],
  ["search for dark mode", ["filter_issues", { query: "dark mode" }]],
  ["find issues about csv", ["filter_issues", { query: "csv" }]],
  ["search issues for crash", ["filter_issues", { query: "crash" }]],
  ["serach for login", ["filter_issues", { query: "login" }]],
  [`find "redirect"`, ["filter_issues", { query: "redirect" }]],
  ["look up timeout", ["filter_issues", { query: "timeout" }]],
  ["issues mentioning avatar", ["filter_issues", { query: "avatar" }]],
  // Text to look for beside filters: the words no filter takes are the text.
  ["find login bugs", ["filter_issues", { label: "bug", query: "login" }]],
  ["show bugs about login", ["filter_issues", { label: "bug", query: "login" }]],
  ["find login bugs assigned to alice", [
    "filter_issues",
    { label: "bug", assignee: "alice", query: "login" },
  ]],
  ["list open bugs mentioning csv", [
    "filter_issues",
    { state: "open", label: "bug", query: "csv" },
  ]],
  // Clearing filters.
  ["clear filters", ["clear_filters", {}]],
  ["reset the filters", ["clear_filters", {}]],
  ["clear the filter", ["clear_filters", {}]],
  ["remove all filters", ["clear_filters", {}]],
  ["reset", ["clear_filters", {}]],
  ["clear filtres", ["clear_filters", {}]],
  ["clear search", ["clear_filters", {}]],
  // Assigning.
  ["assign 27 to dana", ["assign_issue", { number: 27, assignee: "dana" }]],
  ["give the saved filters issue to chen", ["assign_issue", { number: 61, assignee: "chen" }]],
  ["assign it to bob", ["assign_issue", { number: 42, assignee: "bob" }]],
  ["assign issue 12 to alice", ["assign_issue", { number: 12, assignee: "alice" }]],
  ["asign 15 to chen", ["assign_issue", { number: 15, assignee: "chen" }]],
  ["give 19 to dana", ["assign_issue", { number: 19, assignee: "dana" }]],
  ["hand 23 to bob", ["assign_issue", { number: 23, assignee: "bob" }]],
  ["reassign 31 to alice", ["assign_issue", { number: 31, assignee: "alice" }]],
  ["assign the csv export issue to bob", ["assign_issue", { number: 12, assignee: "bob" }]],
  ["assign 27 to me", WHO_IS_ME],
  ["assign it to me", WHO_IS_ME],
  ["unassign 27", /no action here to unassign/i],
  // Creating.
  [`file a bug "Crash on save"`, ["create_issue", { title: "Crash on save", label: "bug" }]],
  [`new issue "Typo in footer" for bob`, [
    "create_issue",
    { title: "Typo in footer", assignee: "bob" },
  ]],
  [`create issue "Export is slow"`, ["create_issue", { title: "Export is slow" }]],
  [`create an issue called "Search ignores case"`, [
    "create_issue",
    { title: "Search ignores case" },
  ]],
  [`add issue "Logo blurry" label ui`, ["create_issue", { title: "Logo blurry", label: "ui" }]],
  // Unquoted titles after "about", "called", "titled" (the preview lets the person change it).
  ["create an issue about dark mode", ["create_issue", { title: "Dark mode" }]],
  ["create issue called Login broken label bug", [
    "create_issue",
    { title: "Login broken", label: "bug" },
  ]],
  ["new issue about slow search assigned to dana", [
    "create_issue",
    { title: "Slow search", assignee: "dana" },
  ]],
  ["create an issue", /^What should its title be\? Put it in quotes/],
  [`report a bug "Login fails on Safari"`, [
    "create_issue",
    { title: "Login fails on Safari", label: "bug" },
  ]],
  [`file "Docs typo" as docs for dana`, [
    "create_issue",
    { title: "Docs typo", label: "docs", assignee: "dana" },
  ]],
  [`craete issue "Dark mode toggle"`, ["create_issue", { title: "Dark mode toggle" }]],
  // Deleting.
  ["delete issue 12", ["delete_issue", { number: 12 }]],
  ["remove issue 67", ["delete_issue", { number: 67 }]],
  ["delete the issue about CSV", ["delete_issue", { number: 12 }]],
  ["delete it", ["delete_issue", { number: 42 }]],
  ["trash 58", ["delete_issue", { number: 58 }]],
  ["delte 23", ["delete_issue", { number: 23 }]],
  // Going places.
  ["go to new issue", ["go_to", { page: "new issue" }]],
  ["take me to the new issue form", ["go_to", { page: "new issue" }]],
  ["new issue", ["go_to", { page: "new issue" }]],
  ["go to issues", ["go_to", { page: "issues" }]],
  ["back to the issues", ["go_to", { page: "issues" }]],
  ["go back to the list", ["go_to", { page: "issues" }]],
  ["go back", ["go_to", { page: "issues" }]],
  // Milestones (the tool server's tools).
  ["show milestones", ["find_milestones", {}]],
  ["list the milestones", ["find_milestones", {}]],
  ["what milestones are there?", ["find_milestones", {}]],
  ["what are the milestones?", ["find_milestones", {}]],
  [`find milestone "beta"`, ["find_milestones", { query: "beta" }]],
  [`create milestone "Launch party"`, ["create_milestone", { title: "Launch party" }]],
  [`new milestone "Q3" due 2027-09-30`, ["create_milestone", { title: "Q3", due: "2027-09-30" }]],
  [`rename milestone m1 to "Beta 2"`, ["rename_milestone", { id: "m1", title: "Beta 2" }]],
  [`delete milestone "Beta"`, ["delete_milestone", { id: "Beta" }]],
  // Plain answers.
  ["what can you do?", /\n- close or reopen an issue\n/],
  ["hi", /^Hello! /],
  ["hello", /^Hello! /],
  ["hey there", /^Hello! /],
  ["good morning", /^Hello! /],
  ["hlep", HELP],
  ["help me", HELP],
  ["?", HELP],
  ["what should I type?", HELP],
  ["thanks", /welcome/],
  ["thank you!", /welcome/],
  ["how many issues are there?", /Shown: 14 of 18 issues/],
  // To see the issues, where no filter says which: what the list shows.
  ["list issues", /^You are on the issues view[\s\S]*Shown: 14 of 18 issues/],
  // Unassigned is a fact of the issues on screen that no filter takes: they are listed.
  [
    "show unassigned issues",
    /^3 of the 14 issues on screen match “unassigned”:\n- #67 [^\n]*\n- #51 [^\n]*\n- #27 /,
  ],
  [
    "which bugs are unassigned?",
    /^1 of the 14 issues on screen matches “bugs” and “unassigned”:\n- #51 Mention autocomplete/,
  ],
  // Counted among the issues on screen by what they say of themselves.
  ["how many bugs are there?", /^6 of the 14 issues on screen match “bugs”:\n- #58 /],
  ["how many open issues are there?", /^All 14 issues on screen match “open”\.$/],
  ["how many closed issues are there?", /^None of the 14 issues on screen match “closed”\.$/],
  [
    "how many bugs are assigned to alice?",
    /^3 of the 14 issues on screen match “bugs” and “alice”/,
  ],
  // A change asked of several at once: one at a time, and the request for the first.
  ["close all bugs", /^I close one issue at a time\.[\s\S]*Say “close issue 58”, then the next\.$/],
  ["assign all docs issues to dana", /Say “assign issue 67 to dana”, then the next\.$/],
  ["give all bugs to bob", /^I give one issue at a time\.[\s\S]*Say “give issue 58 to bob”/],
  [
    "close all bugs except 42 and 31",
    /^I close one issue at a time\. The issues on screen that match “bugs”:\n- #58 [^\n]*\n- #51 [^\n]*\n- #38 [^\n]*\n- #7 [^\n]*\n\nSay “close issue 58”, then the next\.$/,
  ],
  [
    "close all",
    /^I close one issue at a time\. The issues on screen:[\s\S]*Say “close issue 67”, then the next\.$/,
  ],
  // A range of numbers: the issues on screen in it, one at a time, never only the first.
  [
    "close issues 42-45",
    /^I close one issue at a time\. The issues on screen from #42 to #45:\n- #42 [^\n]*\n- #45 [^\n]*\n\nSay “close issue 42”, then the next\.$/,
  ],
  ["assign 42 through 45 to bob", /\n\nSay “assign issue 42 to bob”, then the next\.$/],
  ["show issues 40 to 60", /^The issues on screen from #40 to #60:\n- #42 [\s\S]*\n- #58 [^\n]*$/],
  [
    "close 90-99",
    /^I close one issue at a time\. None of the issues on screen is numbered from #90 to #99\.$/,
  ],
  // A look at a few named by their place: the list, since the page shows one at a time.
  ["show the first 3 bugs", /^The issues you mean:\n- #58 [^\n]*\n- #51 [^\n]*\n- #42 [^\n]*$/],
  [
    "select the last 3 issues",
    /^I select one issue at a time\. The issues you mean:\n- #15 [\s\S]*Say “select issue 15”\.$/,
  ],
  [
    "who is working on the login bug?",
    /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/,
  ],
  [
    "open the issue about unicorns",
    /^Which issue do you mean\? Tell me its number, e\.g\. “open issue 67”/,
  ],
  ["what do you see?", /Selected issue: #42 Fix login redirect loop/],
  ["look at the screen", /You are on the issues view/],
  ["what am I looking at?", /You are on the issues view/],
  ["where am I?", /You are on the issues view/],
  ["describe the page", /You are on the issues view/],
  ["what's on the page?", /You are on the issues view/],
  ["make me a sandwich", NOT_UNDERSTOOD],
  ["label 42 as ui", NO_LABEL_ACTION],
  ["remove the bug label from 42", NO_LABEL_ACTION],
  // A question why or whether, or a person telling what they did, never acts.
  ["why is 42 closed?", /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/],
  [
    "should I close 42?",
    /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/,
  ],
  ["I closed 31 by mistake", /^#31 Webhook retries flood the log \(open, bug, bob\)\.$/],
  ["how do I close an issue?", /^I am the offline assistant[\s\S]*I can:\n/],
  // Reopening, said another way.
  ["open 42 again", ["change_status", { number: 42, status: "open" }]],
  ["put 31 back to open", ["change_status", { number: 31, status: "open" }]],
  // A question with no issue in it is about the selected one (42).
  ["who is assigned?", /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/],
  [
    "what's the status?",
    /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/,
  ],
  ["who's on 42", /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/],
  // A request not to do something does nothing.
  ["don't close 42", /^All right: I changed nothing\.$/],
  ["close 42 tomorrow", /^I can only do things now, not later[\s\S]*I changed nothing\.$/],
  [
    "which issue is selected?",
    /^#42 Fix login redirect loop on expired sessions .* is selected\.$/,
  ],
  // A yes-or-no question about an issue is answered from the list; it never acts.
  ["is 42 closed?", /^#42 Fix login redirect loop on expired sessions \(open, bug, alice\)\.$/],
  [
    "is the webhook bug assigned to bob?",
    /^#31 Webhook retries flood the log \(open, bug, bob\)\.$/,
  ],
  // A new issue with its title after a colon.
  ["new issue: dark mode is broken", ["create_issue", { title: "dark mode is broken" }]],
  ["new bug: crash on save", ["create_issue", { title: "crash on save", label: "bug" }]],
  // The item is named by words of its title and what it is ("the login bug").
  ["assign the login bug to bob", ["assign_issue", { number: 42, assignee: "bob" }]],
  ["add the performance label to 31", NO_LABEL_ACTION],
  ["tag 12 as docs", /no action here to tag/i],
  // Only milestones can be renamed here, and the words name an issue.
  ["rename issue 42", /^There is no action here to rename an issue\./],
  ["what issues are assigned to me?", WHO_IS_ME],
  ["comment on 42", /no action here to comment/i],
  ["archive 31", /no action here to archive/i],
  ["export the list", /no action here to export/i],
];
