// deno-lint-ignore-file no-explicit-any -- provider JSON and runtime results read back in tests
/**
 * The host contract's turns against the local provider servers, on each of
 * the three provider paths, as a deployment configures them: round trip,
 * queued calls, steering, provider errors, usage, images in tool results,
 * and the log (the provider's own words, never a key).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { BackendTool } from "../../server/tools/backend_tool.ts";
import type { Brain } from "./_brain.ts";
import { spokenText } from "./_brain.ts";
import { PROVIDER_KINDS, providerRig, TEST_KEY, trackerPage } from "./rig.ts";

const page = () => trackerPage({ chars: 2_000 });
const keyless = (logs: string[]) =>
  assert.ok(!logs.some((l) => l.includes(TEST_KEY)), "no key in any log line");

/** What each provider path must carry on every request. */
function assertProviderRules(kind: string, body: any): void {
  if (kind === "openai") {
    assert.equal(body.store, false, "OpenAI requests carry store: false");
    assert.ok(
      !JSON.stringify(body.input).includes("item_reference"),
      "no reference to a stored response",
    );
    assert.equal(body.max_output_tokens, 8_192);
  } else if (kind === "anthropic") {
    assert.equal(body.max_tokens, 8_192, "the output limit is the runtime's, not the SDK's 64,000");
    const marks = JSON.stringify(body).split('"cache_control"').length - 1;
    assert.ok(marks >= 2 && marks <= 4, `${marks} breakpoints`);
    const last = body.messages.at(-1).content.at(-1);
    assert.ok(last.cache_control, "the request's last block is a breakpoint");
  } else {
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_tokens, 4_096);
  }
}

