/**
 * The ordered key tree behind `memoryStore()`: one node per key part, so
 * reads and writes are a few map lookups and `list()` walks only the
 * prefix's subtree. Each node keeps its children's names sorted while keys
 * arrive in order (appending the next zero-padded sequence number, trimming
 * the oldest) and otherwise drops that order and sorts again at the next
 * `list()`, so random ids (sessions) never pay for ordering on write.
 *
 * @module
 */

import { comparePart } from "./_codec.ts";
import type { Key } from "./store.ts";

/** What the tree stores at a key. */
export interface Rec {
  /** A primitive as written, or the JSON text of an object or array. */
  data: unknown;
  json: boolean;
  version: string;
  /** Epoch milliseconds; 0 for never. */
  expiresAt: number;
}

/**
 * A node of the tree, holding its key's record in its own fields when `stored` (not in an
 * object of its own: most nodes are records, and one object fewer each is less for every
 * garbage collection to walk).
 */
export interface TreeNode extends Rec {
  stored: boolean;
  /** Made with the first child: most nodes are leaves, and a map apiece was most of the store's memory. */
  children: Map<string, TreeNode> | undefined;
  /** The children's names in order, or null until the next `list()` sorts them. */
  sorted: string[] | null;
}

/** Makes an empty node. */
export function node(): TreeNode {
  return {
    stored: false,
    data: undefined,
    json: false,
    version: "",
    expiresAt: 0,
    children: undefined,
    sorted: null,
  };
}

/** Stores `rec` at `at`, replacing what was there. */
export function put(at: TreeNode, rec: Rec): void {
  at.stored = true;
  at.data = rec.data;
  at.json = rec.json;
  at.version = rec.version;
  at.expiresAt = rec.expiresAt;
}

/** The record stored at `at`, or undefined. */
export function stored(at: TreeNode | undefined): Rec | undefined {
  return at?.stored ? at : undefined;
}

/** The children's names of `at` in key order. */
export function names(at: TreeNode): string[] {
  return at.sorted ??= [...(at.children?.keys() ?? [])].sort(comparePart);
}

/** The node at `key`, or undefined. */
export function find(root: TreeNode, key: Key): TreeNode | undefined {
  let at: TreeNode | undefined = root;
  for (let i = 0; i < key.length && at !== undefined; i++) at = at.children?.get(key[i]);
  return at;
}

/** The node at `key`, created with its ancestors when missing. */
export function ensure(root: TreeNode, key: Key): TreeNode {
  let at = root;
  for (const part of key) {
    const kids = at.children;
    let next = kids?.get(part);
    if (next === undefined) {
      next = node();
      if (kids === undefined) {
        at.children = new Map([[part, next]]);
        at.sorted = [part];
        at = next;
        continue;
      }
      kids.set(part, next);
      const { sorted } = at;
      if (sorted !== null) {
        if (sorted.length === 0 || comparePart(sorted[sorted.length - 1], part) < 0) {
          sorted.push(part);
        } else at.sorted = null;
      }
    }
    at = next;
  }
  return at;
}

/** Clears the record at `key` and prunes nodes left empty. */
export function remove(root: TreeNode, key: Key): void {
  const path: TreeNode[] = [root];
  for (const part of key) {
    const next = path[path.length - 1].children?.get(part);
    if (next === undefined) return;
    path.push(next);
  }
  const last = path[path.length - 1];
  last.stored = false;
  last.data = undefined;
  for (let i = key.length; i > 0; i--) {
    const at = path[i];
    if (at.stored || (at.children?.size ?? 0) > 0) return;
    const parent = path[i - 1];
    const part = key[i - 1];
    parent.children!.delete(part);
    const { sorted } = parent;
    if (sorted === null) continue;
    if (sorted[sorted.length - 1] === part) sorted.pop();
    else if (sorted[0] === part) sorted.shift();
    else parent.sorted = null;
  }
}

/** Index of the first name not below `part` (binary search). */
export function search(names: readonly string[], part: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePart(names[mid], part) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What `walk()` reports for each record, in order; returning false stops the walk. */
export type Visit = (key: string[], rec: Rec) => boolean;

/**
 * Visits the records strictly under `prefix` in key order (or reversed),
 * only keys above `[...prefix, after]` (below, when reversed) when `after` is set.
 */
export function walk(
  root: TreeNode,
  prefix: Key,
  after: string | undefined,
  reverse: boolean,
  visit: Visit,
): void {
  const top = find(root, prefix);
  if (top === undefined) return;
  const base = [...prefix];
  const order = names(top);
  if (!reverse) {
    let i = after === undefined ? 0 : search(order, after);
    if (after !== undefined && order[i] === after) {
      // The pivot key itself is excluded, its descendants sort after it.
      if (!children(top.children!.get(after)!, [...base, after], false, visit)) return;
      i++;
    }
    for (; i < order.length; i++) {
      if (!subtree(top.children!.get(order[i])!, [...base, order[i]], false, visit)) return;
    }
  } else {
    const end = after === undefined ? order.length : search(order, after);
    for (let i = end - 1; i >= 0; i--) {
      if (!subtree(top.children!.get(order[i])!, [...base, order[i]], true, visit)) return;
    }
  }
}

function subtree(at: TreeNode, key: string[], reverse: boolean, visit: Visit): boolean {
  if (!reverse && at.stored && !visit(key, at)) return false;
  if (!children(at, key, reverse, visit)) return false;
  if (reverse && at.stored && !visit(key, at)) return false;
  return true;
}

function children(at: TreeNode, key: string[], reverse: boolean, visit: Visit): boolean {
  const kids = at.children;
  if (kids === undefined || kids.size === 0) return true;
  const order = names(at);
  if (!reverse) {
    for (let i = 0; i < order.length; i++) {
      if (!subtree(kids.get(order[i])!, [...key, order[i]], false, visit)) return false;
    }
  } else {
    for (let i = order.length - 1; i >= 0; i--) {
      if (!subtree(kids.get(order[i])!, [...key, order[i]], true, visit)) return false;
    }
  }
  return true;
}
