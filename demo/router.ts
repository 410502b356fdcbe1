/**
 * Keeps the address bar and the tracker's page in step: `#/issues`,
 * `#/issues/42` and `#/new`, so links, back and forward work, and a card's
 * link opens the issue it shows.
 *
 * @module
 */
import type { Tracker } from "./tracker.ts";

function hashOf(tracker: Tracker): string {
  const { page, selected } = tracker.state;
  if (page === "new") return "#/new";
  if (page === "issue" && selected !== null) return `#/issues/${selected}`;
  return "#/issues";
}

function follow(tracker: Tracker, hash: string): void {
  const issue = hash.match(/^#\/issues\/(\d+)$/);
  if (issue) {
    try {
      tracker.open(Number(issue[1]));
    } catch {
      tracker.go("list");
    }
  } else if (hash === "#/new") tracker.go("new");
  else if (tracker.state.page !== "list") tracker.go("list");
}

/**
 * Starts routing; returns the function that stops it.
 *
 * @example
 * ```ts
 * const stop = route(tracker);
 * ```
 */
export function route(tracker: Tracker): () => void {
  const onHash = () => follow(tracker, location.hash);
  addEventListener("hashchange", onHash);
  onHash();
  const unsubscribe = tracker.subscribe(() => {
    const hash = hashOf(tracker);
    if (location.hash !== hash) history.pushState(null, "", hash);
  });
  return () => {
    removeEventListener("hashchange", onHash);
    unsubscribe();
  };
}
