import { after } from "node:test";
import { createClient } from "redis";
import { redisStore } from "./redis.ts";
import { requireService, runStoreContract } from "./store.case.ts";

const url = requireService("REDIS_URL", "redis store contract");
if (url !== undefined) {
  // A namespace per run lets runs share one Redis; its keys are removed at the end.
  const namespace = `tether-test-${crypto.randomUUID()}`;
  const namespaces = new WeakMap<object, string>();
  runStoreContract("redis", {
    open: async () => {
      const store = await redisStore(url, { namespace });
      namespaces.set(store, namespace);
      return store;
    },
    peer: (store) => redisStore(url, { namespace: namespaces.get(store) }),
  });
  after(async () => {
    const client = createClient({ url });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `{${namespace}}:*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  });
}
