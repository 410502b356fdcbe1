/**
 * The model objects the runtime takes: AI SDK 6's (v3) as they are, AI SDK 7's (v4) adapted
 * (their turns run in tests/providers/ai_sdk7.test.ts), any other specification refused when
 * the runtime starts, with an error naming what fits.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../app.ts";
import { resolveOptions } from "../config.ts";
import { memoryStore } from "../kv/memory.ts";
import { asLanguageModelV3, type ModelObject } from "./ai_sdk7.ts";
import { offlineModel } from "./offline.ts";

test("a v3 model is used as it is; a v4 model is wrapped as v3 with its provider and id", () => {
  const v3 = offlineModel();
  assert.equal(asLanguageModelV3(v3), v3);
  const v4 = {
    specificationVersion: "v4",
    provider: "openai.responses",
    modelId: "gpt-4o-mini",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("unused")),
    doStream: () => Promise.reject(new Error("unused")),
  } as const;
  const wrapped = asLanguageModelV3(v4);
  assert.equal(wrapped.specificationVersion, "v3");
  assert.equal(wrapped.provider, "openai.responses");
  assert.equal(wrapped.modelId, "gpt-4o-mini");
});

test("a model of another specification stops the runtime's start, saying which packages fit", async () => {
  const future = {
    specificationVersion: "v5",
    provider: "someday",
    modelId: "m",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("unused")),
    doStream: () => Promise.reject(new Error("unused")),
  } as unknown as ModelObject;
  await assert.rejects(
    createEngine(resolveOptions({ store: memoryStore(), model: future })),
    (error: Error) =>
      error.name === "ConfigError" && /"v5"/.test(error.message) &&
      /@ai-sdk\/openai 3\.x/.test(error.message) && /4\.x/.test(error.message),
  );
});
