/**
 * The ordered key tree behind `memoryStore()`: one node per key part, each
 * with its children's names kept sorted, so appending the next zero-padded
 * sequence number is a push and `list()` walks only the prefix's subtree.
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

/** A node of the tree. */
export interface TreeNode {
  rec: Rec | undefined;
  names: string[];
  children: Map<string, TreeNode>;
}

/** Makes an empty node. */
export function node(): TreeNode {
  return { rec: undefined, names: [], children: new Map() };
}

/** The node at `key`, or undefined. */
export function find(root: TreeNode, key: Key): TreeNode | undefined {
  let at: TreeNode | undefined = root;
  for (let i = 0; i < key.length && at !== undefined; i++) at = at.children.get(key[i]);
  return at;
}

/** The node at `key`, created with its ancestors when missing. */
export function ensure(root: TreeNode, key: Key): TreeNode {
  let at = root;
  for (const part of key) {
    let next = at.children.get(part);
    if (next === undefined) {
      next = node();
      at.children.set(part, next);
      insertName(at.names, part);
    }
    at = next;
  }
  return at;
}

/** Clears the record at `key` and prunes nodes left empty. */
export function remove(root: TreeNode, key: Key): void {
  const path: TreeNode[] = [root];
  for (const part of key) {
    const next = path[path.length - 1].children.get(part);
    if (next === undefined) return;
    path.push(next);
  }
  path[path.length - 1].rec = undefined;
  for (let i = key.length; i > 0; i--) {
    const at = path[i];
    if (at.rec !== undefined || at.names.length > 0) return;
    const parent = path[i - 1];
    parent.children.delete(key[i - 1]);
    parent.names.splice(search(parent.names, key[i - 1]), 1);
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

function insertName(names: string[], part: string): void {
  // Keys mostly arrive in order (sequence numbers), so try the end first.
  if (names.length === 0 || comparePart(names[names.length - 1], part) < 0) names.push(part);
  else names.splice(search(names, part), 0, part);
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
  const { names } = top;
  if (!reverse) {
    let i = after === undefined ? 0 : search(names, after);
    if (after !== undefined && names[i] === after) {
      // The pivot key itself is excluded, its descendants sort after it.
      if (!children(top.children.get(after)!, [...base, after], false, visit)) return;
      i++;
    }
    for (; i < names.length; i++) {
      if (!subtree(top.children.get(names[i])!, [...base, names[i]], false, visit)) return;
    }
  } else {
    const end = after === undefined ? names.length : search(names, after);
    for (let i = end - 1; i >= 0; i--) {
      if (!subtree(top.children.get(names[i])!, [...base, names[i]], true, visit)) return;
    }
  }
}

function subtree(at: TreeNode, key: string[], reverse: boolean, visit: Visit): boolean {
  if (!reverse && at.rec !== undefined && !visit(key, at.rec)) return false;
  if (!children(at, key, reverse, visit)) return false;
  if (reverse && at.rec !== undefined && !visit(key, at.rec)) return false;
  return true;
}

function children(at: TreeNode, key: string[], reverse: boolean, visit: Visit): boolean {
  const { names } = at;
  if (!reverse) {
    for (let i = 0; i < names.length; i++) {
      if (!subtree(at.children.get(names[i])!, [...key, names[i]], false, visit)) return false;
    }
  } else {
    for (let i = names.length - 1; i >= 0; i--) {
      if (!subtree(at.children.get(names[i])!, [...key, names[i]], true, visit)) return false;
    }
  }
  return true;
}
