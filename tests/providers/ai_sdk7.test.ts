// deno-lint-ignore-file no-explicit-any -- provider JSON and runtime results read back in tests
/**
 * A model object built by AI SDK 7's provider packages (`@ai-sdk/openai` 4.x and
 * `@ai-sdk/anthropic` 4.x, installed as `ai7-openai` and `ai7-anthropic`) runs Tether's turns
 * on `ai` 6 (`server/model/ai_sdk7.ts` adapts the v4 specification): a host call pended and
 * continued, and a screenshot in a tool result, against the local servers that follow
 * OpenAI's Responses API and Anthropic's Messages API.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createOpenAI } from "ai7-openai";
import { createAnthropic } from "ai7-anthropic";
import { harness } from "../../server/testing/harness.ts";
import type { Brain } from "./_brain.ts";
import type { ProviderServer } from "./_server.ts";
import { anthropicMessagesServer } from "./anthropic_messages.ts";
import { openaiResponsesServer } from "./openai_responses.ts";
import { TEST_KEY, trackerPage } from "./rig.ts";

const KINDS = {
  openai: {
    server: openaiResponsesServer,
    model: (url: string) => createOpenAI({ apiKey: TEST_KEY, baseURL: url })("gpt-4o-mini"),
  },
  anthropic: {
    server: anthropicMessagesServer,
    model: (url: string) =>
      createAnthropic({ apiKey: TEST_KEY, baseURL: url })("claude-sonnet-4-5"),
  },
};

async function rig(kind: keyof typeof KINDS, brain?: Brain) {
  const server: ProviderServer = await KINDS[kind].server({ apiKey: TEST_KEY, brain });
  const model = KINDS[kind].model(server.url);
  assert.equal(model.specificationVersion, "v4", "the package is AI SDK 7's");
  const h = harness({ model, env: {} });
  return {
    h,
    server,
    close: async () => {
      await h.close();
      await server.close();
    },
  };
}

for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
  test(`${kind}: a model from AI SDK 7's provider package pends a host call and continues it`, async () => {
    const r = await rig(kind);
    try {
      const first = await r.h.chat({
        session_id: "v4",
        content: '@call close_issue {"number": 3}',
        host_context: trackerPage({ chars: 2_000 }),
      });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.pending_tool_call.tool_name, "close_issue");
      assert.deepEqual(first.body.pending_tool_call.arguments, { number: 3 });
      const done = await r.h.chat({
        session_id: "v4",
        content: "",
        tool_call_id: first.body.pending_tool_call.call_id,
        tool_result: { closed: 3 },
      });
      assert.equal(done.body.error, undefined);
      assert.match(done.body.content, /Done: \{"closed":3\}/);
      const answered = r.server.requests.filter((q) => q.status === 200);
      assert.ok(answered.length >= 2, "both model requests reached the server and were accepted");
      // The title request of the finished exchange may come after it.
      assert.ok(
        answered.some((q) => JSON.stringify(q.body).includes('{\\"closed\\":3}')),
        "the tool result went back to the provider",
      );
    } finally {
      await r.close();
    }
  });

  test(`${kind}: a screenshot in a tool result reaches an AI SDK 7 model as an image`, async () => {
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const brain: Brain = (q) =>
      !q.messages.some((m) => m.results.length)
        ? { calls: [{ name: "look_at_screen", arguments: {} }] }
        : {
          text: `images: ${q.messages.flatMap((m) => m.results.map((x) => x.images)).join(",")}`,
        };
    const r = await rig(kind, brain);
    try {
      const res = await r.h.chat({
        session_id: "img",
        content: "what do you see?",
        host_context: {
          ...trackerPage({ chars: 2_000 }),
          attachments: [{
            kind: "image",
            purpose: "screenshot",
            data_uri: `data:image/png;base64,${png}`,
          }],
        },
      });
      assert.equal(res.body.error, undefined, JSON.stringify(res.body));
      assert.match(res.body.content, /images: 1/);
      const answered = r.server.requests.filter((q) => q.status === 200) as any[];
      assert.ok(
        // After the first request: the one that carried the tool's result (a title request may follow).
        answered.slice(1).some((q) => JSON.stringify(q.body).includes(png)),
        "the image's bytes went to the provider",
      );
    } finally {
      await r.close();
    }
  });
}
