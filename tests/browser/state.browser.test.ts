/**
 * The state reducer in Chromium: every call status of the runtime from live
 * events, the stored conversation merged in without losing what is live,
 * and the attachment summaries a sent message keeps.
 */
import { applyEvent, type ChatMessage, type HostState, type StateEvent } from "../../client/mod.ts";
import { summarizeAttachments } from "../../client/_attachment_summary.ts";
import { deepEqual, equal, match, ok } from "./_assert.ts";

const empty = (): HostState => ({
  sessionId: "s",
  connection: "open",
  running: false,
  messages: [],
  streamingText: "",
  pending: null,
  error: null,
});
const fold = (state: HostState, ...events: StateEvent[]) => events.reduce(applyEvent, state);
const hostCall = (call_id: string, tool_name = "select_issue"): StateEvent => [
  "assistant:tool_call",
  { type: "tool_call", tool_name, arguments: { number: 42 }, call_id, category: "host" },
];
const started: StateEvent = ["assistant:status", { type: "agent_status", status: "started" }];
const completed: StateEvent = ["assistant:status", { type: "agent_status", status: "completed" }];
const final = (patch: Record<string, unknown> = {}): StateEvent => [
  "assistant:final_response",
  {
    type: "final_response",
    content: "",
    model: "offline",
    streamed: true,
    session_id: "s",
    message_id: "a1",
    ...patch,
  },
];
const pending = (call_id: string) => ({
  tool_name: "select_issue",
  call_id,
  arguments: { number: 42 },
  queued: [],
});
const statuses = (state: HostState) =>
  state.messages.flatMap((m) => m.toolCalls.map((c) => `${c.callId}:${c.status}`));

/** A PNG data URI of a `width` x `height` canvas filled with `color`. */
const png = (width: number, height: number, color = "#3a7") => {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, width, height);
  return canvas.toDataURL("image/png");
};

describe("call statuses in the state", () => {
  it("a host call is pending, running while its handler runs, then completed", () => {
    let state = fold(
      empty(),
      ["user", { id: "u1", content: "select issue 42" }],
      started,
      hostCall("c1"),
    );
    deepEqual(statuses(state), ["c1:pending"]);
    state = fold(state, final({ pending_tool_call: pending("c1") }), completed, [
      "action:start",
      { call: pending("c1") },
    ]);
    deepEqual(statuses(state), ["c1:running"]);
    state = fold(state, ["action:end", { call: pending("c1"), outcome: "success", result: 1 }]);
    deepEqual(statuses(state), ["c1:completed"]);
  });

  it("a new message supersedes the host calls still open, and a late result does not revive them", () => {
    let state = fold(
      empty(),
      ["user", { id: "u1", content: "select issue 42" }],
      started,
      hostCall("c1"),
      hostCall("c2"),
      final({ pending_tool_call: { ...pending("c1"), queued: ["c2"] } }),
      completed,
      ["action:start", { call: pending("c1") }],
    );
    state = fold(state, ["user", { id: "u2", content: "never mind" }]);
    deepEqual(statuses(state), ["c1:superseded", "c2:superseded"]);
    state = fold(state, ["action:end", { call: pending("c1"), outcome: "success", result: 1 }]);
    deepEqual(
      statuses(state),
      ["c1:superseded", "c2:superseded"],
      "the late result changes nothing",
    );
    equal(state.pending, null);
  });

  it("steering supersedes nothing", () => {
    const state = fold(
      empty(),
      ["user", { id: "u1", content: "select issue 42" }],
      started,
      hostCall("c1"),
      ["user", { id: "u2", content: "quickly", steering: true }],
    );
    deepEqual(statuses(state), ["c1:pending"]);
  });

  it("a cancelled turn cancels its open calls; a failed one fails them; finished calls keep theirs", () => {
    const backend = (call_id: string): StateEvent => [
      "assistant:tool_call",
      { type: "tool_call", tool_name: "search", arguments: {}, call_id, category: "backend" },
    ];
    const turn = (errorType: string) =>
      fold(
        empty(),
        ["user", { id: "u1", content: "search" }],
        started,
        backend("b1"),
        ["assistant:tool_result", {
          type: "tool_result",
          tool_name: "search",
          output: [],
          call_id: "b1",
        }],
        backend("b2"),
        final({ error: "stopped", error_type: errorType }),
        completed,
      );
    deepEqual(statuses(turn("cancelled")), ["b1:completed", "b2:cancelled"]);
    deepEqual(statuses(turn("usage_limit")), ["b1:completed", "b2:cancelled"]);
    deepEqual(statuses(turn("provider_error")), ["b1:completed", "b2:failed"]);
    equal(turn("cancelled").error?.type, "cancelled");
  });

  it("a call refused before it ran shows as failed with the reason", () => {
    const state = fold(empty(), ["user", { id: "u1", content: "delete it" }], started, [
      "assistant:tool_error",
      {
        type: "tool_error",
        tool_name: "delete_issue",
        error: "Refused by policy: no",
        call_id: "x1",
      },
    ]);
    deepEqual(statuses(state), ["x1:failed"]);
    equal(state.messages[1].toolCalls[0].output, "Refused by policy: no");
  });

  it("a handler whose outcome the SDK cannot know is unknown", () => {
    const state = fold(
      empty(),
      ["user", { id: "u1", content: "select issue 42" }],
      started,
      hostCall("c1"),
      ["action:start", { call: pending("c1") }],
      ["action:end", {
        call: pending("c1"),
        outcome: "failed",
        result: "select_issue timed out after 50 ms; its outcome is unknown.",
      }],
    );
    deepEqual(statuses(state), ["c1:unknown"]);
  });

  it("a turn another tab started does not write into the previous answer", () => {
    const before = fold(
      empty(),
      ["user", { id: "u1", content: "hi" }],
      started,
      final({
        content: "Hello.",
        message_id: "a1",
      }),
      completed,
    );
    const state = fold(before, started, final({ content: "Second answer.", message_id: "a2" }));
    deepEqual(state.messages.map((m) => `${m.id}:${m.content}`), [
      "u1:hi",
      "a1:Hello.",
      "a2:Second answer.",
    ]);
  });
});

