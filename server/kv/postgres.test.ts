import { after } from "node:test";
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
  after(async () => {
    const sql = postgres(url, { onnotice: () => {} });
    await dropTables(sql, table);
    await sql.end();
  });
}
