/**
 * Registered tool servers, per workspace, in the runtime's store. The
 * secret lives only in the store record: every view of an integration leaves
 * it out, and it is registered with the logger so no log line can carry it.
 *
 * Keys: `["integration", workspaceId, id]`, and `["integration_rev",
 * workspaceId]`, rewritten in the commit of every change to the workspace's
 * integrations.
 *
 * Every turn asks for its workspace's list. While no other process can
 * write the store (`Store.alone()`: memory always, a Deno KV file this
 * process holds alone) the list is kept in memory per store and dropped on
 * every change made through any `Integrations` of that store, or when the
 * store's number for being alone changes, so a turn reads nothing.
 * Otherwise another process may change it, so a turn reads the workspace's
 * revision key, one key (which a store batches with the turn's other
 * reads), and lists the integrations only when the revision is not the one
 * the kept list was read under.
 *
 * @module
 */
import type { Key, Mutation, Store } from "../kv/store.ts";
import { registerSecret } from "../log.ts";
import { newId, now } from "../session/create.ts";

/** The providers this runtime speaks. */
export const PROVIDERS = ["generic-rest"] as const;

/** A stored integration, secret included: never returned by a route. */
export interface Integration {
  id: string;
  provider: (typeof PROVIDERS)[number];
  workspace_id: string;
  base_url: string;
  secret: string;
  /** Tool names offered; empty means every tool the server lists. */
  allowed_tools: string[];
  created_at: string;
  /** Set when the tool server answered 401: the secret no longer matches. */
  secret_rejected_at?: string;
}

/** An integration as routes show it: no secret, and whether the server rejected it. */
export type IntegrationView = Omit<Integration, "secret" | "secret_rejected_at"> & {
  secret_status: "ok" | "rejected";
  secret_rejected_at: string | null;
};

/**
 * The view of an integration that may leave the server.
 *
 * @example
 * ```ts
 * integrationView(stored).secret_status; // "ok"
 * ```
 */
export function integrationView(i: Integration): IntegrationView {
  const { secret: _secret, secret_rejected_at, ...rest } = i;
  return {
    ...rest,
    secret_status: secret_rejected_at ? "rejected" : "ok",
    secret_rejected_at: secret_rejected_at ?? null,
  };
}

/**
 * The integrations of every workspace, in a store.
 *
 * @example
 * ```ts
 * const integrations = new Integrations(memoryStore());
 * await integrations.add({ provider: "generic-rest", workspace_id: "default",
 *   base_url: "https://tools.example.com", secret: "s3cret-value", allowed_tools: [] });
 * ```
 */
export class Integrations {
  #store: Store;
  #cache: Cache;
  /** While others may write: each workspace's list as read, with the revision it was read under. */
  #revised = new Map<string, { rev: string | null; all: Integration[] }>();

  constructor(store: Store) {
    this.#store = store;
    this.#cache = cacheOf(store);
  }

