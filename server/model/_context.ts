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

/** What a host context shows, as far as the planner needs. */
export interface ContextFacts {
  view?: string;
  description?: string;
  /** Data entries: a name, for lists how many items, and the value itself (parsed JSON, or the text). */
  data: { name: string; count?: number; value?: unknown }[];
  /** The view's state object, when it has one. */
  state?: Record<string, unknown>;
  navigation: string[];
  /** Whether a screenshot of the page is available to look at. */
  screenshot: boolean;
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
      data.push(Array.isArray(value) ? { name, count: value.length, value } : { name, value });
    }
  }
  return {
    view: typeof view.name === "string" ? view.name : undefined,
    description: typeof view.description === "string" ? view.description : undefined,
    data,
    state: isRecord(view.state) ? view.state : undefined,
    navigation: names(root.navigation),
    screenshot: false,
    firstLine,
  };
}

const LINE = /^[\s>*#-]*([\p{L}\p{N}_ .-]{1,60}?)\s*[:=]\s*(.*)$/u;

function keyOf(raw: string): string {
  return raw.trim().toLowerCase().replace(/[\s.-]+/g, "_");
}

function fromLines(inner: string, firstLine: string): ContextFacts {
  const facts: ContextFacts = { data: [], navigation: [], screenshot: false, firstLine };
  // The runtime renders `data:` and then one indented `key: <json>` line per entry.
  let inData = false;
  for (const line of inner.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    const key = keyOf(m[1]);
    const value = m[2].trim();
    const indented = /^\s/.test(line);
    if (!indented) inData = key === "data" && value === "";
    if (value === "") continue;
    const last = key.split("_").pop() ?? key;
    if (inData && indented) {
      const parsed = parseJson(value);
      const entry = parsed === undefined ? value : parsed;
      facts.data.push(
        Array.isArray(entry)
          ? { name: m[1].trim(), count: entry.length, value: entry }
          : { name: m[1].trim(), value: entry },
      );
    } else if (facts.view === undefined && /^(?:view|page)(?:_name)?$/.test(key)) {
      const obj = parseJson(value);
      if (isRecord(obj)) {
        const inView = fromJson({ view: obj }, firstLine);
        facts.view = inView.view;
        facts.description ??= inView.description;
        facts.data.push(...inView.data);
      } else {
        // `view: name - description`, as the runtime renders it.
        const dash = value.indexOf(" - ");
        facts.view = dash < 0 ? value : value.slice(0, dash);
        if (dash >= 0) facts.description ??= value.slice(dash + 3);
      }
    } else if (facts.description === undefined && /^(?:(?:view|page)_)?description$/.test(key)) {
      facts.description = value;
    } else if (key === "state") {
      const parsed = parseJson(value);
      if (isRecord(parsed)) facts.state = parsed;
    } else if (key === "screenshot") {
      facts.screenshot = value.startsWith("available");
    } else if (key === "navigation") {
      const parsed = parseJson(value);
      facts.navigation = parsed === undefined
        ? value.split(/[;,]/).map((s) => s.replace(/\s*\(.*$/, "").trim()).filter(Boolean)
        : names(parsed);
    } else if (!NOT_DATA.has(last) && value.startsWith("[")) {
      const parsed = parseJson(value);
      if (Array.isArray(parsed)) {
        facts.data.push({ name: last, count: parsed.length, value: parsed });
      }
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
