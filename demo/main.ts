/**
 * The demo's entry: the tracker, its page, the host (same origin as the
 * runtime that serves this page), the chat and the assistant's view and
 * actions, the conversations panel, and the inspector when the runtime runs
 * with `DEBUG__INSPECT=true`. Query options: `?transport=socket.io`,
 * `?theme=dark`, `?session=<id>` (kept in step with the conversation shown).
 *
 * @module
 */
import { render } from "lit";
import { createHost, socketIoTransport, sseTransport } from "../client/mod.ts";
import "../elements/define.ts";
import type { TetherAction, TetherChat, TetherView } from "../elements/mod.ts";
import { connectAssistant } from "./assistant.ts";
import { trackerPage } from "./render.ts";
import { route } from "./router.ts";
import { Tracker } from "./tracker.ts";
import { STORAGE_KEY } from "./saved.ts";

const params = new URLSearchParams(location.search);
const tracker = new Tracker(localStorage);
const app = document.querySelector<HTMLElement>("#app")!;
const chat = document.querySelector<TetherChat>("tether-chat")!;
const view = document.querySelector<TetherView>("tether-view")!;
const action = (name: string) =>
  document.querySelector<TetherAction>(`tether-action[name=${name}]`)!;

const theme = params.get("theme");
if (theme === "dark" || theme === "light") {
  document.documentElement.dataset.theme = theme;
  chat.theme = theme;
}

const draw = () => render(trackerPage(tracker), app);
tracker.subscribe(draw);
draw();
// What the assistant changed may be off screen (a phone shows half the list): bring it into view.
let shown: number | null = null;
tracker.subscribe(() => {
  const { highlight } = tracker.state;
  if (highlight === shown) return;
  shown = highlight;
  if (highlight === null) return;
  const changed = app.querySelector(`.row[data-number="${highlight}"]`) ??
    app.querySelector(`.detail[data-number="${highlight}"]`);
  changed?.scrollIntoView({ block: "nearest", behavior: "smooth" });
});
route(tracker);
// One store for every tab: a change another tab made (the assistant acting there) shows here too.
addEventListener("storage", (e) => {
  if (e.key === STORAGE_KEY) tracker.reload();
});

const host = createHost({
  runtimeUrl: location.origin,
  sessionId: params.get("session") ?? undefined,
  // Following keeps the session's stream open, so a turn started in another tab streams in here too.
  transport: params.get("transport") === "socket.io"
    ? socketIoTransport()
    : sseTransport({ follow: true }),
  host: { name: "acme-tracker", kind: "browser", version: "1.0" },
});
chat.host = host;
connectAssistant(tracker, host, view, {
  select_issue: action("select_issue"),
  create_issue: action("create_issue"),
  delete_issue: action("delete_issue"),
});

// A page opened on ?session= follows the conversation the person switches to, so a reload keeps it.
host.state.subscribe(({ sessionId }) => {
  if (!params.has("session") || params.get("session") === sessionId) return;
  params.set("session", sessionId);
  history.replaceState(null, "", `?${params}${location.hash}`);
});
// The inspector, when the runtime records what it needs (DEBUG__INSPECT=true).
fetch("/health").then((r) => r.json()).then((health) => (chat.inspect = health.inspect === true))
  .catch(() => {});

// The suggestions in the empty chat send themselves.
chat.addEventListener("click", (e) => {
  const text = (e.target as HTMLElement).closest<HTMLElement>("[data-say]")?.dataset.say;
  if (text) void chat.send(text);
});

Object.assign(globalThis, { tracker, host });
