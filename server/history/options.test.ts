import { test } from "node:test";
import assert from "node:assert/strict";
import { createRuntime } from "../app.ts";
import { resolveOptions } from "../config.ts";
import { ConfigError, optionsFromEnv } from "../env.ts";
import { memoryStore } from "../kv/memory.ts";

test("MODEL__* and HISTORY__* settings reach the typed options, with the defaults filled in", () => {
  const options = resolveOptions(optionsFromEnv({
    MODEL__CONTEXT_TOKENS: "32768",
    MODEL__MAX_OUTPUT_TOKENS: "2048",
    MODEL__FIRST_BYTE_TIMEOUT_MS: "5000",
    MODEL__OPENAI_STORE: "true",
    MODEL__STABLE_TOOLS: "false",
    HISTORY__BUDGET_TOKENS: "20000",
    HISTORY__TARGET_RATIO: "0.4",
    HISTORY__KEEP_TURNS: "6",
    HISTORY__SUMMARY_MODEL: "offline",
  }));
  assert.deepEqual(options.modelOptions, {
    contextTokens: 32_768,
    maxOutputTokens: 2_048,
    firstByteTimeoutMs: 5_000,
    idleTimeoutMs: 60_000,
    openaiStore: true,
    stableTools: false,
  });
  assert.deepEqual(options.history, {
    budgetTokens: 20_000,
    targetRatio: 0.4,
    keepTurns: 6,
    protectedToolResults: 4,
    summaryModel: "offline",
    summaryTokens: 1_024,
  });
});

test("a bad setting is refused with its name", () => {
  assert.throws(
    () => optionsFromEnv({ HISTORY__TARGET_RATIO: "2" }),
    (e: Error) =>
      e instanceof ConfigError &&
      /HISTORY__TARGET_RATIO must be a number between 0 and 1/.test(e.message),
  );
  assert.throws(
    () => optionsFromEnv({ MODEL__CONTEXT_TOKENS: "0" }),
    /MODEL__CONTEXT_TOKENS must be a positive integer/,
  );
  assert.throws(
    () => optionsFromEnv({ MODEL__OPENAI_STORE: "maybe" }),
    /MODEL__OPENAI_STORE must be true or false/,
  );
});

test("a summary model that cannot be used stops the runtime at start, naming the setting", async () => {
  const app = createRuntime({
    store: memoryStore(),
    model: "offline",
    history: { ...resolveOptions().history, summaryModel: "openai:gpt-4o-mini" },
    warn: () => {},
  });
  await assert.rejects(app.engine(), /HISTORY__SUMMARY_MODEL: .*OPENAI_API_KEY is not set/);
});
