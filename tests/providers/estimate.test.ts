/**
 * The runtime's token estimate errs high against the local provider servers'
 * count (a quarter of the bytes), for every kind of text: what the runtime
 * lets through, the servers never refuse for length.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModelMessage } from "ai";
import { messageTokens, textTokens } from "../../server/history/estimate.ts";
import { countTokens } from "./_tokens.ts";

test("the estimate is at least the local provider servers' count, for every kind of text", () => {
  const samples = [
    "The quick brown fox jumps over the lazy dog. ".repeat(50),
    JSON.stringify({ issues: Array.from({ length: 40 }, (_, i) => ({ n: i, t: `T${i}` })) }),
    "日本語のテキストです。".repeat(100),
    "🙂🚀✨".repeat(200),
    "x",
  ];
  for (const text of samples) {
    assert.ok(textTokens(text) >= countTokens(text), text.slice(0, 20));
    const message: ModelMessage = { role: "user", content: text };
    assert.ok(messageTokens(message) > countTokens(text));
  }
});
