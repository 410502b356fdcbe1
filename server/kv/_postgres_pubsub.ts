/**
 * Publish/subscribe of `postgresStore()` (private to `server/kv/`): one
 * LISTEN channel per table, whose payload is `[channel, message]`; a
 * message too large for NOTIFY (8000 bytes) is stored in the side table and
 * the payload is `[channel, null, id]`. Notifications are handled one after
 * another, so a large message does not overtake the small ones after it.
 * Publishing is ordered too: one statement at a time, in the order asked, the
 * small messages asked while one runs together in the next (one transaction,
 * delivered in order), a large one alone.
 *
 * @module
 */

import { log } from "../log.ts";
import { Bus } from "./_bus.ts";
import { assertValue } from "./_codec.ts";
import type { Background, Sql, Tables } from "./_postgres_sql.ts";
import type { Listener } from "./store.ts";

const NOTIFY_BYTES = 7900;
/** Most notifications in one statement. */
const MOST_NOTIFICATIONS = 100;

interface Outgoing {
  channel: string;
  text: string;
  /** Whether the text fits NOTIFY's payload. */
  small: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/** LISTEN/NOTIFY for one store. */
export class PgPubSub {
  #sql: Sql;
  #t: Tables;
  #background: Background;
  #bus = new Bus();
  #listening: Promise<unknown> | undefined;
  #inbox: Promise<void> = Promise.resolve();
  #outbox: Outgoing[] = [];
  #sending = false;
  #closed = false;

  constructor(sql: Sql, t: Tables, background: Background) {
    this.#sql = sql;
    this.#t = t;
    this.#background = background;
  }

  /**
   * Notifies every process listening on the table's channel. Publishes go out one statement at
   * a time, in the order asked; the small ones asked while a statement runs go out together in
   * the next.
   */
  publish(channel: string, message: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      assertValue(message); // a throw here rejects
      const text = JSON.stringify([channel, message]);
      const small = text.length * 3 <= NOTIFY_BYTES ||
        new TextEncoder().encode(text).length <= NOTIFY_BYTES;
      this.#outbox.push({ channel, text, small, resolve, reject });
      if (!this.#sending) void this.#send();
    });
  }

  async #send(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#outbox.length > 0) {
        const head = this.#outbox[0];
        let n = 1;
        if (head.small) {
          // Postgres delivers identical payloads sent in one transaction once, so a repeat
          // starts the next statement.
          const texts = new Set([head.text]);
          while (
            n < this.#outbox.length && n < MOST_NOTIFICATIONS && this.#outbox[n].small &&
            !texts.has(this.#outbox[n].text)
          ) texts.add(this.#outbox[n++].text);
        }
        const group = this.#outbox.splice(0, n);
        try {
          await (head.small ? this.#notify(group.map((p) => p.text)) : this.#notifyLarge(head));
          for (const p of group) p.resolve();
        } catch (error) {
          for (const p of group) p.reject(error);
        }
      }
    } finally {
      this.#sending = false;
    }
  }

  /** One statement that notifies each text, in order. */
  async #notify(texts: string[]): Promise<void> {
    await this.#sql`SELECT pg_notify(${this.#t.channel}, p) FROM unnest(${texts}::text[]) AS p`;
  }

  /** A message too large for NOTIFY: stored in the side table, its id notified. */
  async #notifyLarge({ channel, text }: Outgoing): Promise<void> {
    const sql = this.#sql;
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
