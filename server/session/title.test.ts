/**
 * `ModelTitles`: titles asked in the background, applied when the model answers, and a stop that
 * ends even when the model never does.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "../log.ts";

const silentLogger = createLogger(() => {});
import { generated, scriptedModel } from "../testing/scripted_model.ts";
import { ModelTitles } from "./title.ts";

test("a title the model answers is cleaned and applied", async () => {
  const applied: [string, string][] = [];
  const model = scriptedModel([{ text: 'Title: "Login redirect loop."' }]);
  model.doGenerate = () => Promise.resolve(generated('Title: "Login redirect loop."'));
  const again = new ModelTitles((sid, title) => {
    applied.push([sid, title]);
    return Promise.resolve();
  }, silentLogger);
  again.start("s2", "why does login loop?", model);
  while (again.running) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(applied.at(-1), ["s2", "Login redirect loop"]);
});

test("stop() ends a call whose model ignores the abort, and applies nothing", async () => {
  const applied: string[] = [];
  const model = scriptedModel([{ text: "unused" }]);
  // A model that never answers and never looks at its abort signal.
  model.doGenerate = () => new Promise(() => {});
  const titles = new ModelTitles((_sid, title) => {
    applied.push(title);
    return Promise.resolve();
  }, silentLogger);
  titles.start("s1", "why does login loop?", model);
  assert.equal(titles.running, 1);
  const keepAlive = setTimeout(() => {}, 10_000);
  try {
    const ended = await Promise.race([
      titles.stop().then(() => "stopped"),
      new Promise((r) => setTimeout(() => r("still waiting"), 2_000)),
    ]);
    assert.equal(ended, "stopped");
  } finally {
    clearTimeout(keepAlive);
  }
  assert.equal(titles.running, 0);
  assert.deepEqual(applied, []);
});
