/**
 * Long conversations against the local provider servers: a 50-turn session
 * on a page of about 30,000 characters of `view.data` stays within the
 * model's window and keeps working, the model always sees the current page,
 * and a provider that refuses a request for its length gets one compaction
 * and one retry.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_HISTORY_OPTIONS } from "../../server/history/options.ts";
import { loadHistory } from "../../server/history/state.ts";
import { optionsFromEnv } from "../../server/env.ts";
import { memoryStore } from "../../server/kv/memory.ts";
import { harness } from "../../server/testing/harness.ts";
import type { Brain, BrainRequest } from "./_brain.ts";
import { ANTHROPIC_MODELS, CHAT_MODELS, OPENAI_MODELS } from "./mod.ts";
import { PROVIDER_KINDS, providerRig, type Rig, trackerPage } from "./rig.ts";

/** The page block the request ends with, as the brain reads it: the latest full one. */
function latestPage(request: BrainRequest): string {
  const texts = request.messages.filter((m) => m.role === "user").map((m) => m.text);
  for (let i = texts.length - 1; i >= 0; i--) {
    const start = texts[i].lastIndexOf("<host_context>");
    if (start >= 0) return texts[i].slice(start, texts[i].indexOf("</host_context>", start));
  }
  return "";
}

/** Closes the issue the person names; after the result, says which issues the page shows closed. */
const tracker: Brain = (request) => {
  if (!request.tools.length) return { text: "Summary: issues were closed one by one." };
  const last = request.messages.at(-1)!;
  const asked = /close (\d+)/.exec(last.text)?.[1];
  if (asked && !last.results.length) {
    return { calls: [{ name: "close_issue", arguments: { number: Number(asked) } }] };
  }
  const closed = [...latestPage(request).matchAll(/\{"number":(\d+),[^}]*"state":"closed"/g)].map((
    m,
  ) => m[1]);
  return { text: `closed on the page: ${closed.join(",")}` };
};

async function closeIssues(rig: Rig, turns: number): Promise<void> {
  for (let turn = 1; turn <= turns; turn++) {
    const ask = await rig.h.chat({
      session_id: "long",
      content: `close ${turn}`,
      host_context: trackerPage({ changed: turn - 1 }),
    });
    assert.equal(ask.body.error, undefined, `turn ${turn}: ${ask.body.error}`);
    assert.deepEqual(ask.body.pending_tool_call?.arguments, { number: turn }, `turn ${turn}`);
    const done = await rig.h.chat({
      session_id: "long",
      content: "",
      tool_call_id: ask.body.pending_tool_call.call_id,
      tool_result: { closed: turn },
      host_context: trackerPage({ changed: turn }),
    });
    assert.equal(done.body.error, undefined, `turn ${turn}: ${done.body.error}`);
    // The model read the page as it is now, whatever was compacted before.
    assert.equal(done.body.content, `closed on the page: ${turn}`, `turn ${turn}`);
  }
}

const WINDOWS: Record<string, number> = {
  openai: OPENAI_MODELS["gpt-4o-mini"].contextTokens,
  anthropic: ANTHROPIC_MODELS["claude-sonnet-4-5"].contextTokens,
  chat: CHAT_MODELS["llama3.2"].contextTokens,
};

