/**
 * Deno KV's limits (64 KiB per value, 800 KiB per commit) hold for what the
 * runtime writes: a message at the content limit and a multi-megabyte
 * attachment go through a Deno KV file store and come back whole after the
 * store is reopened; a message over the limit is refused before anything is
 * written.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { DEFAULT_LIMITS } from "./config.ts";
import { denoKvStore } from "./kv/denokv.ts";
import { harness } from "./testing/harness.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-kv-limits-"));
after(() => rm(dir, { recursive: true, force: true }));

const LIMIT = DEFAULT_LIMITS.maxContentChars;

test("a message at the content limit (3 MB of UTF-8) is stored in Deno KV and read back whole", async () => {
  const path = join(dir, "near.db");
  // Three UTF-8 bytes and two V8 bytes per character: far over one 64 KiB value and one commit.
  const content = "select issue 42 " + "✓".repeat(LIMIT - 16);
  assert.equal(content.length, LIMIT);
  const h = harness({ store: await denoKvStore(path) });
  const res = await h.chat({ session_id: "near", content });
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  await h.close();

  const again = harness({ store: await denoKvStore(path) });
  const { body } = await again.call("GET", "/api/sessions/near/messages");
  assert.equal(body.messages[0].content.length, LIMIT);
  assert.equal(body.messages[0].content, content);
  await again.close();
});

test("a message one character over the limit is refused with 413 naming content, and nothing is written", async () => {
  const h = harness({ store: await denoKvStore(join(dir, "over.db")) });
  const res = await h.chat({ session_id: "over", content: "x".repeat(LIMIT + 1) });
  assert.equal(res.status, 413);
  assert.equal(res.body.error.type, "payload_too_large");
  assert.match(JSON.stringify(res.body), /content/);
  const session = await h.call("GET", "/api/sessions/over");
  assert.equal(session.status, 404);
  await h.close();
});

test("a 6 MB image attachment is stored in chunks and comes back whole after a reopen", async () => {
  const path = join(dir, "attachment.db");
  const bytes = crypto.getRandomValues(new Uint8Array(48_000));
  const base64 = btoa(String.fromCharCode(...bytes)).repeat(100); // 6.4 MB of base64
  const h = harness({ store: await denoKvStore(path) });
  const res = await h.chat({
    session_id: "pic",
    content: "what is in this picture?",
    attachments: [{
      kind: "image",
      data_uri: `data:image/png;base64,${base64}`,
      name: "big.png",
      media_type: "image/png",
    }],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  await h.close();

  const store = await denoKvStore(path);
  const stored = JSON.stringify((await store.list(["message", "pic"])).map((e) => e.value));
  await store.close();
  assert.ok(stored.includes(base64), "the stored user message holds the whole image");
});
