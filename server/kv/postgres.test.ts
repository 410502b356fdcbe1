import assert from "node:assert/strict";
import { after, test } from "node:test";
import postgres from "postgres";
import { dropTables } from "./_postgres_sql.ts";
import { postgresStore } from "./postgres.ts";
import { requireService, runStoreContract } from "./store.case.ts";

const url = requireService("DATABASE_URL", "postgres store contract");
if (url !== undefined) {
  // A table per run lets runs share one database; it is dropped at the end.
  const table = `tether_kv_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  runStoreContract("postgres", {
    open: () => postgresStore(url, { table }),
    peer: () => postgresStore(url, { table }),
  });
  test("commits and reads on a small pool under a burst all succeed and agree", async () => {
    // Commits go out in groups (calls of the store's commit function) beside the reads, on two
    // connections; none may fail or be lost.
    const store = await postgresStore(url, { table, max: 2 });
    try {
      const key = (i: number) => ["pipeline", String(i % 40)];
      const work = Array.from(
        { length: 600 },
        (_, i) => i % 3 ? store.get(key(i)) : store.atomic([], [{ key: key(i), value: i }]),
      );
      const outcomes = await Promise.allSettled(work);
      const failed = outcomes.filter((o) => o.status === "rejected");
      assert.deepEqual(failed.map((o) => String((o as PromiseRejectedResult).reason)), []);
      // Each key holds one of the values written to it (commits to one key race; none is lost).
      for (let k = 0; k < 40; k++) {
        const written = [...Array(600).keys()].filter((i) => i % 3 === 0 && i % 40 === k);
        assert.ok(written.includes((await store.get(key(k)))?.value as number));
      }
    } finally {
      await store.close();
    }
  });

  after(async () => {
    const sql = postgres(url, { onnotice: () => {} });
    await dropTables(sql, table);
    await sql.end();
  });
}
