import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { type Kv, openKv } from "./_denokv.ts";
import { KvRelay } from "./_denokv_relay.ts";
import { KvWriter } from "./_denokv_writer.ts";
import { listingKv, withList } from "../testing/listing_kv.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-kvrelay-"));
after(() => rm(dir, { recursive: true, force: true }));

/** A handle that counts the relay messages its listings hand back (heads aside). */
function counting(kv: Kv): { kv: Kv; messagesRead: () => number } {
  let read = 0;
  const isMessage = (key: readonly unknown[]) =>
    key[0] === false && key[1] !== "h" && key[1] !== "head";
  return {
    kv: withList(kv, async function* (selector, options) {
      for await (const entry of kv.list(selector, options)) {
        if (isMessage(entry.key)) read++;
        yield entry;
      }
    }),
    messagesRead: () => read,
  };
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("each process reads another's messages once, in order, and never its own", async () => {
  const path = join(dir, "once.db");
  const a = counting((await openKv(path)).kv);
  const opened = await openKv(path);
  const b = counting(opened.kv);
  const gotA: string[] = [];
  const gotB: string[] = [];
  const relayA = new KvRelay(
    a.kv,
    new KvWriter(a.kv, opened.limits),
    opened.limits,
    (_c, text) => gotA.push(text),
  );
  const relayB = new KvRelay(
    b.kv,
    new KvWriter(b.kv, opened.limits),
    opened.limits,
    (_c, text) => gotB.push(text),
  );
  try {
    const sent = Array.from({ length: 300 }, (_, i) => `m${i}`);
    // In waves, so the reader polls many times while messages move.
    for (let i = 0; i < sent.length; i += 30) {
      await Promise.all(sent.slice(i, i + 30).map((m) => relayA.publish("c", m)));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await until("B to get every message", () => gotB.length >= sent.length);
    // A few polls more: nothing is read again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(gotB, sent);
    assert.deepEqual(gotA, [], "a process's own messages never come back to it");
    assert.equal(a.messagesRead(), 0, "the publisher lists no message of its own");
    let entries = 0;
    for await (const _ of opened.kv.list({ prefix: [false, "o"] })) entries++;
    assert.equal(b.messagesRead(), entries, "the reader lists each entry once");
    // Messages queued while a commit runs share an entry: far fewer keys than messages.
    assert.ok(entries <= sent.length / 5, `${entries} entries for ${sent.length} messages`);
  } finally {
    await relayA.close();
    await relayB.close();
    a.kv.close();
    b.kv.close();
  }
});

test("a relay delivers what was committed after it started, large messages too", async () => {
  const path = join(dir, "since.db");
  const { kv: kvA, limits } = await openKv(path);
  const { kv: kvB } = await openKv(path);
  const gotB: string[] = [];
  const relayA = new KvRelay(kvA, new KvWriter(kvA, limits), limits, () => {});
  let relayB: KvRelay | undefined;
  try {
    await relayA.publish("c", "before B");
    await new Promise((resolve) => setTimeout(resolve, 5));
    relayB = new KvRelay(
      kvB,
      new KvWriter(kvB, limits),
      limits,
      (channel, text) => gotB.push(`${channel}:${text}`),
    );
    // Published before B's first poll, after B started: B delivers it.
    await relayA.publish("c", "just after B");
    const large = "x".repeat(100_000);
    await relayA.publish("big", large);
    await until("B to get both", () => gotB.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(gotB, ["c:just after B", `big:${large}`]);
  } finally {
    await relayA.close();
    await relayB?.close();
    kvA.close();
    kvB.close();
  }
});

test("while its store holds the file alone, a relay reads once, then nothing until the hold ends", async () => {
  const path = join(dir, "held.db");
  const { kv: kvA, limits } = await openKv(path);
  const opened = await openKv(path);
  const heads = listingKv(opened.kv, [false, "h"]);
  const kvB = heads.kv;
  const gotB: string[] = [];
  const relayA = new KvRelay(kvA, new KvWriter(kvA, limits), limits, () => {});
  const relayB = new KvRelay(kvB, new KvWriter(kvB, limits), limits, (_c, text) => gotB.push(text));
  // The number of B's hold on the file, or null while B does not hold it.
  let hold: number | null = null;
  relayB.alone(kvB, () => hold);
  try {
    await until("B to read the heads", () => heads.listings() >= 2);
    hold = 1;
    // B's one read in the hold, for what others committed before it.
    const before = heads.listings();
    await until("B's read in the hold", () => heads.listings() > before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const atHold = heads.listings();
    // Not what happens while a file is held (A's commits would wait); it shows B does not look.
    await relayA.publish("c", "during the hold");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(heads.listings(), atHold, "no read of the heads past the first in the hold");
    assert.deepEqual(gotB, [], "nothing read while held");
    // Another hold (the file was let go and taken again): B reads once more, and delivers.
    hold = 2;
    await until("B to deliver after the hold changed", () => gotB.length === 1);
    assert.deepEqual(gotB, ["during the hold"]);
    const atSecond = heads.listings();
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.ok(heads.listings() <= atSecond + 1, "again nothing past one read in the new hold");
    // Not held: B reads at its usual pace.
    hold = null;
    const atLetGo = heads.listings();
    await until("B to read again", () => heads.listings() >= atLetGo + 2);
  } finally {
    await relayA.close();
    await relayB.close();
    kvA.close();
    opened.kv.close();
  }
});

test("a relay sizes its entries in bytes: messages of three-byte characters arrive, alone and many together", async () => {
  // Deno KV keeps at most 64 KiB a value. 25,000 characters of "日" are 75,000 bytes of UTF-8,
  // and twelve messages of 9,000 are 324,000: counted in characters, both fit an entry.
  const path = join(dir, "wide.db");
  const { kv: kvA, limits } = await openKv(path);
  const { kv: kvB } = await openKv(path);
  const gotB: string[] = [];
  const relayA = new KvRelay(kvA, new KvWriter(kvA, limits), limits, () => {});
  const relayB = new KvRelay(
    kvB,
    new KvWriter(kvB, limits),
    limits,
    (channel, text) => gotB.push(`${channel}:${text.length}`),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await relayA.publish("one", JSON.stringify("日".repeat(25_000)));
    await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => relayA.publish(`many${i}`, JSON.stringify("日".repeat(9_000))),
      ),
    );
    await until("B to get all thirteen", () => gotB.length >= 13);
    assert.deepEqual(gotB, [
      "one:25002",
      ...Array.from({ length: 12 }, (_, i) => `many${i}:9002`),
    ]);
  } finally {
    await relayA.close();
    await relayB.close();
    kvA.close();
    kvB.close();
  }
});
