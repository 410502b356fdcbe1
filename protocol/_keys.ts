/**
 * Key spellings for the contract's own objects: snake_case is canonical,
 * camelCase is accepted. The host's own objects (view.data, view.state,
 * background, extensions, action parameters) never pass through here, so
 * their keys stay verbatim.
 *
 * @module
 */
import * as z from "zod/mini";
import { isObject } from "./_values.ts";

/** A raw issue as zod transforms and refinements accept it. */
export interface RawIssue {
  code: "custom";
  message: string;
  input: unknown;
  path: PropertyKey[];
}

/** Reports an issue at a path relative to the object being normalised. */
export type Report = (path: PropertyKey[], message: string) => void;

/** Options for {@linkcode contractObject}. */
export interface ContractOptions {
  /** Runs on the normalised keys before the strict check (aliases, legacy fields). */
  readonly adjust?: (value: Record<string, unknown>, report: Report) => void;
}

/** "data_uri" to "dataUri". */
export function camelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

// JSON.parse makes "__proto__" an own key; plain assignment would change the prototype.
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

/**
 * A strict zod object whose input keys may be camelCase or snake_case.
 *
 * Only keys of `shape` are renamed, so an unknown key is reported under the
 * spelling the client sent. One field sent under both spellings is an issue
 * at its snake_case path.
 */
export function contractObject<S extends z.core.$ZodLooseShape>(
  shape: S,
  options: ContractOptions = {},
) {
  const spellings = new Map<string, string>();
  for (const key of Object.keys(shape)) {
    spellings.set(key, key);
    spellings.set(camelCase(key), key);
  }
  const normalise = z.transform((input: unknown, ctx) => {
    if (!isObject(input)) return input;
    const out: Record<string, unknown> = {};
    const sentAs = new Map<string, string>();
    const report: Report = (path, message) => {
      ctx.issues.push({ code: "custom", message, input, path } satisfies RawIssue);
    };
    for (const key of Object.keys(input)) {
      const value = input[key];
      const canonical = spellings.get(key);
      if (canonical === undefined) {
        put(out, key, value);
        continue;
      }
      // null reads as "not given", as the Python runtime's optional fields read it.
      if (value === null) continue;
      const earlier = sentAs.get(canonical);
      if (earlier !== undefined) {
        report(
          [canonical],
          `${canonical} was sent twice, as ${earlier} and as ${key}; send it under one spelling only.`,
        );
        continue;
      }
      sentAs.set(canonical, key);
      put(out, canonical, value);
    }
    options.adjust?.(out, report);
    return out;
  });
  // The transform's output is unknown to the type system; the strict object checks it.
  return z.pipe(normalise as z.ZodMiniType<unknown, unknown>, z.strictObject(shape));
}

/** A host-owned JSON object, passed through verbatim (same reference, keys untouched). */
export function hostObject() {
  return z.custom<Record<string, unknown>>(isObject, { params: { expected: "object" } });
}
