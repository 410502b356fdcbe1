/**
 * Records and lists said in a few words, for the sentences people read (the
 * chat's call cards, the offline model's answers): a record by its title,
 * name or label, a numbered item as a list shows it ("#42 Fix login"), a list
 * by those names or by how many it holds; never "[object Object]".
 *
 * @module
 */

/**
 * The keys of a result's remark for a person ("#42 is hidden by the current filters"), said as
 * a sentence of its own rather than as one of the record's fields.
 *
 * @example
 * ```ts
 * REMARK.test("note"); // true
 * ```
 */
export const REMARK = /^(?:note|notice|message|remark|warning|hint)$/i;

const clip = (text: string, max: number) => text.length > max ? text.slice(0, max - 1) + "…" : text;

/**
 * What a record is called (its title, name or label), if it says.
 *
 * @example
 * ```ts
 * nameOf({ id: "m1", title: "Beta" }); // "Beta"
 * ```
 */
export function nameOf(value: unknown): string | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const name = [v.title, v.name, v.label].find((x) => typeof x === "string");
  return name as string | undefined;
}

/**
 * A list in words: up to `most` plain values or record names, else how many it holds.
 *
 * @example
 * ```ts
 * listInWords([{ title: "Beta" }, { title: "Launch" }]); // "Beta, Launch"
 * listInWords([{}, {}]); // "2 items"
 * ```
 */
export function listInWords(list: readonly unknown[], most = 6): string {
  if (list.length === 0) return "none";
  const named = list.map((x) =>
    typeof x === "string" || typeof x === "number" ? String(x) : nameOf(x)
  );
  if (list.length > most || named.some((n) => n === undefined)) {
    return `${list.length} ${list.length === 1 ? "item" : "items"}`;
  }
  return named.map((n) => clip(n!, 40)).join(", ");
}

/**
 * A record about one numbered item as a list shows it ("#42 Fix login"), with the fields that
 * say it (its number and title), so nothing repeats them; undefined for any other value.
 *
 * @example
 * ```ts
 * itemLabel({ number: 42, title: "Fix login", state: "closed" }); // { label: "#42 Fix login", keys: ["number", "title"] }
 * itemLabel({ id: "m1", title: "Beta" }); // undefined: not a number
 * ```
 */
export function itemLabel(value: unknown): { label: string; keys: string[] } | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const key = ["number", "id"].find((k) => Number.isInteger(v[k]));
  const title = ["title", "name"].find((k) => typeof v[k] === "string");
  if (key === undefined || title === undefined) return undefined;
  return { label: `#${v[key]} ${clip(v[title] as string, 60)}`, keys: [key, title] };
}
