import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import postgres from "postgres";
import { PgCommits } from "./_postgres_commits.ts";
import { dropTables, migrate, type Sql, tables } from "./_postgres_sql.ts";
import { requireService } from "./store.case.ts";

const url = requireService("DATABASE_URL", "postgres group commit");
if (url !== undefined) {
  const table = `tether_kv_group_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const t = tables(table);
  let sql: Sql;
  /** The calls of the commit function the queue made. */
  let calls = 0;
  before(async () => {
    sql = postgres(url, { max: 4, onnotice: () => {} });
    await migrate(sql, t);
  });
  after(async () => {
    await dropTables(sql, table);
    await sql.end();
  });
  /** A queue whose client counts the calls of the commit function. */
  const queue = () =>
    new PgCommits(
      new Proxy(sql, {
        apply(target, self, args) {
          if (Array.isArray(args[0]) && args[0].join("").includes("out_commit")) calls++;
          return Reflect.apply(target, self, args);
        },
      }),
      t,
    );
  const set = (key: string, text: string) => ({ key, text, expireIn: null });
  const current = async (key: string) =>
    (await sql<{ value: string; version: string }[]>`SELECT value, version::text FROM ${
      sql(table)
    } WHERE key = ${key}`)[0];

  test("commits asked while one runs go out together, each answered on its own checks", async () => {
    const commits = queue();
    calls = 0;
    await commits.commit({ checked: [], expected: [], sets: [set("held", '"v0"')], deletes: [] });
    const held = await current("held");
    assert.equal(calls, 1);
    calls = 0;
    const answers = await Promise.all([
      commits.commit({ checked: [], expected: [], sets: [set("first", "1")], deletes: [] }),
      ...Array.from({ length: 30 }, (_, i) =>
        commits.commit({
          checked: ["held"],
          // Every other one checks a version the key is not at.
          expected: [i % 2 ? held.version : "0"],
          sets: [set(`k${i}`, String(i))],
          deletes: [],
        })),
    ]);
    assert.ok(calls < 31 && calls >= 2, `31 commits in ${calls} calls`);
    assert.equal(answers[0]!.size, 1);
    for (let i = 0; i < 30; i++) {
      const answer = answers[i + 1];
      if (i % 2) {
        assert.equal(answer?.get(`k${i}`), (await current(`k${i}`)).version);
      } else {
        assert.equal(answer, null, `commit ${i} checked a stale version`);
        assert.equal(await current(`k${i}`), undefined);
      }
    }
  });

  test("a group applies its commits in the order asked: a later one sees an earlier one's write", async () => {
    const commits = queue();
    await commits.commit({ checked: [], expected: [], sets: [set("warm", "0")], deletes: [] });
    const [made, again, removed] = await Promise.all([
      commits.commit({
        checked: ["once"],
        expected: [null],
        sets: [set("once", "1")],
        deletes: [],
      }),
      commits.commit({
        checked: ["once"],
        expected: [null],
        sets: [set("once", "2")],
        deletes: [],
      }),
      commits.commit({ checked: [], expected: [], sets: [], deletes: ["once"] }),
    ]);
    assert.ok(made?.get("once"));
    assert.equal(again, null, "the key no longer absent for the second commit");
    assert.deepEqual(removed, new Map());
    assert.equal(await current("once"), undefined);
  });

  test("a commit the database refuses fails alone; the rest of its group is applied", async () => {
    const commits = queue();
    await commits.commit({ checked: [], expected: [], sets: [set("warm2", "0")], deletes: [] });
    const outcomes = await Promise.allSettled([
      commits.commit({ checked: [], expected: [], sets: [set("good1", "1")], deletes: [] }),
      // A NUL character, which a Postgres text value cannot hold.
      commits.commit({ checked: [], expected: [], sets: [set("bad", '"\u0000"')], deletes: [] }),
      commits.commit({ checked: [], expected: [], sets: [set("good2", "2")], deletes: [] }),
    ]);
    assert.deepEqual(outcomes.map((o) => o.status), ["fulfilled", "rejected", "fulfilled"]);
    assert.equal((await current("good1")).value, "1");
    assert.equal((await current("good2")).value, "2");
    assert.equal(await current("bad"), undefined);
  });
}
