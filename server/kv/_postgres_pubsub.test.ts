import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import postgres from "postgres";
import { PgPubSub } from "./_postgres_pubsub.ts";
import { Background, dropTables, migrate, type Sql, tables } from "./_postgres_sql.ts";
import { requireService } from "./store.case.ts";

const url = requireService("DATABASE_URL", "postgres publish/subscribe");
if (url !== undefined) {
  const table = `tether_kv_notify_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const t = tables(table);
  let sql: Sql;
  let listener: Sql;
  /** The statements that notified, as the publishing side sent them. */
  let notifying = 0;
  before(async () => {
    sql = postgres(url, { max: 4, onnotice: () => {} });
    listener = postgres(url, { max: 2, onnotice: () => {} });
    await migrate(sql, t);
  });
  after(async () => {
    await dropTables(sql, table);
    await Promise.all([sql.end(), listener.end()]);
  });
  /** A publishing side whose client counts its notifying statements, and a listening side. */
  const pair = async () => {
    const counted = new Proxy(sql, {
      apply(target, self, args) {
        if (Array.isArray(args[0]) && args[0].join("").includes("pg_notify")) notifying++;
        return Reflect.apply(target, self, args);
      },
    });
    const from = new PgPubSub(counted, t, new Background());
    const to = new PgPubSub(listener, t, new Background());
    const got: unknown[] = [];
    const off = await to.subscribe("c", (m) => void got.push(m));
    const until = async (n: number) => {
      for (let i = 0; i < 200 && got.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50)); // and nothing more arrives
    };
    return { from, got, until, close: async () => (await off(), to.close(), from.close()) };
  };

  test("publishes asked while one is sent go out together and arrive in the order asked", async () => {
    const { from, got, until, close } = await pair();
    try {
      notifying = 0;
      await Promise.all(Array.from({ length: 50 }, (_, i) => from.publish("c", { i })));
      await until(50);
      assert.deepEqual(got, Array.from({ length: 50 }, (_, i) => ({ i })));
      assert.ok(notifying < 50 && notifying >= 2, `50 publishes in ${notifying} statements`);
    } finally {
      await close();
    }
  });

  test("the same message published twice together arrives twice", async () => {
    const { from, got, until, close } = await pair();
    try {
      await Promise.all([
        from.publish("c", "first"),
        from.publish("c", "again"),
        from.publish("c", "again"),
        from.publish("c", "again"),
      ]);
      await until(4);
      assert.deepEqual(got, ["first", "again", "again", "again"]);
    } finally {
      await close();
    }
  });

  test("a message too large for NOTIFY keeps its place among small ones", async () => {
    const { from, got, until, close } = await pair();
    try {
      const large = "x".repeat(20_000);
      await Promise.all([
        from.publish("c", "before"),
        from.publish("c", "before 2"),
        from.publish("c", large),
        from.publish("c", "after"),
      ]);
      await until(4);
      assert.deepEqual(got, ["before", "before 2", large, "after"]);
    } finally {
      await close();
    }
  });
}
