import { test } from "node:test";
import assert from "node:assert/strict";
import { requestTokens, utf8Length } from "./estimate.ts";

test("utf8Length counts bytes as TextEncoder does", () => {
  for (const text of ["", "ascii", "é", "日本語", "🙂x", "a\u0800b", "\ud800"]) {
    assert.equal(utf8Length(text), new TextEncoder().encode(text).length, JSON.stringify(text));
  }
});

test("a request counts its system prompt, tools and every message; images at a fixed cost", () => {
  const tools = [{ name: "f", description: "Does f.", parameters: { type: "object" } }];
  const base = requestTokens("You help.", tools, []);
  const withImage = requestTokens("You help.", tools, [{
    role: "user",
    content: [{ type: "text", text: "see" }, {
      type: "image",
      image: "AAAA",
      mediaType: "image/png",
    }],
  }]);
  assert.ok(withImage - base >= 2_500);
  const result = requestTokens("You help.", tools, [{
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: "c",
      toolName: "f",
      output: { type: "json", value: { a: "b".repeat(3_000) } },
    }],
  }]);
  assert.ok(result - base >= 1_000);
});
