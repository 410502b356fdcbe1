/**
 * host_context version 1: what an application tells the runtime about itself.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject, hostObject, type Report } from "./_keys.ts";
import { runSchema, type Wording } from "./_zod_result.ts";
import {
  type Attachment,
  attachmentSchema,
  legacyImageSchema,
  withLegacyScreenshots,
} from "./attachment.ts";
import { type HostAction, hostActionListSchema } from "./host_action.ts";
import { type HostInfo, hostInfoSchema } from "./host_info.ts";
import type { Result } from "./issues.ts";
import { checkHostContextLimits } from "./limits.ts";
import { type NavigationTarget, navigationTargetSchema } from "./navigation_target.ts";
import { HOST_CONTEXT_VERSION } from "./version.ts";
import { type View, viewSchema } from "./view.ts";

/**
 * A host context in canonical form: snake_case keys, `version: 1`, defaults filled in.
 *
 * Legacy `images`/`screenshot` have become screenshot entries of `attachments`.
 *
 * @example
 * ```ts
 * const context: HostContext = {
 *   version: 1,
 *   host: { name: "web-dashboard", kind: "browser" },
 *   view: { name: "tasks", data: { openBugs: 3 } },
 *   captured_at: "2026-09-05T10:00:00Z",
 * };
 * ```
 */
export interface HostContext {
  /** The contract version; always 1. */
  version: typeof HOST_CONTEXT_VERSION;
  /** Descriptive metadata about the application. */
  host?: HostInfo;
  /** What is on screen. */
  view?: View;
  /** Places the host can go. */
  navigation?: NavigationTarget[];
  /** Actions the host performs when the model calls them, for this turn. */
  actions?: HostAction[];
  /** Content attached to the context. */
  attachments?: Attachment[];
  /** Summaries of what is off screen, keyed by the host's own names. */
  background?: Record<string, Record<string, unknown>>;
  /** When the host captured the context, as an ISO 8601 date-time, shown as given. */
  captured_at?: string;
  /** Host-specific data the runtime does not interpret. */
  extensions?: Record<string, unknown>;
}

const version = z.literal(HOST_CONTEXT_VERSION, {
  error: (iss) =>
    `version ${
      JSON.stringify(iss.input)
    } is not supported; this runtime speaks host_context version 1, so send version 1 or leave it out.`,
});

const capturedAt = z.iso.datetime({
  offset: true,
  local: true,
  error:
    "captured_at must be an ISO 8601 date-time such as 2026-09-05T10:00:00Z; send the capture time in that form.",
});

// `page` is an alias of `view`; both at once would leave the screen ambiguous.
function pageAlias(value: Record<string, unknown>, report: Report): void {
  if (!Object.hasOwn(value, "page")) return;
  const page = value.page;
  delete value.page;
  if (page === null) return;
  if (value.view === undefined) value.view = page;
  else {report(
      ["page"],
      "page and view were both sent, but page is another name for view; send only view.",
    );}
}

const fields = contractObject({
  version: z.optional(version),
  host: z.optional(hostInfoSchema),
  view: z.optional(viewSchema),
  navigation: z.optional(z.array(navigationTargetSchema)),
  actions: z.optional(hostActionListSchema),
  attachments: z.optional(z.array(attachmentSchema)),
  images: z.optional(z.array(legacyImageSchema)),
  screenshot: z.optional(legacyImageSchema),
  background: z.optional(z.record(z.string(), hostObject())),
  captured_at: z.optional(capturedAt),
  extensions: z.optional(hostObject()),
}, { adjust: pageAlias });

/**
 * The zod schema of host_context: validates, normalises keys and checks the limits.
 *
 * Its issues carry zod's wording for some cases; {@linkcode parseHostContext} words them all.
 *
 * @example
 * ```ts
 * const parsed = hostContextSchema.safeParse({ page: { name: "orders" } });
 * // parsed.data is { version: 1, view: { name: "orders" } }
 * ```
 */
export const hostContextSchema: z.ZodMiniType<HostContext, unknown> = z.pipe(
  fields,
  z.transform((value, ctx) => {
    const { version: _version, images, screenshot, ...rest } = value;
    const context: HostContext = { version: HOST_CONTEXT_VERSION, ...rest };
    const attachments = withLegacyScreenshots(rest.attachments, images, screenshot);
    if (attachments) context.attachments = attachments;
    for (const issue of checkHostContextLimits(context)) {
      const path = issue.path === "" ? [] : issue.path.split(".");
      ctx.issues.push({ code: "custom", message: issue.message, input: value, path });
    }
    return context;
  }),
);

const WORDING: Wording = { root: "host_context", subject: "host_context" };

/**
 * Validates a host context and returns its canonical snake_case form; never throws.
 *
 * @example
 * ```ts
 * const result = parseHostContext({ view: { name: "tasks" }, capturedAt: "2026-09-05T10:00:00Z" });
 * if (result.ok) result.value.captured_at; // "2026-09-05T10:00:00Z"
 * else console.error(formatIssues(result.issues, "host_context"));
 * ```
 */
export function parseHostContext(input: unknown): Result<HostContext> {
  return runSchema(hostContextSchema, input, WORDING);
}