describe("the stored conversation in the state", () => {
  const stored: ChatMessage[] = [
    { id: "u1", role: "user", content: "select issue 42", toolCalls: [] },
    {
      id: "a1",
      role: "assistant",
      content: "Done.",
      toolCalls: [
        {
          callId: "c1",
          toolName: "select_issue",
          arguments: { number: 42 },
          category: "host",
          status: "completed",
          output: { selected: 42 },
        },
        {
          callId: "c2",
          toolName: "select_issue",
          arguments: { number: 43 },
          category: "host",
          status: "failed",
          output: "The outcome of select_issue is unknown: the page was reloaded.",
        },
        {
          callId: "c3",
          toolName: "select_issue",
          arguments: { number: 44 },
          category: "host",
          status: "superseded",
        },
      ],
    },
  ];

  it("fills an empty state, showing a failure of unknown outcome as unknown", () => {
    const state = fold(empty(), ["history", stored]);
    deepEqual(state.messages.map((m) => m.id), ["u1", "a1"]);
    deepEqual(statuses(state), ["c1:completed", "c2:unknown", "c3:superseded"]);
  });

  it("keeps the live turn and a message just sent after the stored ones", () => {
    const live = fold(
      empty(),
      ["user", { id: "u2", content: "and now?" }],
      started,
      hostCall("c9"),
    );
    const state = fold(live, ["history", [...stored, {
      ...stored[0],
      id: "u2",
      content: "and now?",
    }]]);
    deepEqual(state.messages.map((m) => `${m.role}:${m.id}`), [
      "user:u1",
      "assistant:a1",
      "user:u2",
      "assistant:",
    ]);
    deepEqual(statuses(state).at(-1), "c9:pending");
  });

  it("settles a call still open here with the status another tab got recorded, and never reopens one", () => {
    const here = fold(
      empty(),
      ["history", [stored[0], {
        ...stored[1],
        toolCalls: [{ ...stored[1].toolCalls[0], status: "pending" }],
      }]],
    );
    deepEqual(statuses(here), ["c1:pending"]);
    const later = fold(here, ["history", stored]);
    equal(later.messages[1].toolCalls[0].status, "completed");
    const stale = fold(later, ["history", [stored[0], {
      ...stored[1],
      toolCalls: [{ ...stored[1].toolCalls[0], status: "pending" }],
    }]]);
    equal(stale.messages[1].toolCalls[0].status, "completed", "an older read does not reopen it");
  });
});

describe("attachments of a sent message", () => {
  it("keep kind, name and media type, with a small thumbnail for an image and no content", async () => {
    const photo = png(640, 320);
    const [image, text, doc] = await summarizeAttachments([
      { kind: "image", name: "receipt.png", media_type: "image/png", data_uri: photo },
      { kind: "text", name: "notes.txt", media_type: "text/plain", text: "hello" },
      { kind: "document", media_type: "application/pdf", url: "https://example.com/a.pdf" },
      { kind: "image", purpose: "screenshot", data_uri: photo },
    ]);
    equal(image.kind, "image");
    equal(image.name, "receipt.png");
    equal(image.mediaType, "image/png");
    match(image.thumbnail, /^data:image\/jpeg;base64,/);
    const img = new Image();
    img.src = image.thumbnail!;
    await img.decode();
    deepEqual(
      [img.naturalWidth, img.naturalHeight],
      [96, 48],
      "scaled to 96 px on the longer side",
    );
    deepEqual(text, { kind: "text", name: "notes.txt", mediaType: "text/plain" });
    deepEqual(doc, { kind: "document", mediaType: "application/pdf" });
    equal(
      (await summarizeAttachments([{ kind: "image", purpose: "screenshot", data_uri: photo }]))
        .length,
      0,
    );
    ok(!("data_uri" in image), "the content is not kept");
  });

  it("an image that cannot be decoded has no thumbnail", async () => {
    const [broken] = await summarizeAttachments([{
      kind: "image",
      data_uri: "data:image/png;base64,AAAA",
    }]);
    deepEqual(broken, { kind: "image" });
  });
});
