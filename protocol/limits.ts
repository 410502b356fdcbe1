/**
 * The size limits of a host context, checkable before sending.
 *
 * This file builds no zod schema, so a browser bundle that only checks limits
 * stays free of zod.
 *
 * @module
 */
import { grouped } from "./_values.ts";
import type { HostContext } from "./host_context.ts";
import type { Issue } from "./issues.ts";

/**
 * The limits of host context version 1.
 *
 * @example
 * ```ts
 * if (targets.length > HOST_CONTEXT_LIMITS.navigation) targets.length = HOST_CONTEXT_LIMITS.navigation;
 * ```
 */
export const HOST_CONTEXT_LIMITS = {
  /** Characters of JSON in view.data, view.state and extensions together. */
  json_chars: 32_000,
  /** Navigation targets. */
  navigation: 50,
  /** Actions. */
  actions: 32,
  /** Attachments, legacy screenshots included. */
  attachments: 16,
  /** Characters in one attachment's data_uri, url or text. */
  attachment_chars: 12_000_000,
} as const;

function jsonChars(value: unknown): number {
  return value === undefined ? 0 : (JSON.stringify(value) ?? "").length;
}

/**
 * Measures view.data, view.state and extensions as compact JSON, in characters.
 *
 * Throws what `JSON.stringify` throws (a cycle, a BigInt).
 *
 * @example
 * ```ts
 * hostContextJsonChars({ version: 1, extensions: { tenant: "acme" } }); // 17
 * ```
 */
export function hostContextJsonChars(context: HostContext): number {
  return jsonChars(context.view?.data) + jsonChars(context.view?.state) +
    jsonChars(context.extensions);
}

function counted(
  list: readonly unknown[] | undefined,
  path: string,
  max: number,
  what: string,
  advice: string,
): Issue[] {
  if (!list || list.length <= max) return [];
  return [{
    path,
    message: `${path} has ${list.length} ${what}, over the limit of ${max}; ${advice}.`,
  }];
}

/**
 * Checks the limits of a host context already in canonical form; an empty list means within limits.
 *
 * {@linkcode parseHostContext} runs this too; the SDK can call it to trim before sending.
 *
 * @example
 * ```ts
 * const issues = checkHostContextLimits({ version: 1, view: { name: "x", data: big } });
 * if (issues.length) console.warn(formatIssues(issues, "host_context"));
 * ```
 */
export function checkHostContextLimits(context: HostContext): Issue[] {
  const issues = [
    ...counted(
      context.navigation,
      "navigation",
      HOST_CONTEXT_LIMITS.navigation,
      "targets",
      "keep the ones that matter most",
    ),
    ...counted(
      context.actions,
      "actions",
      HOST_CONTEXT_LIMITS.actions,
      "actions",
      "offer only those that fit this view",
    ),
    ...counted(
      context.attachments,
      "attachments",
      HOST_CONTEXT_LIMITS.attachments,
      "attachments (legacy screenshots included)",
      "attach fewer",
    ),
  ];
  context.attachments?.forEach((attachment, index) => {
    for (const key of ["data_uri", "url", "text"] as const) {
      if ((attachment[key]?.length ?? 0) > HOST_CONTEXT_LIMITS.attachment_chars) {
        issues.push({
          path: `attachments.${index}.${key}`,
          message: `${key} is longer than ${
            grouped(HOST_CONTEXT_LIMITS.attachment_chars)
          } characters; send a smaller file or link it by url.`,
        });
      }
    }
  });
  const parts = {
    "view.data": context.view?.data,
    "view.state": context.view?.state,
    extensions: context.extensions,
  };
  let total = 0;
  let largest = "view.data";
  let largestChars = -1;
  for (const [path, value] of Object.entries(parts)) {
    let chars: number;
    try {
      chars = jsonChars(value);
    } catch {
      issues.push({
        path,
        message: `${path} must be plain JSON (no cycles, no BigInt); remove what JSON cannot hold.`,
      });
      continue;
    }
    total += chars;
    if (chars > largestChars) [largest, largestChars] = [path, chars];
  }
  if (total > HOST_CONTEXT_LIMITS.json_chars) {
    issues.push({
      path: largest,
      message: `view.data, view.state and extensions together take ${
        grouped(total)
      } characters of JSON, over the limit of ${
        grouped(HOST_CONTEXT_LIMITS.json_chars)
      }; send only what the model needs.`,
    });
  }
  return issues;
}
