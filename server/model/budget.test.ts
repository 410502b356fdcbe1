import { test } from "node:test";
import assert from "node:assert/strict";
import { budgetOf, DEFAULT_MODEL_OPTIONS } from "./budget.ts";
import { modelFromSpec } from "./from_config.ts";

const profile = (spec: string, env: Record<string, string> = {}) =>
  modelFromSpec(spec, { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", ...env }).profile;

test("known models get their window and an output limit of at most 8,192 tokens", () => {
  const mini = budgetOf(profile("openai:gpt-4o-mini"), DEFAULT_MODEL_OPTIONS);
  assert.equal(mini.contextTokens, 128_000);
  assert.equal(mini.outputTokens, 8_192);
  assert.equal(mini.requestTokens, Math.floor((128_000 - 8_192) * 0.95));
  assert.equal(mini.messageTokens, Math.floor(mini.requestTokens / 2));
  const sonnet = budgetOf(profile("anthropic:claude-sonnet-4-5-20250929"), DEFAULT_MODEL_OPTIONS);
  assert.equal(sonnet.contextTokens, 200_000);
  assert.equal(sonnet.outputTokens, 8_192, "not the SDK's 64,000");
  assert.equal(profile("anthropic:claude-sonnet-4-5").breakpoints?.minTokens, 1_024);
  assert.equal(profile("anthropic:claude-haiku-4-5").breakpoints?.minTokens, 4_096);
});

test("a million-token window is capped at 200,000 a request unless HISTORY__BUDGET_TOKENS says more", () => {
  const wide = profile("openai:gpt-4.1-mini");
  assert.equal(budgetOf(wide, DEFAULT_MODEL_OPTIONS).requestTokens, 200_000);
  assert.equal(budgetOf(wide, DEFAULT_MODEL_OPTIONS, 500_000).requestTokens, 500_000);
  // Never more than the window leaves, whatever the setting.
  assert.equal(
    budgetOf(profile("openai:gpt-4o-mini"), DEFAULT_MODEL_OPTIONS, 900_000).requestTokens,
    Math.floor((128_000 - 8_192) * 0.95),
  );
});

test("MODEL__CONTEXT_TOKENS and MODEL__MAX_OUTPUT_TOKENS set an unknown server's limits", () => {
  const local = profile("openai-compatible:http://localhost:11434/v1#llama3.2");
  assert.equal(local.known, false);
  assert.equal(budgetOf(local, DEFAULT_MODEL_OPTIONS).contextTokens, 32_768);
  const set = budgetOf(local, {
    ...DEFAULT_MODEL_OPTIONS,
    contextTokens: 8_000,
    maxOutputTokens: 1_000,
  });
  assert.deepEqual([set.contextTokens, set.outputTokens], [8_000, 1_000]);
  // A known model never asks for more than it gives; a small window keeps three quarters for input.
  const asked = { ...DEFAULT_MODEL_OPTIONS, maxOutputTokens: 50_000 };
  assert.equal(budgetOf(profile("openai:gpt-4o-mini"), asked).outputTokens, 16_384);
  assert.equal(budgetOf(local, { ...asked, contextTokens: 8_000 }).outputTokens, 2_000);
});