for (const kind of PROVIDER_KINDS) {
  test(`${kind}: the host-contract round trip, with the provider's rules on every request and usage reported`, async () => {
    const rig = await providerRig(kind);
    try {
      const first = await rig.h.chat({
        session_id: "rt",
        content: '@call close_issue {"number": 3}',
        // Large enough for a cached prefix (1,024 tokens at least).
        host_context: trackerPage({ chars: 6_000 }),
      });
      assert.equal(first.status, 200);
      assert.equal(first.body.pending_tool_call.tool_name, "close_issue");
      assert.deepEqual(first.body.pending_tool_call.arguments, { number: 3 });
      const done = await rig.h.chat({
        session_id: "rt",
        content: "",
        tool_call_id: first.body.pending_tool_call.call_id,
        tool_result: { closed: 3 },
      });
      assert.equal(done.body.error, undefined);
      assert.match(done.body.content, /Done: \{"closed":3\}/);
      const again = await rig.h.chat({ session_id: "rt", content: "thanks" });
      assert.equal(again.body.content, "You said: thanks");
      assert.equal(rig.requests().length, 3);
      for (const r of rig.requests()) {
        assert.equal(r.status, 200);
        assertProviderRules(kind, r.body);
      }
      // Usage on every provider, cached tokens apart: the result adds up the server's own figures.
      const usage = rig.requests()[2].usage;
      const input = kind === "anthropic"
        ? usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
        : usage.input_tokens ?? usage.prompt_tokens;
      assert.equal(again.body.usage.input_tokens, input);
      assert.ok(again.body.usage.input_tokens > 0);
      const read = kind === "anthropic"
        ? usage.cache_read_input_tokens
        : (usage.input_tokens_details ?? usage.prompt_tokens_details).cached_tokens;
      assert.equal(again.body.usage.cache_read_tokens, read);
      assert.ok(read > 0, "the third request reads the prefix the second one left");
      if (kind === "anthropic") {
        assert.equal(again.body.usage.cache_write_tokens, usage.cache_creation_input_tokens);
      }
      keyless(rig.logs);
    } finally {
      await rig.close();
    }
  });

  test(`${kind}: queued host calls are handed out one at a time, then the model sees both results`, async () => {
    const brain: Brain = (r) =>
      spokenText(r.messages.at(-1)) === "two"
        ? {
          calls: [{ name: "close_issue", arguments: { number: 1 } }, {
            name: "close_issue",
            arguments: { number: 2 },
          }],
        }
        : {
          text: `results: ${r.messages.flatMap((m) => m.results.map((x) => x.output)).join(" ")}`,
        };
    const rig = await providerRig(kind, { brain });
    try {
      const first = await rig.h.chat({ session_id: "q", content: "two", host_context: page() });
      assert.equal(first.body.pending_tool_call.queued.length, 1);
      const second = await rig.h.chat({
        session_id: "q",
        content: "",
        tool_call_id: first.body.pending_tool_call.call_id,
        tool_result: "one closed",
      });
      assert.deepEqual(second.body.pending_tool_call.arguments, { number: 2 });
      assert.equal(rig.requests().length, 1, "no model request between queued calls");
      const last = await rig.h.chat({
        session_id: "q",
        content: "",
        tool_call_id: second.body.pending_tool_call.call_id,
        tool_result: "two closed",
      });
      assert.match(last.body.content, /"one closed" "two closed"/);
      assert.equal(rig.requests().at(-1)!.status, 200);
    } finally {
      await rig.close();
    }
  });

  test(`${kind}: steering reaches the live turn's next model request`, async () => {
    const lookup: BackendTool = {
      name: "lookup",
      description: "Look something up.",
      parameters: { type: "object", properties: {} },
      execute: () => new Promise((r) => setTimeout(() => r("found"), 300)),
    };
    const brain: Brain = (r) =>
      !r.messages.some((m) => m.results.length) ? { calls: [{ name: "lookup", arguments: {} }] } : {
        text: `steered by: ${
          r.messages.filter((m) => m.role === "user").map((m) => spokenText(m)).join(" | ")
        }`,
      };
    const rig = await providerRig(kind, { brain }, { backendTools: [lookup] });
    try {
      const sse = { "content-type": "application/json", accept: "text/event-stream" };
      const turn = Promise.resolve(rig.h.app.request("/api/chat", {
        method: "POST",
        headers: sse,
        body: JSON.stringify({ session_id: "st", content: "find it", host_context: page() }),
      })).then((r: Response) => r.text());
      while (rig.requests().length < 1) await new Promise((r) => setTimeout(r, 10));
      const steer = await rig.h.app.request("/api/chat", {
        method: "POST",
        headers: sse,
        body: JSON.stringify({
          session_id: "st",
          content: "only open ones",
          message_type: "steering",
        }),
      });
      assert.equal(steer.status, 200);
      await steer.text();
      const stream = await turn;
      assert.match(stream, /steered by: find it \| only open ones/);
      assert.equal(rig.requests()[1].status, 200);
    } finally {
      await rig.close();
    }
  });

  test(`${kind}: provider errors end the turn with their error_type, are logged in the provider's words, and leave the session usable`, async () => {
    let fail: number | undefined;
    const brain: Brain = () => (fail ? { fail } : { text: "fine" });
    const rig = await providerRig(kind, { brain });
    try {
      for (const [status, type] of [[429, "rate_limit"], [500, "provider_error"]] as const) {
        fail = status;
        const res = await rig.h.chat({ session_id: "e", content: "hi", host_context: page() });
        assert.equal(res.status, 200);
        assert.equal(res.body.error_type, type);
      }
      const logged = rig.logs.filter((l) => l.includes("the model provider refused the request"));
      assert.equal(logged.length, 2);
      assert.match(logged[0], /"status":429/);
      assert.match(logged[0], kind === "anthropic" ? /rate_limit_error/ : /Rate limit reached/);
      fail = undefined;
      const ok = await rig.h.chat({ session_id: "e", content: "hi again" });
      assert.equal(ok.body.content, "fine");
      keyless(rig.logs);
    } finally {
      await rig.close();
    }
  });

  test(`${kind}: a refused key is provider_auth; the log has the provider's text and never the key`, async () => {
    const rig = await providerRig(kind, { apiKey: "sk-the-real-key-is-another-one" });
    try {
      const res = await rig.h.chat({ session_id: "k", content: "hi" });
      assert.equal(res.body.error_type, "provider_auth");
      const line = rig.logs.find((l) => l.includes("refused the request"))!;
      assert.match(line, /"status":401/);
      assert.match(line, kind === "anthropic" ? /invalid x-api-key/ : /API key/);
      keyless(rig.logs);
      assert.ok(!JSON.stringify(res.body).includes(TEST_KEY));
    } finally {
      await rig.close();
    }
  });

  test(`${kind}: a screenshot reaches the model as an image where the API takes one, else as a short text`, async () => {
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const brain: Brain = (r) =>
      !r.messages.some((m) => m.results.length)
        ? { calls: [{ name: "look_at_screen", arguments: {} }] }
        : {
          text: `images: ${r.messages.flatMap((m) => m.results.map((x) => x.images)).join(",")}; ${
            r.messages.flatMap((m) => m.results.map((x) => x.output)).join(" ")
          }`,
        };
    const rig = await providerRig(kind, { brain });
    try {
      const res = await rig.h.chat({
        session_id: "img",
        content: "what do you see?",
        host_context: {
          ...page(),
          attachments: [{
            kind: "image",
            purpose: "screenshot",
            data_uri: `data:image/png;base64,${png}`,
          }],
        },
      });
      assert.equal(res.body.error, undefined);
      const sent = JSON.stringify(rig.requests()[1].body);
      if (kind === "chat") {
        assert.match(res.body.content, /images: 0; .*could not be shown/);
        assert.ok(!sent.includes(png), "no base64 in a tool message");
      } else {
        assert.match(res.body.content, /images: 1/);
        assert.ok(sent.includes(png));
      }
    } finally {
      await rig.close();
    }
  });
}
