import assert from "node:assert/strict";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { env } from "node:process";
import { after, test } from "node:test";
import { storeFromUrl } from "./from_url.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-from-url-"));
after(() => rm(dir, { recursive: true, force: true }));

test("memory: opens the memory store", async () => {
  const store = await storeFromUrl("memory:");
  assert.equal(store.name, "memory");
  await store.close();
});

test("denokv:<path>, file: URLs and plain paths open Deno KV files", async () => {
  for (
    const [url, file] of [
      [`denokv:${join(dir, "a", "kv.db")}`, join(dir, "a", "kv.db")],
      [pathToFileURL(join(dir, "b", "kv.db")).href, join(dir, "b", "kv.db")],
      [join(dir, "c", "kv.db"), join(dir, "c", "kv.db")],
    ]
  ) {
    const store = await storeFromUrl(url);
    assert.equal(store.name, "denokv");
    await store.set(["k"], 1);
    await store.close();
    assert.ok((await stat(file)).isFile(), `${url} should create ${file}`);
  }
});

test("an unknown scheme fails naming the value, without its password", async () => {
  await assert.rejects(storeFromUrl("mysql://app:secret@db:3306/x"), (error: Error) => {
    assert.match(
      error.message,
      /STORE__URL "mysql:\/\/app:\*\*\*@db:3306\/x" has an unknown scheme "mysql:"/,
    );
    assert.doesNotMatch(error.message, /secret/);
    return true;
  });
});

test("redis:// and postgres:// open their adapters when the services are configured", async (t) => {
  for (const [variable, name] of [["REDIS_URL", "redis"], ["DATABASE_URL", "postgres"]]) {
    const url = env[variable];
    if (!url) {
      t.diagnostic(`${name} not checked: ${variable} is not set`);
      continue;
    }
    const store = await storeFromUrl(url);
    assert.equal(store.name, name);
    await store.close();
  }
});