for (const kind of PROVIDER_KINDS) {
  test(`${kind}: 50 turns on a 30,000-character page stay within the window, compact and keep working`, async () => {
    const rig = await providerRig(kind, { brain: tracker });
    try {
      await closeIssues(rig, 50);
      const turns = rig.requests().filter((r) => r.body.tools?.length);
      assert.ok(turns.every((r) => r.status === 200), "no request refused");
      const window = WINDOWS[kind];
      for (const r of rig.requests()) assert.ok(r.inputTokens! <= window);
      const compactions = rig.logs.filter((l) => l.includes("history compacted"));
      assert.ok(compactions.length >= 2, `${compactions.length} compactions`);
      // The session's own model wrote the summaries, and later requests carry them.
      const summaries = rig.requests().filter((r) => !r.body.tools?.length);
      assert.equal(summaries.length, compactions.length);
      assert.ok(summaries.every((r) => r.status === 200));
      assert.match(
        JSON.stringify(turns.at(-1)!.body),
        /<conversation_summary>[^<]*Summary: issues were closed one by one\./,
      );
      // Bounded, not growing: the last ten turns' requests are no larger than the first ones' peak.
      const sizes = turns.map((r) => r.inputTokens!);
      const peak = (from: number, to: number) => Math.max(...sizes.slice(from, to));
      assert.ok(peak(sizes.length - 20, sizes.length) <= peak(0, 60) * 1.05);
      // Most of each request comes from the provider's cache between compactions.
      const cached = turns.filter((r) =>
        (r.usage.input_tokens_details?.cached_tokens ?? r.usage.cache_read_input_tokens ??
          r.usage.prompt_tokens_details?.cached_tokens) > r.inputTokens! / 2
      );
      assert.ok(
        cached.length > turns.length * 0.8,
        `${cached.length} of ${turns.length} mostly cached`,
      );
    } finally {
      await rig.close();
    }
  });

  test(`${kind}: a refusal for length compacts once and retries; the turn and the session go on`, async () => {
    // The runtime believes the window is twice what the provider enforces.
    const window = 40_000;
    const model = kind === "openai"
      ? "gpt-4o-mini"
      : kind === "anthropic"
      ? "claude-sonnet-4-5"
      : "llama3.2";
    const rig = await providerRig(kind, {
      brain: tracker,
      models: { [model]: { contextTokens: window, maxOutputTokens: 8_192, minCacheTokens: 1_024 } },
      overflowInStream: kind === "openai",
    }, { env: { MODEL__CONTEXT_TOKENS: String(window * 2) } });
    try {
      await closeIssues(rig, 8);
      const refused = rig.requests().filter((r) => r.status !== 200 || r.error);
      assert.ok(refused.length >= 1, "the provider refused at least once");
      assert.ok(rig.logs.some((l) => /history compacted.*"forced":true/.test(l)));
      for (const r of refused) {
        const text = JSON.stringify(r.error);
        assert.match(text, /context_length_exceeded|prompt is too long|exceed context limit/);
      }
    } finally {
      await rig.close();
    }
  });
}

test("after a compaction another runtime on the same store sends the same bytes, so the cache still holds", async () => {
  const store = memoryStore();
  const rig = await providerRig("openai", { brain: tracker }, { store });
  const other = harness({ ...optionsFromEnv(rig.env), store, env: rig.env, warn: () => {} });
  try {
    await closeIssues(rig, 12);
    assert.ok(rig.logs.some((l) => l.includes("history compacted")));
    const last = rig.requests().at(-1)!.body;
    const ask = await other.chat({
      session_id: "long",
      content: "close 13",
      host_context: trackerPage({ changed: 12 }),
    });
    assert.deepEqual(ask.body.pending_tool_call.arguments, { number: 13 });
    const next = rig.requests().at(-1)!;
    assert.equal(
      JSON.stringify(next.body.input.slice(0, last.input.length)),
      JSON.stringify(last.input),
    );
    assert.ok(next.usage.input_tokens_details.cached_tokens > next.inputTokens! * 0.8);
  } finally {
    await other.close();
    await rig.close();
  }
});

test("the offline model compacts too, and two runtimes given the same turns store the same summary bytes", async () => {
  const states: string[] = [];
  for (let run = 0; run < 2; run++) {
    const h = harness({ history: { ...DEFAULT_HISTORY_OPTIONS, budgetTokens: 40_000 } });
    try {
      for (let turn = 1; turn <= 12; turn++) {
        const res = await h.chat({
          session_id: "off",
          content: `what is on screen? (${turn})`,
          host_context: trackerPage({ changed: turn }),
        });
        assert.equal(res.body.error, undefined);
      }
      const engine = await h.app.engine();
      const state = (await loadHistory(engine.store, "off"))!;
      assert.ok(state.compactions >= 1);
      assert.equal(state.summary_model, "offline");
      assert.match(state.summary, /^Asked: what is on screen\? \(1\)/);
      states.push(JSON.stringify({ ...state, updated_at: undefined }));
    } finally {
      await h.close();
    }
  }
  assert.equal(states[0], states[1]);
});
