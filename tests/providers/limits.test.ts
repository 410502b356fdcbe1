/**
 * Limits the runtime keeps before any provider sees a request, against the
 * local provider servers: an attachment over the model's budget, tool
 * descriptions over the provider's bound, and a provider that accepts a
 * request and then sends nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Brain } from "./_brain.ts";
import { PROVIDER_KINDS, providerRig, trackerPage } from "./rig.ts";

for (const kind of PROVIDER_KINDS) {
  test(`${kind}: a 600,000-character attachment is refused with a 413 naming the limit; the session goes on`, async () => {
    const rig = await providerRig(kind);
    try {
      const ok = await rig.h.chat({
        session_id: "att",
        content: "hello",
        host_context: trackerPage({ chars: 2_000 }),
      });
      assert.equal(ok.status, 200);
      const before = rig.requests().length;
      const huge = await rig.h.chat({
        session_id: "att",
        content: "read this",
        attachments: [{ kind: "text", name: "dump.txt", text: "x".repeat(600_000) }],
      });
      assert.equal(huge.status, 413);
      assert.equal(huge.body.error.type, "payload_too_large");
      assert.equal(huge.body.error.issues[0].path, "attachments.0");
      assert.match(
        huge.body.error.message,
        /about \d+ tokens, more than the \d+ one message may take/,
      );
      assert.equal(rig.requests().length, before, "no provider saw it");
      const session = await rig.h.call("GET", "/api/sessions/att");
      assert.equal(session.body.message_count, 2, "nothing was stored");
      const next = await rig.h.chat({ session_id: "att", content: "still there?" });
      assert.equal(next.body.error, undefined);
      assert.equal(next.body.content, "You said: still there?");
    } finally {
      await rig.close();
    }
  });

  for (const stall of ["headers", "events"] as const) {
    test(`${kind}: a provider that ${stall === "headers" ? "never answers" : "falls silent after its first event"} is ended by the timeout`, async () => {
      let stalls = true;
      const brain: Brain = () => (stalls ? { stall, text: "never" } : { text: "back" });
      const rig = await providerRig(kind, { brain }, {
        env: { MODEL__FIRST_BYTE_TIMEOUT_MS: "400", MODEL__IDLE_TIMEOUT_MS: "400" },
      });
      try {
        const started = Date.now();
        const res = await rig.h.chat({ session_id: "stall", content: "hi" });
        assert.equal(res.body.error_type, "timeout");
        // The OpenAI SDK holds a stream's first events back until output comes, so there
        // "silent after its first event" is still no answer at all.
        const silent = stall === "events" && kind !== "openai";
        assert.match(
          res.body.error,
          silent ? /went silent for 0\.4 s/ : /sent no answer for 0\.4 s/,
        );
        assert.ok(Date.now() - started < 5_000);
        stalls = false;
        const next = await rig.h.chat({ session_id: "stall", content: "again" });
        assert.equal(next.body.content, "back");
      } finally {
        await rig.close();
      }
    });
  }

  test(`${kind}: a tool description over the provider's bound is refused by the runtime, naming the field`, async () => {
    const rig = await providerRig(kind);
    try {
      const page = trackerPage({ chars: 1_000 }) as { actions: { description: string }[] };
      page.actions[0].description = "Close an issue. ".repeat(80); // 1,280 characters
      const res = await rig.h.chat({ session_id: "d", content: "hi", host_context: page });
      if (kind === "anthropic") {
        assert.equal(res.status, 200, "Anthropic takes longer descriptions");
        return;
      }
      assert.equal(res.status, 422);
      assert.equal(res.body.error.issues[0].path, "host_context.actions[0].description");
      assert.match(res.body.error.message, /at most 1024/);
      assert.equal(rig.requests().length, 0);
    } finally {
      await rig.close();
    }
  });
}

test("silent decisions are never compacted: over the budget they fail with usage_limit, before any provider sees it", async () => {
  const rig = await providerRig("anthropic", {}, { env: { MODEL__CONTEXT_TOKENS: "12000" } });
  try {
    let failed: { error_type: string; error: string } | undefined;
    let sent = 0;
    for (let turn = 1; turn <= 6 && !failed; turn++) {
      const res = await rig.h.chat({
        session_id: "silent",
        content: "decide",
        output_mode: "host_tools",
        host_context: trackerPage({ chars: 8_000, changed: turn }),
      });
      if (res.body.error_type) failed = res.body;
      else sent++;
    }
    assert.equal(failed?.error_type, "usage_limit");
    assert.match(failed!.error, /more than the \d+ this model's budget allows/);
    assert.ok(sent >= 1);
    assert.equal(rig.requests().length, sent, "the request over the budget was never sent");
    assert.ok(!rig.logs.some((l) => l.includes("history compacted")), "no summary in silent mode");
  } finally {
    await rig.close();
  }
});

test("HISTORY__SUMMARY_MODEL=offline writes summaries without asking the provider", async () => {
  const rig = await providerRig("openai", {}, {
    env: { HISTORY__SUMMARY_MODEL: "offline", HISTORY__BUDGET_TOKENS: "30000" },
  });
  try {
    for (let turn = 1; turn <= 6; turn++) {
      const res = await rig.h.chat({
        session_id: "sm",
        content: `note ${turn}`,
        host_context: trackerPage({ changed: turn }),
      });
      assert.equal(res.body.error, undefined);
    }
    assert.ok(rig.logs.some((l) => l.includes("history compacted")));
    assert.ok(
      rig.requests().every((r) => r.body.tools?.length),
      "no summary request reached OpenAI",
    );
    assert.match(
      JSON.stringify(rig.requests().at(-1)!.body),
      /<conversation_summary>[^<]*Asked: note 1\./,
    );
  } finally {
    await rig.close();
  }
});
