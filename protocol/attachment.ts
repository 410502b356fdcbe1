/**
 * Attachments: content a host or a message hands to the model, and the legacy
 * `images` / `screenshot` fields that become screenshot attachments.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject } from "./_keys.ts";
import { grouped, label } from "./_values.ts";
import { HOST_CONTEXT_LIMITS } from "./limits.ts";

const MAX_ATTACHMENT_CHARS = HOST_CONTEXT_LIMITS.attachment_chars;

/**
 * One attachment in canonical form; exactly one of `data_uri`, `url`, `text` is set.
 *
 * @example
 * ```ts
 * const receipt: Attachment = {
 *   kind: "image",
 *   purpose: "reference",
 *   name: "receipt",
 *   data_uri: "data:image/jpeg;base64,/9j/4AAQ",
 * };
 * ```
 */
export interface Attachment {
  /** What the content is: image (default), document or text. */
  kind: "image" | "document" | "text";
  /** reference (default) goes into the model's message; screenshot waits for look_at_screen. */
  purpose: "reference" | "screenshot";
  /** The content as a data URI. */
  data_uri?: string;
  /** The content by address. */
  url?: string;
  /** The content as plain text. */
  text?: string;
  /** Optional label. */
  name?: string;
  /** Optional label. */
  description?: string;
  /** Optional media type, such as "image/png". */
  media_type?: string;
}

// Only the head is inspected, so a 12 MB data URI costs no more than a short one.
const DATA_URI_HEAD = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[^,;]*)*,/;

/**
 * True when `value` starts like a data URI (`data:<type>;base64,`); `image` also requires an image type.
 *
 * @example
 * ```ts
 * isDataUri("data:image/png;base64,AA==", { image: true }); // true
 * isDataUri("https://example.com/a.png"); // false
 * ```
 */
export function isDataUri(value: string, options: { image?: boolean } = {}): boolean {
  if (options.image && !value.startsWith("data:image/")) return false;
  return DATA_URI_HEAD.test(value.slice(0, 512));
}

const tooLong = (field: string) =>
  `${field} is longer than ${
    grouped(MAX_ATTACHMENT_CHARS)
  } characters; send a smaller file or link it by url.`;
const content = (field: string) =>
  z.string().check(z.maxLength(MAX_ATTACHMENT_CHARS, { error: tooLong(field) }));

const CONTENTS = ["data_uri", "url", "text"] as const;

/**
 * The zod schema of one attachment; camelCase keys are accepted, defaults filled in.
 *
 * Use {@linkcode parseHostContext} or {@linkcode parseMessageBody} for worded issues.
 *
 * @example
 * ```ts
 * const ok = attachmentSchema.safeParse({ kind: "text", text: "line one" }).success; // true
 * ```
 */
export const attachmentSchema: z.ZodMiniType<Attachment, unknown> = z.pipe(
  contractObject({
    kind: z._default(z.enum(["image", "document", "text"]), "image"),
    purpose: z._default(z.enum(["reference", "screenshot"]), "reference"),
    data_uri: z.optional(
      content("data_uri").check(z.refine((v) => isDataUri(v), {
        error:
          "data_uri must be a data URI such as data:image/png;base64,...; encode the content or send it by url.",
      })),
    ),
    url: z.optional(content("url").check(z.minLength(1))),
    text: z.optional(content("text")),
    name: z.optional(z.string()),
    description: z.optional(z.string()),
    media_type: z.optional(z.string()),
  }),
  z.transform((value, ctx) => {
    const given = CONTENTS.filter((key) => value[key] !== undefined);
    if (given.length !== 1) {
      const sent = given.length === 0 ? "none was given" : `${given.join(" and ")} were given`;
      ctx.issues.push({
        code: "custom",
        input: value,
        path: [],
        message:
          `an attachment needs exactly one of data_uri, url or text, but ${sent}; send exactly one.`,
      });
    } else if (
      value.purpose === "screenshot" &&
      (value.kind !== "image" || !value.data_uri?.startsWith("data:image/"))
    ) {
      ctx.issues.push({
        code: "custom",
        input: value,
        path: [],
        message:
          "a screenshot attachment must be kind image with an image data URI (data:image/...) in data_uri; send it that way or use purpose reference.",
      });
    }
    return value;
  }),
);

/**
 * The zod schema of a legacy `images` entry or `screenshot` field: an image data URI.
 *
 * @example
 * ```ts
 * legacyImageSchema.safeParse("data:image/png;base64,AA==").success; // true
 * ```
 */
export const legacyImageSchema: z.ZodMiniType<string, unknown> = content("the image data URI")
  .check(
    z.refine((v) => isDataUri(v, { image: true }), {
      error: (iss) =>
        `${
          label(iss.path ?? [], "screenshot")
        } must be an image data URI (data:image/...); encode the image that way or use attachments.`,
    }),
  );

/**
 * Turns legacy `images` and `screenshot` into screenshot attachments after `attachments`.
 *
 * Returns `undefined` when there is nothing at all, so an absent field stays absent.
 *
 * @example
 * ```ts
 * const list = withLegacyScreenshots([], ["data:image/png;base64,AA=="], undefined);
 * // [{ kind: "image", purpose: "screenshot", data_uri: "data:image/png;base64,AA==" }]
 * ```
 */
export function withLegacyScreenshots(
  attachments: Attachment[] | undefined,
  images: readonly string[] | undefined,
  screenshot: string | undefined,
): Attachment[] | undefined {
  if (!images?.length && screenshot === undefined) return attachments;
  const out = attachments ? [...attachments] : [];
  const legacy = screenshot === undefined ? images ?? [] : [...(images ?? []), screenshot];
  for (const data_uri of legacy) out.push({ kind: "image", purpose: "screenshot", data_uri });
  return out;
}