  /** Stores a new integration (or replaces the one with the given `id`) and returns it. */
  async add(
    input: Omit<Integration, "id" | "created_at"> & { id?: string },
  ): Promise<Integration> {
    const integration: Integration = { ...input, id: input.id ?? newId("int"), created_at: now() };
    registerSecret(integration.secret);
    await this.#change(input.workspace_id, [], [{
      key: ["integration", input.workspace_id, integration.id],
      value: integration,
    }]);
    return integration;
  }

  /** Every integration of a workspace, oldest first. */
  async list(workspaceId: string): Promise<Integration[]> {
    const alone = this.#store.alone();
    const all = alone === null
      ? await this.#besideOthers(workspaceId)
      : await this.#whileAlone(workspaceId, alone);
    return all.map((i) => ({ ...i, allowed_tools: [...i.allowed_tools] }));
  }

  /** The list kept per store while it is alone (under the store's number `alone`). */
  async #whileAlone(workspaceId: string, alone: number): Promise<Integration[]> {
    const cache = this.#cache;
    if (cache.alone !== alone) {
      // Alone anew: what another process wrote before is read again.
      cache.alone = alone;
      cache.generation++;
      cache.lists.clear();
    }
    const kept = cache.lists.get(workspaceId);
    if (kept) return kept;
    const generation = cache.generation;
    const all = await this.#read(workspaceId);
    // A change made while the store was read may be missing from this list: keep it only if
    // none was, and the store stayed alone meanwhile.
    if (cache.generation === generation && this.#store.alone() === alone) {
      if (cache.lists.size >= REVISED_WORKSPACES) cache.lists.clear();
      cache.lists.set(workspaceId, all);
    }
    return all;
  }

  /** The list read again only when the workspace's revision changed (another process may write). */
  async #besideOthers(workspaceId: string): Promise<Integration[]> {
    // The revision is read before the list: a change between the two lists again next time.
    const rev = (await this.#store.get(revKey(workspaceId)))?.version ?? null;
    const kept = this.#revised.get(workspaceId);
    if (kept?.rev === rev) return kept.all;
    const all = await this.#read(workspaceId);
    // Bounded: past the cap the kept lists start over (each costs one list to read again).
    if (this.#revised.size >= REVISED_WORKSPACES) this.#revised.clear();
    this.#revised.set(workspaceId, { rev, all });
    return all;
  }

  /** One integration, or null. */
  async get(workspaceId: string, id: string): Promise<Integration | null> {
    const entry = await this.#store.get<Integration>(["integration", workspaceId, id]);
    if (entry) registerSecret(entry.value.secret);
    return entry?.value ?? null;
  }

  /** Removes an integration; false when there was none. */
  async remove(workspaceId: string, id: string): Promise<boolean> {
    const key = ["integration", workspaceId, id];
    if (!(await this.#store.get(key))) return false;
    await this.#change(workspaceId, [], [{ key }]);
    return true;
  }

  /** Records that the tool server refused the secret (401), so the listing says so. */
  async markRejected(workspaceId: string, id: string): Promise<void> {
    const key = ["integration", workspaceId, id];
    const entry = await this.#store.get<Integration>(key);
    if (!entry || entry.value.secret_rejected_at) return;
    await this.#change(workspaceId, [{ key, version: entry.version }], [{
      key,
      value: { ...entry.value, secret_rejected_at: now() },
    }]);
  }

  async #read(workspaceId: string): Promise<Integration[]> {
    const entries = await this.#store.list<Integration>(["integration", workspaceId]);
    const all = entries.map((e) => e.value).sort((a, b) =>
      a.created_at.localeCompare(b.created_at)
    );
    for (const i of all) registerSecret(i.secret);
    return all;
  }

  /** Commits a change with a new revision of the workspace's list; kept lists are dropped around it. */
  async #change(
    workspaceId: string,
    checks: { key: Key; version: string | null }[],
    mutations: Mutation[],
  ): Promise<void> {
    this.#changed();
    await this.#store.atomic(checks, [...mutations, {
      key: revKey(workspaceId),
      value: newId("rev"),
    }]);
    this.#changed();
  }

  /**
   * Drops the lists kept while alone (before and after a write, so no list read across it is
   * kept); those read beside other processes go stale by the new revision instead.
   */
  #changed(): void {
    this.#cache.generation++;
    this.#cache.lists.clear();
  }
}

/** How many workspaces' lists a process keeps, alone and beside others each. */
const REVISED_WORKSPACES = 1_000;

const revKey = (workspaceId: string): Key => ["integration_rev", workspaceId];

/** The lists of one store while it is alone, shared by every `Integrations` over it. */
interface Cache {
  /** The store's `alone()` number the lists were read under. */
  alone?: number;
  generation: number;
  lists: Map<string, Integration[]>;
}

const caches = new WeakMap<Store, Cache>();

function cacheOf(store: Store): Cache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, cache = { generation: 0, lists: new Map() });
  return cache;
}
