// The hand-written envelope serialisation against node:v8's own, byte for byte, and what
// counts as an envelope (anything else goes through v8.serialize).
import assert from "node:assert/strict";
import { test } from "node:test";
import { deserialize, serialize } from "node:v8";
import { deserializeEnvelope, isEnvelope, serializeEnvelope } from "./_denokv_v8.ts";

const TEXTS = [
  "",
  '{"a":1}',
  "café, déjà vu: Latin-1 is one byte a character",
  "a✓", // two bytes a character
  "✓".repeat(70), // a two-byte length: V8 puts a padding byte first, to align the text
  "🙂 surrogate pairs",
  "x".repeat(127),
  "x".repeat(128), // a two-byte length varint
  "✓".repeat(8_200), // a three-byte length varint, wide
  "y".repeat(60_000),
  JSON.stringify({ unicode: "ünïcødé 日本語", nul: "\0" }),
];

test("an envelope serialises to exactly the bytes v8.serialize writes, with and without expiry", () => {
  for (const j of TEXTS) {
    for (const x of [undefined, 1_764_590_000_000, 1_764_590_000_000.5]) {
      const envelope = x === undefined ? { j } : { j, x };
      const mine = serializeEnvelope(envelope);
      assert.deepEqual([...mine], [...serialize(envelope)], `${j.slice(0, 20)} x=${x}`);
      assert.deepEqual(deserialize(mine), envelope);
    }
  }
});

test("only a plain object of j (a string) and an optional numeric x is an envelope", () => {
  assert.equal(isEnvelope({ j: "1" }), true);
  assert.equal(isEnvelope({ j: "1", x: 5 }), true);
  for (
    const other of [
      null,
      "j",
      { j: 1 },
      { j: "1", x: "5" },
      { j: "1", y: 2 },
      { c: "chunk", n: 2 },
      { x: 5 },
      Object.assign(Object.create({ inherited: true }), { j: "1" }),
      new Uint8Array([1]),
    ]
  ) assert.equal(isEnvelope(other), false, JSON.stringify(other));
});

test("an envelope reads back from Node's bytes and from Deno's (format 16, which v8.deserialize refuses)", () => {
  for (const j of TEXTS) {
    for (const x of [undefined, 1_764_590_000_000, 7, -3]) {
      const envelope = x === undefined ? { j } : { j, x };
      const mine = serialize(envelope);
      assert.deepEqual(deserializeEnvelope(mine), envelope, `${j.slice(0, 20)} x=${x}`);
      const deno = Uint8Array.from(mine);
      deno[1] = 16;
      assert.throws(() => deserialize(deno), /version/);
      assert.deepEqual(deserializeEnvelope(deno), envelope);
    }
  }
  // Bytes Deno 2.9 wrote for { j: "{}" }, read back from its file.
  const fromDeno = Uint8Array.from([0xff, 0x10, 0x6f, 0x22, 1, 0x6a, 0x22, 2, 0x7b, 0x7d, 0x7b, 1]);
  assert.deepEqual(deserializeEnvelope(fromDeno), { j: "{}" });
  for (const other of [{ j: 1 }, { j: "1", y: 2 }, { c: "chunk", n: 2 }, { x: 5 }, [1], "j"]) {
    assert.equal(deserializeEnvelope(serialize(other)), undefined, JSON.stringify(other));
  }
  assert.equal(deserializeEnvelope(serialize({ j: "abc" }).subarray(0, 6)), undefined, "cut short");
});
