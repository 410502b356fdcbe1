/**
 * Words for people: the one place the elements turn calls and their
 * outcomes into what a person reads (and a screen reader says). An action
 * is said by its title (`title`, else its name in words: `create_issue` →
 * "Create issue"), never by its tool name; a decline or a denial is a
 * neutral sentence; a failure's reason is said once, with the runtime's and
 * validation's agent-facing phrasing (tool names, schema patterns, policy
 * instructions) put into plain words; lists and records are summarised by
 * their names, never as "[object Object]".
 *
 * @module
 */

import { itemLabel, listInWords, nameOf, REMARK } from "../protocol/_summary.ts";

/**
 * An identifier in words, capitalised: `select_issue` → "Select issue".
 *
 * @example
 * ```ts
 * inWords("showOnly"); // "Show only"
 * ```
 */
export function inWords(name: string): string {
  const words = name.replace(/([a-z\d])([A-Z])/g, "$1 $2").split(/[\s_.:-]+/).filter(Boolean);
  const text = words.join(" ").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What an action is called for people: its own title when it has one, else its name in words.
 *
 * @example
 * ```ts
 * titleOf("create_issue"); // "Create issue"
 * titleOf("create_issue", "File an issue"); // "File an issue"
 * ```
 */
export function titleOf(name: string, title?: string): string {
  return title?.trim() ? title.trim() : inWords(name);
}

const clip = (text: string, max: number) => text.length > max ? text.slice(0, max - 1) + "…" : text;

/** The result without its preview cards (they render as cards). */
export function withoutDisplay(output: unknown): unknown {
  if (!output || typeof output !== "object" || Array.isArray(output)) return output;
  const { display: _display, ...rest } = output as Record<string, unknown>;
  return rest;
}

/**
 * A result in a few words: the item it is about as a list shows it (`#42 Fix login`), its plain
 * fields (`selected: 42, title: …`), lists and records by name.
 *
 * @example
 * ```ts
 * summarize({ selected: 42, shown: [1, 2, 3] }); // "selected: 42, shown: 1, 2, 3"
 * summarize({ milestones: [{ title: "Beta" }] }); // "milestones: Beta"
 * ```
 */
export function summarize(output: unknown): string {
  const value = withoutDisplay(output);
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return clip(String(value), 120);
  if (Array.isArray(value)) return listInWords(value);
  const item = itemLabel(value);
  const parts: string[] = item ? [item.label] : [];
  let remark = "";
  for (const [key, v] of Object.entries(value)) {
    if (item?.keys.includes(key)) continue;
    // A note for a person ("#42 is hidden by the current filters") is a sentence of its own.
    if (!remark && REMARK.test(key) && typeof v === "string" && v.trim()) {
      const text = clip(v.trim(), 100).replace(/[^.!?…]$/, "$&.");
      remark = text[0].toUpperCase() + text.slice(1);
      continue;
    }
    if (parts.length === 4) continue;
    const label = inWords(key).toLowerCase();
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) {
      parts.push(`${label}: ${clip(String(v), 60)}`);
    } else if (Array.isArray(v)) {
      parts.push(`${label}: ${listInWords(v)}`);
    } else {
      const name = nameOf(v);
      if (name) parts.push(`${label}: ${clip(name, 60)}`);
    }
  }
  const about = clip(parts.join(", "), 160);
  if (!remark) return about;
  return about ? `${about}. ${remark}` : remark;
}

// The agent-facing phrasings the layers write, each with what a person reads instead.
const PLAIN: [RegExp, string | ((...m: string[]) => string)][] = [
  [/\bFix them and call again\.?/gi, ""],
  [/^(?:the action failed:\s*)+/i, ""],
  [/^invalid (?:arguments|input) for \S+:\s*/i, ""],
  [/^invalid input:\s*/i, ""],
  // "due: due must match the pattern ^\d{4}…$" → "“due” is not in the expected form".
  [
    /(?:^|;\s*)(?:(\w+):\s*)?\1?\s*must match (?:the )?pattern \S+/gi,
    (_m, field) => `${field ? `“${field}” ` : "a value "}is not in the expected form`,
  ],
  // "title: title is required in the value; add it." → "“title” is missing" (the path, where it
  // is in the value and the instruction to add it are written for the model).
  [
    /(?:\b[\w.[\]]+:\s*)?\b(\w+) is required\b(?: in [^;.]*)?(?:;\s*add it\b[^;.]*)?/gi,
    (_m, field) => `“${field}” is missing`,
  ],
  [/\bmust (?:have|contain) (?:at most|fewer than) (\d+) characters\b/gi, "is too long"],
  [/\S+ could not be completed:\s*/i, ""],
  [/\bthe tool server answered 404\b/i, "it was not found"],
  [/\bthe tool server answered (\d{3})\b/i, "the service could not do it"],
  [/\bthe tool server\b/gi, "the service"],
  [
    /\bTool '[^']*' requires approval\.?\s*(?:Request approval before proceeding\.?)?/gi,
    "This needs a person's approval.",
  ],
  [/\bRequest approval before proceeding\.?/gi, ""],
  [/^An operator denied (?:the call|it)(?::\s*|\.)/i, "A reviewer declined it. "],
];

/**
 * A reason as a person reads it: the layers' prefixes dropped, schema and policy phrasing said
 * plainly, and any tool name among `names` said as its title.
 *
 * @example
 * ```ts
 * plainReason("Invalid arguments for create_milestone: due: due must match the pattern ^\\d{4}$", ["create_milestone"]);
 * // "“due” is not in the expected form."
 * ```
 */
export function plainReason(text: string, names: readonly string[] = []): string {
  let out = text.trim();
  for (const name of names) {
    const prefix = new RegExp(`^${name.replace(/[^\w]/g, "\\$&")} failed:\\s*`, "i");
    while (prefix.test(out)) out = out.replace(prefix, "");
  }
  for (const [pattern, replacement] of PLAIN) {
    out = (typeof replacement === "string"
      ? out.replace(pattern, replacement)
      : out.replace(pattern, replacement)).trim();
  }
  for (const name of names) {
    if (name.length > 2 && /[_A-Z]/.test(name)) {
      out = out.split(name).join(inWords(name).toLowerCase());
    }
  }
  out = out.replace(/\s{2,}/g, " ").trim();
  if (out && !/[.!?…]$/.test(out)) out += ".";
  return clip(out, 300);
}

/** What the chat's notice says while a call waits or runs. */
export type NoticeKind = "deciding" | "approval" | "running" | "elsewhere";

/**
 * The notice line under the conversation, naming the action by its title.
 *
 * @example
 * ```ts
 * noticeText("running", "create_issue"); // "Create issue is running on this page…"
 * ```
 */
export function noticeText(kind: NoticeKind, name: string, title?: string): string {
  const what = titleOf(name, title);
  switch (kind) {
    case "deciding":
      return "Waiting for your decision.";
    case "approval":
      return `${what} is waiting for a person's approval.`;
    case "elsewhere":
      return `${what} is waiting in another tab.`;
    default:
      return `${what} is running on this page…`;
  }
}

/**
 * The accessible name of a confirmation box.
 *
 * @example
 * ```ts
 * confirmLabel("create_issue"); // "Confirm: Create issue"
 * ```
 */
export function confirmLabel(name: string, title?: string): string {
  return `Confirm: ${titleOf(name, title)}`;
}
