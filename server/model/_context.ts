/**
 * Reads the facts the offline planner summarises from a rendered
 * `<host_context>` block: the view's name and description, the data items it
 * lists, and where the host can navigate.
 *
 * The block is read as JSON when it is a JSON object; otherwise as lines of
 * `key: value` (keys may be dotted or prefixed, such as `view.name`,
 * `view name`, `- description`), where a value that is a JSON array counts as
 * a list of data items.
 *
 * @module
 */

import { truncate } from "./_text.ts";

/** What a host context shows, as far as a summary needs. */
export interface ContextFacts {
  view?: string;
  description?: string;
  /** Data entries: a name and, for lists, how many items. */
  data: { name: string; count?: number }[];
  navigation: string[];
  /** The block's first line, for a context this reader cannot make sense of. */
  firstLine: string;
}

// Contract fields whose arrays are not data the view shows.
const NOT_DATA = new Set(["actions", "navigation", "attachments", "tools"]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function names(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) => (isRecord(v) ? String(v.name ?? "") : String(v))).filter((n) => n !== "");
}

function fromJson(root: Record<string, unknown>, firstLine: string): ContextFacts {
  const view = isRecord(root.view) ? root.view : isRecord(root.page) ? root.page : {};
  const data: ContextFacts["data"] = [];
  if (isRecord(view.data)) {
    for (const [name, value] of Object.entries(view.data)) {
      data.push(Array.isArray(value) ? { name, count: value.length } : { name });
    }
  }
  return {
    view: typeof view.name === "string" ? view.name : undefined,
    description: typeof view.description === "string" ? view.description : undefined,
    data,
    navigation: names(root.navigation),
    firstLine,
  };
}

const LINE = /^[\s>*#-]*([\p{L}\p{N}_ .-]{1,60}?)\s*[:=]\s*(.*)$/u;

function keyOf(raw: string): string {
  return raw.trim().toLowerCase().replace(/[\s.-]+/g, "_");
}

function fromLines(inner: string, firstLine: string): ContextFacts {
  const facts: ContextFacts = { data: [], navigation: [], firstLine };
  for (const line of inner.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const key = keyOf(m[1]);
    const value = m[2].trim();
    if (value === "") continue;
    const last = key.split("_").pop() ?? key;
    if (facts.view === undefined && /^(?:view|page)(?:_name)?$/.test(key)) {
      const obj = parseJson(value);
      if (isRecord(obj)) {
        const inView = fromJson({ view: obj }, firstLine);
        facts.view = inView.view;
        facts.description ??= inView.description;
        facts.data.push(...inView.data);
      } else {
        facts.view = value;
      }
    } else if (facts.description === undefined && /^(?:(?:view|page)_)?description$/.test(key)) {
      facts.description = value;
    } else if (key === "navigation") {
      const parsed = parseJson(value);
      facts.navigation = parsed === undefined
        ? value.split(",").map((s) => s.trim())
        : names(parsed);
    } else if (!NOT_DATA.has(last) && value.startsWith("[")) {
      const parsed = parseJson(value);
      if (Array.isArray(parsed)) facts.data.push({ name: last, count: parsed.length });
    } else if (/^(?:(?:view|page)_)?data$/.test(key)) {
      const parsed = parseJson(value);
      if (isRecord(parsed)) {
        facts.data.push(...fromJson({ view: { data: parsed } }, firstLine).data);
      }
    }
  }
  return facts;
}

/**
 * Reads the inside of a host_context block.
 *
 * @example
 * ```ts
 * readContext('{"view": {"name": "tasks", "data": {"issues": [1, 2]}}}').data; // [{ name: "issues", count: 2 }]
 * ```
 */
export function readContext(inner: string): ContextFacts {
  const firstLine = truncate(inner.trim().split("\n", 1)[0] ?? "", 120);
  const trimmed = inner.trim();
  if (trimmed.startsWith("{")) {
    const parsed = parseJson(trimmed);
    if (isRecord(parsed)) return fromJson(parsed, firstLine);
  }
  return fromLines(inner, firstLine);
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : t + ".";
}

/**
 * A short summary of what a host context shows.
 *
 * @example
 * ```ts
 * describeContext(readContext("view: board")); // "You are on the board view."
 * ```
 */
export function describeContext(facts: ContextFacts): string {
  const out: string[] = [];
  if (facts.view !== undefined) {
    out.push(
      facts.description
        ? `You are on the ${facts.view} view: ${sentence(truncate(facts.description, 200))}`
        : `You are on the ${facts.view} view.`,
    );
  } else if (facts.firstLine !== "") {
    out.push(`The host context shows no view; it begins "${facts.firstLine}".`);
  }
  if (facts.data.length > 0) {
    const items = facts.data.slice(0, 8).map((d) =>
      d.count === undefined ? d.name : `${d.name} (${d.count})`
    );
    out.push(`It shows ${items.join(", ")}.`);
  }
  if (facts.navigation.length > 0) {
    out.push(`You can go to ${facts.navigation.slice(0, 8).join(", ")}.`);
  }
  return out.join(" ");
}
