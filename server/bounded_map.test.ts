import { test } from "node:test";
import assert from "node:assert/strict";
import { BoundedMap } from "./bounded_map.ts";

test("a bounded map keeps at most its limit and always the latest keys", () => {
  const map = new BoundedMap<number, string>(10);
  for (let i = 0; i < 1_000; i++) {
    map.set(i, `v${i}`);
    assert.ok(map.size <= 10, `size ${map.size} at ${i}`);
    for (let back = 0; back < 5 && back <= i; back++) {
      assert.equal(map.get(i - back), `v${i - back}`);
    }
  }
  assert.equal(map.get(0), undefined);
  assert.equal(map.has(0), false);
});

test("setting a key again keeps it however many others come after, while it keeps being set", () => {
  const map = new BoundedMap<string, number>(4);
  for (let i = 0; i < 100; i++) {
    map.set("kept", i);
    map.set(`other${i}`, i);
    assert.equal(map.get("kept"), i);
  }
});

test("pinned keys outlive their generation; dropped keys are reported, deleted ones are not", () => {
  const dropped: string[] = [];
  const map = new BoundedMap<string, number>(2, {
    pinned: (key) => key === "busy",
    dropped: (key) => dropped.push(key),
  });
  map.set("busy", 0);
  map.set("gone", 0);
  map.delete("gone");
  for (let i = 0; i < 10; i++) map.set(`k${i}`, i);
  assert.equal(map.get("busy"), 0);
  assert.ok(!dropped.includes("busy") && !dropped.includes("gone"));
  assert.deepEqual(dropped, ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]);
  assert.deepEqual([...map.keys()].sort(), ["busy", "k8", "k9"]);
});

test("a limit below one is refused", () => {
  assert.throws(() => new BoundedMap(0), /limit of 1 or more; got 0/);
});

test("null is a value like any other", () => {
  const map = new BoundedMap<string, string | null>(4);
  map.set("absent", null);
  assert.equal(map.get("absent"), null);
  assert.equal(map.has("absent"), true);
});

test("clear removes every key of both generations, and the map keeps its limit after", () => {
  const dropped: string[] = [];
  const map = new BoundedMap<string, number>(4, { dropped: (k) => dropped.push(k) });
  for (let i = 0; i < 4; i++) map.set(`k${i}`, i);
  map.clear();
  assert.equal(map.size, 0);
  assert.equal(map.has("k0") || map.has("k3"), false);
  assert.deepEqual(dropped, [], "nothing was pushed out for room");
  for (let i = 0; i < 10; i++) map.set(`n${i}`, i);
  assert.ok(map.size <= 4, `${map.size} keys`);
});

test("add() sets a new key as set() does, and a key it adds again shadows its older value for good", () => {
  const map = new BoundedMap<string, number>(4, { pinned: (key) => key === "pinned" });
  for (let i = 0; i < 100; i++) {
    map.add(`k${i}`, i);
    assert.equal(map.get(`k${i}`), i);
    assert.ok(map.size <= 4, `size ${map.size} at ${i}`);
  }
  assert.equal(map.get("k0"), undefined);
  // Against add()'s promise, a key it holds: the newer value wins, through every generation.
  for (const key of ["again", "pinned"]) {
    map.set(key, 1);
    map.set(`between-${key}`, 0);
    map.set(`and-${key}`, 0); // `key` is in the old generation now
    map.add(key, 2);
    assert.equal(map.get(key), 2);
  }
  map.set("x", 0);
  map.set("y", 0);
  assert.equal(map.get("pinned"), 2, "the old generation's pinned copy did not come back");
  map.delete("pinned");
  assert.equal(map.has("pinned"), false, "delete() removes both copies");
});
