/**
 * Publish/subscribe of `postgresStore()` (private to `server/kv/`): one
 * LISTEN channel per table, whose payload is `[channel, message]`; a
 * message too large for NOTIFY (8000 bytes) is stored in the side table and
 * the payload is `[channel, null, id]`. Notifications are handled one after
 * another, so a large message does not overtake the small ones after it.
 *
 * @module
 */

import { log } from "../log.ts";
import { Bus } from "./_bus.ts";
import { assertValue } from "./_codec.ts";
import type { Background, Sql, Tables } from "./_postgres_sql.ts";
import type { Listener } from "./store.ts";

const NOTIFY_BYTES = 7900;

/** LISTEN/NOTIFY for one store. */
export class PgPubSub {
  #sql: Sql;
  #t: Tables;
  #background: Background;
  #bus = new Bus();
  #listening: Promise<unknown> | undefined;
  #inbox: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(sql: Sql, t: Tables, background: Background) {
    this.#sql = sql;
    this.#t = t;
    this.#background = background;
  }

  /** Notifies every process listening on the table's channel. */
  async publish(channel: string, message: unknown): Promise<void> {
    assertValue(message);
    const text = JSON.stringify([channel, message]);
    const sql = this.#sql;
    if (text.length * 3 <= NOTIFY_BYTES || new TextEncoder().encode(text).length <= NOTIFY_BYTES) {
      await sql`SELECT pg_notify(${this.#t.channel}, ${text})`;
      return;
    }
    await sql`WITH m AS (INSERT INTO ${sql(this.#t.pubsub)} (payload) VALUES (${text}) RETURNING id)
      SELECT pg_notify(${this.#t.channel}, json_build_array(${channel}::text, null, m.id)::text) FROM m`;
    this.#background.run(
      sql`DELETE FROM ${sql(this.#t.pubsub)} WHERE created_at < now() - interval '5 minutes'`,
    );
  }

  /** Adds a listener, starting to LISTEN on first use. */
  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    const off = this.#bus.subscribe(channel, listener);
    this.#listening ??= this.#sql.listen(this.#t.channel, (payload) => {
      this.#inbox = this.#inbox.then(() => this.#receive(payload));
    }).catch((error) => {
      this.#listening = undefined;
      throw error;
    });
    try {
      await this.#listening;
    } catch (error) {
      off();
      throw error;
    }
    return () => Promise.resolve(off());
  }

  /** Stops delivering; the connection itself ends with the store's client. */
  close(): void {
    this.#closed = true;
    this.#bus.clear();
  }

  async #receive(payload: string): Promise<void> {
    try {
      const [channel, message, id] = JSON.parse(payload) as [string, unknown, number?];
      if (!this.#bus.has(channel)) return;
      if (id === undefined) {
        this.#bus.publish(channel, message);
        return;
      }
      const sql = this.#sql;
      const [row] = await sql<{ payload: string }[]>`SELECT payload
        FROM ${sql(this.#t.pubsub)} WHERE id = ${id}`;
      // A row already swept is a message lost, which at-most-once delivery allows.
      if (row !== undefined) {
        this.#bus.publish(channel, (JSON.parse(row.payload) as [string, unknown])[1]);
      }
    } catch (error) {
      if (!this.#closed) log.error("Postgres store could not deliver a notification", { error });
    }
  }
}
