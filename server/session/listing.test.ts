/**
 * The listing contract (`listing.case.ts`) on every store: memory, Deno KV
 * (a file in a temporary folder), Redis (`REDIS_URL`, a namespace of its own)
 * and Postgres (`DATABASE_URL`, a table of its own). Without a service's URL
 * its part says SKIPPED (and fails under `CI=true`).
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import postgres from "postgres";
import { createClient } from "redis";
import { denoKvStore } from "../kv/denokv.ts";
import { memoryStore } from "../kv/memory.ts";
import { dropTables } from "../kv/_postgres_sql.ts";
import { postgresStore } from "../kv/postgres.ts";
import { redisStore } from "../kv/redis.ts";
import { requireService } from "../kv/store.case.ts";
import { runListingContract } from "./listing.case.ts";

runListingContract("memory", { open: () => Promise.resolve(memoryStore()) });

const dir = await mkdtemp(join(tmpdir(), "tether-listing-"));
after(() => rm(dir, { recursive: true, force: true }));
runListingContract("denokv", { open: () => denoKvStore(join(dir, "listing.db")) });

const redisUrl = requireService("REDIS_URL", "listing on redis");
if (redisUrl !== undefined) {
  const namespace = `tether-listing-${crypto.randomUUID()}`;
  runListingContract("redis", { open: () => redisStore(redisUrl, { namespace }) });
  after(async () => {
    const client = createClient({ url: redisUrl });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `{${namespace}}:*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  });
}

const databaseUrl = requireService("DATABASE_URL", "listing on postgres");
if (databaseUrl !== undefined) {
  const table = `tether_listing_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  runListingContract("postgres", { open: () => postgresStore(databaseUrl, { table }) });
  after(async () => {
    const sql = postgres(databaseUrl, { onnotice: () => {} });
    await dropTables(sql, table);
    await sql.end();
  });
}
