/**
 * OpenAI's stored responses: by default nothing depends on them (`store:
 * false`, the history sent whole); with `MODEL__OPENAI_STORE=true` earlier
 * turns go out as references, and a turn after OpenAI lost them (retention,
 * another project's key) is answered anyway: the 404 is retried once with
 * the history whole.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { OpenAIResponsesServer } from "./openai_responses.ts";
import { providerRig } from "./rig.ts";

test("openai: by default no request refers to a stored response, so losing them changes nothing", async () => {
  const rig = await providerRig("openai");
  try {
    await rig.h.chat({ session_id: "s", content: "one" });
    (rig.server as OpenAIResponsesServer).forget();
    const two = await rig.h.chat({ session_id: "s", content: "two" });
    assert.equal(two.body.content, "You said: two");
    for (const r of rig.requests()) {
      assert.equal(r.body.store, false);
      assert.doesNotMatch(JSON.stringify(r.body.input), /item_reference/);
    }
  } finally {
    await rig.close();
  }
});

test("openai: with MODEL__OPENAI_STORE, a turn after the stored responses are lost still works", async () => {
  const rig = await providerRig("openai", {}, { env: { MODEL__OPENAI_STORE: "true" } });
  try {
    await rig.h.chat({ session_id: "s", content: "one" });
    const two = await rig.h.chat({ session_id: "s", content: "two" });
    assert.equal(two.body.content, "You said: two");
    assert.match(JSON.stringify(rig.requests()[1].body.input), /item_reference/);
    (rig.server as OpenAIResponsesServer).forget();
    const three = await rig.h.chat({ session_id: "s", content: "three" });
    assert.equal(three.body.error, undefined);
    assert.equal(three.body.content, "You said: three");
    const [lost, retried] = rig.requests().slice(2);
    assert.equal(lost.status, 404);
    assert.match(lost.error.error.message, /^Item with id '.+' not found\.$/);
    assert.equal(retried.status, 200);
    assert.equal(retried.body.store, false);
    assert.doesNotMatch(JSON.stringify(retried.body.input), /item_reference/);
    assert.ok(rig.logs.some((l) => /"status":404/.test(l) && /not found/.test(l)));
  } finally {
    await rig.close();
  }
});
