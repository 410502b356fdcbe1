/**
 * The offline model's summary of earlier turns: deterministic, so a restart
 * or another process that summarises the same messages writes the same
 * bytes. It keeps what a later turn needs most: what was asked, which
 * actions ran and how they ended, and what was answered, one line a turn,
 * newest kept when the limit is reached.
 *
 * @module
 */

/** One thing that happened in the part of a conversation being summarised. */
export type TranscriptEntry =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "call"; name: string; arguments: unknown; outcome: string };

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function argumentsText(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  const pairs = Object.entries(value as Record<string, unknown>).map(([k, v]) =>
    `${k} ${typeof v === "string" ? v : JSON.stringify(v)}`
  );
  return clip(pairs.join(", "), 80);
}

/**
 * Summarises earlier turns without a model: the previous summary's lines, then one line per
 * turn ("asked …; did …; said …"), within `maxChars` (older lines dropped first).
 *
 * @example
 * ```ts
 * offlineSummary("", [{ kind: "user", text: "close issue 42" },
 *   { kind: "call", name: "close_issue", arguments: { number: 42 }, outcome: "completed" }], 2000);
 * // "Asked: close issue 42. Did: close_issue (number 42): completed."
 * ```
 */
export function offlineSummary(
  previous: string,
  entries: readonly TranscriptEntry[],
  maxChars: number,
): string {
  const lines = previous ? previous.split("\n").filter(Boolean) : [];
  let line: { asked: string[]; did: string[]; said: string[] } | null = null;
  const flush = () => {
    if (!line) return;
    const parts = [
      line.asked.length ? `Asked: ${line.asked.join(" / ")}.` : "",
      line.did.length ? `Did: ${line.did.join("; ")}.` : "",
      line.said.length ? `Said: ${line.said.join(" ")}` : "",
    ].filter(Boolean);
    if (parts.length) lines.push(parts.join(" "));
    line = null;
  };
  for (const entry of entries) {
    if (entry.kind === "user") {
      flush();
      line = { asked: [], did: [], said: [] };
      if (entry.text.trim()) line.asked.push(clip(entry.text, 160));
      continue;
    }
    line ??= { asked: [], did: [], said: [] };
    if (entry.kind === "call") {
      const args = argumentsText(entry.arguments);
      line.did.push(`${entry.name}${args ? ` (${args})` : ""}: ${clip(entry.outcome, 60)}`);
    } else if (entry.text.trim()) {
      line.said.push(clip(entry.text, 160));
    }
  }
  flush();
  // The newest lines matter most: drop from the start until the summary fits.
  let total = lines.reduce((n, l) => n + l.length + 1, 0);
  let first = 0;
  while (total > maxChars && first < lines.length - 1) total -= lines[first++].length + 1;
  const kept = lines.slice(first);
  if (first) kept.unshift(`(${first} earlier lines left out.)`);
  return kept.join("\n").slice(0, maxChars);
}
