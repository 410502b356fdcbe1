/**
 * The tracker's data as the browser keeps it (localStorage): its issues,
 * filters and selection. What is read back is checked field by field, so a
 * stale or tampered entry falls back to the seed data instead of breaking
 * the page.
 *
 * @module
 */
import { ASSIGNEES, type Issue, LABELS } from "./data.ts";
import type { Filter } from "./tracker.ts";

/**
 * The key the tracker's data lives under.
 *
 * @example
 * ```ts
 * localStorage.removeItem(STORAGE_KEY); // back to the seed data on the next load
 * ```
 */
export const STORAGE_KEY = "acme-tracker:v1";

/** What is kept. */
export interface Saved {
  issues: Issue[];
  filter: Filter;
  selected: number | null;
}

const isIssue = (i: unknown): i is Issue => {
  const v = i as Issue;
  return typeof v === "object" && v !== null && Number.isInteger(v.number) &&
    typeof v.title === "string" && (v.state === "open" || v.state === "closed") &&
    Array.isArray(v.labels) && v.labels.every((l) => LABELS.includes(l)) &&
    (v.assignee === null || ASSIGNEES.includes(v.assignee)) && typeof v.body === "string" &&
    typeof v.created === "string" && Number.isInteger(v.comments);
};

function filterOf(f: Partial<Filter> | undefined): Partial<Filter> {
  const out: Partial<Filter> = {};
  if (f?.label === null || LABELS.includes(f?.label as never)) out.label = f!.label;
  if (f?.state === "open" || f?.state === "closed" || f?.state === "all") out.state = f.state;
  if (f?.assignee === null || ASSIGNEES.includes(f?.assignee as never)) out.assignee = f!.assignee;
  if (typeof f?.query === "string") out.query = f.query.slice(0, 200);
  return out;
}

/**
 * Reads the kept data back; undefined when there is none or it does not check out.
 *
 * @example
 * ```ts
 * const saved = loadSaved(localStorage);
 * ```
 */
export function loadSaved(
  storage: Pick<Storage, "getItem"> | undefined,
): { issues: Issue[]; filter: Partial<Filter>; selected: number | null } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "null");
  } catch {
    return undefined;
  }
  const saved = raw as Partial<Saved> | null;
  if (!saved || !Array.isArray(saved.issues) || !saved.issues.every(isIssue)) return undefined;
  const selected = Number.isInteger(saved.selected) &&
      saved.issues.some((i) => i.number === saved.selected)
    ? saved.selected!
    : null;
  return { issues: saved.issues, filter: filterOf(saved.filter), selected };
}
