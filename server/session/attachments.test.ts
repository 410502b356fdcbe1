/** The per-session quota on kept attachments. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Attachment } from "../../protocol/mod.ts";
import { TetherError } from "../http/errors.ts";
import { chargeAttachments } from "./attachments.ts";

const text = (n: number): Attachment => ({
  kind: "text",
  purpose: "reference",
  text: "t".repeat(n),
});

test("attachments are charged to the session until its quota, then refused with a 413", () => {
  const record = { session_id: "s", attachment_chars: 900 };
  assert.equal(chargeAttachments(record, [text(100)], 1_000), 1_000);
  assert.throws(
    () => chargeAttachments(record, [text(60), text(41)], 1_000),
    (e: unknown) =>
      e instanceof TetherError && e.status === 413 &&
      /900 characters.*adds 101.*1000/.test(e.message) &&
      JSON.stringify(e.extra).includes('"attachments"'),
  );
  // Records from before the quota start from nothing; a message without attachments is free.
  assert.equal(chargeAttachments({ session_id: "s" }, [text(5)], 10), 5);
  assert.equal(chargeAttachments({ session_id: "s", attachment_chars: 50 }, [], 10), 50);
});

test("screenshots are not charged (they are not stored); data URIs and urls are", () => {
  const shot: Attachment = {
    kind: "image",
    purpose: "screenshot",
    data_uri: `data:image/png;base64,${"A".repeat(500)}`,
  };
  const link: Attachment = { kind: "document", purpose: "reference", url: "https://x.test/a" };
  assert.equal(chargeAttachments({ session_id: "s" }, [shot], 10), 0);
  assert.equal(chargeAttachments({ session_id: "s" }, [link], 100), link.url!.length);
});
