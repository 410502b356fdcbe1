import { test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  cacheBreakpointOptions,
  defaultModelSpec,
  modelFromSpec,
  profileOfModel,
} from "./from_config.ts";

/** A fetch that records the request and fails it, so no test reaches the network. */
function recordingFetch() {
  const seen: { url: string; headers: Headers }[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push({
      url: String(input instanceof Request ? input.url : input),
      headers: new Headers(init?.headers),
    });
    return Promise.reject(new Error("offline test: no network"));
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

async function callOnce(model: LanguageModelV3): Promise<void> {
  await assert.rejects(
    Promise.resolve(
      model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    ),
  );
}

test("offline selects the offline model, named offline", () => {
  const selected = modelFromSpec("offline", { OPENAI_API_KEY: "sk-test" });
  assert.equal(selected.name, "offline");
  assert.equal(selected.offline, true);
  assert.equal(selected.model.provider, "tether");
  assert.equal(selected.model.modelId, "offline");
  assert.equal(selected.providerOptions, undefined);
});

test("an empty spec picks by the keys that are set, else offline", () => {
  assert.equal(modelFromSpec(undefined, {}).name, "offline");
  assert.equal(modelFromSpec("  ", {}).offline, true);
  assert.equal(modelFromSpec("", { OPENAI_API_KEY: "sk-test" }).name, "openai:gpt-4o-mini");
  assert.equal(
    modelFromSpec(undefined, { ANTHROPIC_API_KEY: "sk-ant" }).name,
    "anthropic:claude-sonnet-4-5",
  );
  assert.equal(
    defaultModelSpec({ OPENAI_API_KEY: "a", ANTHROPIC_API_KEY: "b" }),
    "openai:gpt-4o-mini",
  );
});

test("openai:<model> uses OpenAI with OPENAI_API_KEY", async () => {
  const { fetch, seen } = recordingFetch();
  const selected = modelFromSpec("openai:gpt-4o-mini", { OPENAI_API_KEY: "sk-openai" }, { fetch });
  assert.equal(selected.name, "openai:gpt-4o-mini");
  assert.equal(selected.offline, false);
  assert.match(selected.model.provider, /^openai\./);
  assert.equal(selected.model.modelId, "gpt-4o-mini");
  assert.equal(selected.providerOptions, undefined);
  await callOnce(selected.model);
  assert.match(seen[0].url, /^https:\/\/api\.openai\.com\/v1\//);
  assert.equal(seen[0].headers.get("authorization"), "Bearer sk-openai");
});

test("anthropic:<model> uses Anthropic with ANTHROPIC_API_KEY and a cache breakpoint", async () => {
  const { fetch, seen } = recordingFetch();
  const selected = modelFromSpec("anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "sk-ant" }, {
    fetch,
  });
  assert.equal(selected.name, "anthropic:claude-sonnet-4-5");
  assert.match(selected.model.provider, /^anthropic\./);
  assert.equal(selected.model.modelId, "claude-sonnet-4-5");
  assert.deepEqual(selected.providerOptions, {
    anthropic: { cacheControl: { type: "ephemeral" } },
  });
  await callOnce(selected.model);
  assert.match(seen[0].url, /^https:\/\/api\.anthropic\.com\/v1\//);
  assert.equal(seen[0].headers.get("x-api-key"), "sk-ant");
});

test("openai-compatible:<base url>#<model> calls that server, with the optional key", async () => {
  const { fetch, seen } = recordingFetch();
  const spec = "openai-compatible:http://localhost:11434/v1#llama3.2";
  const selected = modelFromSpec(spec, { OPENAI_COMPATIBLE_API_KEY: "local-key" }, { fetch });
  assert.equal(selected.name, spec);
  assert.equal(selected.model.provider, "local.chat");
  assert.equal(selected.model.modelId, "llama3.2");
  await callOnce(selected.model);
  assert.equal(seen[0].url, "http://localhost:11434/v1/chat/completions");
  assert.equal(seen[0].headers.get("authorization"), "Bearer local-key");

  const keyless = recordingFetch();
  await callOnce(modelFromSpec(spec, {}, { fetch: keyless.fetch }).model);
  assert.equal(keyless.seen[0].headers.get("authorization"), null);
});

test("a provider whose key is missing is an error naming MODEL__DEFAULT and the variable", () => {
  assert.throws(() => modelFromSpec("openai:gpt-4o", {}), (e: Error) => {
    assert.match(e.message, /MODEL__DEFAULT/);
    assert.match(e.message, /OPENAI_API_KEY/);
    return true;
  });
  assert.throws(
    () => modelFromSpec("anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "" }),
    /ANTHROPIC_API_KEY/,
  );
});

test("an unknown provider is an error naming the value and the accepted forms", () => {
  assert.throws(() => modelFromSpec("gemini:pro", {}), (e: Error) => {
    assert.match(e.message, /MODEL__DEFAULT "gemini:pro"/);
    assert.match(e.message, /openai:<model>/);
    assert.match(e.message, /anthropic:<model>/);
    assert.match(e.message, /openai-compatible:<base url>#<model>/);
    assert.match(e.message, /"offline"/);
    return true;
  });
});

test("a malformed spec says how to write it", () => {
  assert.throws(() => modelFromSpec("openai:", { OPENAI_API_KEY: "k" }), /openai:<model>/);
  assert.throws(
    () => modelFromSpec("openai-compatible:http://localhost:1234", {}),
    /<base url>#<model>/,
  );
  assert.throws(() => modelFromSpec("openai-compatible:localhost#m", {}), /base URL/);
});

test("only anthropic specs get cache breakpoint options", () => {
  assert.deepEqual(cacheBreakpointOptions("anthropic:claude-haiku-4-5"), {
    anthropic: { cacheControl: { type: "ephemeral" } },
  });
  assert.equal(cacheBreakpointOptions("openai:gpt-4o-mini"), undefined);
  assert.equal(cacheBreakpointOptions("offline"), undefined);
});

test("each provider of the table brings its API's rules", () => {
  const openai = modelFromSpec("openai:gpt-4o-mini", { OPENAI_API_KEY: "k" }).profile;
  assert.deepEqual(openai.requestOptions, { openai: { store: false } });
  assert.equal(openai.maxToolDescriptionChars, 1_024);
  assert.deepEqual(
    modelFromSpec("openai:gpt-4o-mini", { OPENAI_API_KEY: "k" }, { openaiStore: true }).profile
      .requestOptions,
    { openai: { store: true } },
  );
  const anthropic =
    modelFromSpec("anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k" }).profile;
  assert.deepEqual(anthropic.breakpoints, { max: 4, minTokens: 1_024 });
  assert.equal(anthropic.limits.maxOutputTokens, 64_000);
  const local = modelFromSpec("openai-compatible:http://localhost:1/v1#m", {}).profile;
  assert.equal(local.imagesInToolResults, false);
  assert.equal(local.known, false);
  assert.equal(modelFromSpec("offline", {}).profile.stableTools, false);
});

test("a model passed as an object gets the rules of the provider its SDK name belongs to", () => {
  const object = modelFromSpec("anthropic:claude-haiku-4-5", { ANTHROPIC_API_KEY: "k" }).model;
  assert.equal(profileOfModel(object).provider, "anthropic");
  assert.equal(profileOfModel(object).breakpoints?.minTokens, 4_096);
  const other = { ...object, provider: "mock-provider" } as LanguageModelV3;
  assert.equal(profileOfModel(other).provider, "custom");
});
