/**
 * The conversation after a reload, against the real runtime (offline model):
 * a second host on the same session (what a reloaded page makes) shows the
 * stored messages with every call status and the attachments they carried,
 * and `<tether-chat>` renders them; a new session costs one request.
 */
import type { Host, HostState } from "../../client/mod.ts";
import type { TetherChat } from "../../elements/chat.ts";
import "../../elements/define.ts";
import { deepEqual, equal, match, ok } from "./_assert.ts";
import { hostOpener, selectIssue } from "./_hosts.ts";
import { freshSession, runtimeUrls, sessionMessages, waitFor } from "./_runtime.ts";

const { open, closeAll } = hostOpener();
const cleanup: (() => void)[] = [];
afterEach(() => {
  closeAll();
  for (const undo of cleanup.splice(0)) undo();
});

/** A PNG data URI of a 400 x 200 canvas. */
const photo = () => {
  const canvas = document.createElement("canvas");
  canvas.width = 400;
  canvas.height = 200;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#c33";
  ctx.fillRect(0, 0, 400, 200);
  return canvas.toDataURL("image/png");
};

const statuses = (state: HostState) =>
  state.messages.flatMap((m) => m.toolCalls.map((c) => `${c.toolName}:${c.status}`));

/** Mounts `<tether-chat>` on `host`; returns its shadow root. */
const mount = (host: Host): ShadowRoot => {
  const chat = document.createElement("tether-chat") as TetherChat;
  chat.style.height = "480px";
  document.body.append(chat);
  chat.host = host;
  cleanup.push(() => chat.remove());
  return chat.shadowRoot!;
};

describe("a reload", () => {
  it("shows the stored conversation: messages, call statuses, the attachments sent", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("history");
    const first = open({ runtimeUrl: proxied, sessionId });
    first.view({ name: "issues" });
    first.action("select_issue", selectIssue, ({ number }) => ({ selected: number }));
    await first.send("select issue 42", {
      attachments: [
        { kind: "image", name: "screen.png", media_type: "image/png", data_uri: photo() },
        { kind: "text", name: "notes.txt", text: "The login button is grey." },
      ],
    });
    const before = first.state.get();
    first.close();

    const second = open({ runtimeUrl: proxied, sessionId });
    await second.connect();
    const after = second.state.get();
    deepEqual(
      after.messages.map((m) => [m.id, m.role, m.content]),
      before.messages.map((m) => [
        m.id,
        m.role,
        m.content,
      ]),
      "the same messages, ids and text as the page saw live",
    );
    match(after.messages[1].content, /Done: select issue \(/);
    deepEqual(statuses(after), ["select_issue:completed"]);
    deepEqual(after.messages[1].toolCalls[0].output, { selected: 42 });
    const [image, text] = after.messages[0].attachments ?? [];
    equal(image?.name, "screen.png");
    equal(image?.mediaType, "image/png");
    match(image?.thumbnail, /^data:image\/jpeg;base64,/);
    deepEqual(text, { kind: "text", name: "notes.txt" });
    deepEqual(before.messages[0].attachments?.map((a) => a.name), ["screen.png", "notes.txt"]);

    const root = mount(second);
    await waitFor(() => root.querySelector("[part~=tool-done]"), 5_000, "the tool card");
    const log = root.querySelector(".log")!.textContent!.replace(/\s+/g, " ");
    match(log, /select issue 42/);
    match(log, /Select issue Done selected: 42/);
    match(log, /Done: select issue \(/);
    const shown = [...root.querySelectorAll("[part=attachment]")];
    deepEqual(shown.map((a) => a.textContent!.trim()), ["screen.png", "notes.txt"]);
    match(shown[0].querySelector("img")?.getAttribute("src"), /^data:image\/jpeg;base64,/);
    ok(!shown[1].querySelector("img"), "a text file shows its name only");
  });

  it("of a new session asks the runtime once and reads no messages", async () => {
    const { proxied } = await runtimeUrls();
    const urls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    }) as typeof fetch;
    cleanup.push(() => void (globalThis.fetch = realFetch));
    const host = open({ runtimeUrl: proxied, sessionId: freshSession("fresh") });
    await host.connect();
    deepEqual(urls.map((u) => new URL(u).pathname), [`/api/sessions/${host.sessionId}`]);
    deepEqual(host.state.get().messages, []);
  });

  it("shows a call superseded by a newer message as superseded, live and after the reload", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("superseded");
    const first = open({ runtimeUrl: proxied, sessionId });
    first.view({ name: "issues" });
    let release!: () => void;
    first.action("select_issue", selectIssue, async ({ number }) => {
      await new Promise<void>((resolve) => (release = resolve));
      return { selected: number };
    });
    const superseded = first.send("select issue 42");
    await waitFor(
      () => statuses(first.state.get())[0] === "select_issue:running",
      5_000,
      "the handler",
    );
    const answer = await first.send("never mind");
    ok(answer?.content, "the model answered the new message");
    equal(
      (await superseded)?.pending_tool_call?.tool_name,
      "select_issue",
      "the superseded exchange ended with the last answer it had",
    );
    deepEqual(statuses(first.state.get()), ["select_issue:superseded"]);
    release();
    await waitFor(
      async () => {
        const [, assistant] = await sessionMessages(proxied, sessionId);
        return assistant?.tool_calls?.[0]?.status === "superseded";
      },
      5_000,
      "the runtime to record the call as superseded",
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // the late result is refused meanwhile
    deepEqual(
      statuses(first.state.get()),
      ["select_issue:superseded"],
      "the late result revived nothing",
    );
    first.close();

    const second = open({ runtimeUrl: proxied, sessionId });
    await second.connect();
    deepEqual(statuses(second.state.get()), ["select_issue:superseded"]);
    deepEqual(second.state.get().messages.map((m) => m.role), [
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const root = mount(second);
    await waitFor(
      () => root.querySelector("[part~=tool-superseded]"),
      5_000,
      "the superseded card",
    );
  });

  it("shows a handler that timed out as of unknown outcome, live and after the reload", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("unknown");
    const first = open({ runtimeUrl: proxied, sessionId });
    first.view({ name: "issues" });
    first.action(
      "select_issue",
      { ...selectIssue, timeout: 50 },
      () => new Promise(() => {}), // never settles
    );
    await first.send("select issue 42");
    deepEqual(statuses(first.state.get()), ["select_issue:unknown"]);
    const [, assistant] = await sessionMessages(proxied, sessionId);
    equal(assistant.tool_calls[0].status, "failed", "the runtime records what the host said");
    first.close();

    const second = open({ runtimeUrl: proxied, sessionId });
    await second.connect();
    deepEqual(statuses(second.state.get()), ["select_issue:unknown"]);
    match(String(second.state.get().messages[1].toolCalls[0].output), /outcome is unknown/);
    const root = mount(second);
    await waitFor(() => root.querySelector("[part~=tool-unknown]"), 5_000, "the unknown card");
  });
});
