/**
 * A runtime process for the crash test: a Deno KV file store (`STORE__URL`)
 * whose event-log writes take `TEST_LOG_DELAY_MS` (a slow disk), and the
 * scripted slow model, so a SIGKILL lands while delivered events are not yet
 * in the log. Prints `{"url", "pid", "name"}` once it listens.
 *
 * Run: `node --import tsx tests/hostile/_slow_log_process.ts`.
 *
 * @module
 */
import process from "node:process";
import { startNode } from "../../server/runtime/node.ts";
import { denoKvStore } from "../../server/kv/denokv.ts";
import type { Store } from "../../server/kv/store.ts";
import { slowScript } from "../multiprocess/_scripts.ts";

const env = { ...process.env } as Record<string, string | undefined>;
const delay = Number(env.TEST_LOG_DELAY_MS ?? 500);
const inner = await denoKvStore(env.STORE__URL);
const store: Store = {
  name: inner.name,
  capabilities: inner.capabilities,
  get: (key) => inner.get(key),
  getMany: (keys) => inner.getMany(keys),
  set: (key, value, options) => inner.set(key, value, options),
  delete: (key) => inner.delete(key),
  list: (prefix, options) => inner.list(prefix, options),
  async atomic(checks, mutations) {
    return (await this.commit(checks, mutations)) !== null;
  },
  async commit(checks, mutations) {
    if (mutations.some((m) => m.key[0] === "event")) {
      await new Promise((r) => setTimeout(r, delay));
    }
    return await inner.commit(checks, mutations);
  },
  publish: (channel, message) => inner.publish(channel, message),
  subscribe: (channel, listener) => inner.subscribe(channel, listener),
  alone: () => inner.alone(),
  close: () => inner.close(),
};

const started = await startNode({
  port: 0,
  env,
  store,
  model: slowScript(env.TEST_NAME ?? "P", Number(env.TEST_DELAY_MS ?? 10)),
  modelName: "scripted",
  warn: () => {},
});
console.log(JSON.stringify({ url: started.url, pid: process.pid, name: env.TEST_NAME }));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
