/**
 * Models from AI SDK 7's provider packages (`@ai-sdk/openai` 4.x,
 * `@ai-sdk/anthropic` 4.x, ...) on Tether's AI SDK 6: they speak the
 * provider specification `v4`, which `ai` 6 refuses, so `asLanguageModelV3()`
 * wraps one in a `v3` model that converts each request down and each answer
 * up. The two versions differ in how file data is held (v4 tags it
 * `{ type: "data" | "url" | "reference" | "text" }`, v3 holds it bare), in a
 * tool result's content parts (v4's one `file` part for v3's `file-data`,
 * `image-data`, `file-url`, ...), and in a few parts v3 has no word for
 * (v4's `custom` and `reasoning-file` parts, dropped, as a v3 provider never
 * sends them; `deprecated` warnings, passed on as `other`). Everything else
 * Tether sends or reads is the same in both. A specification version that is
 * neither v2, v3 nor v4 is refused, saying which packages fit.
 *
 * The v4 types are written here by the fields this file reads, so the runtime
 * depends on `@ai-sdk/provider` 3 only (docs/architecture.md, "AI SDK 7").
 *
 * @module
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  SharedV3Warning,
} from "@ai-sdk/provider";

/**
 * A model of AI SDK 7's provider specification (`LanguageModelV4` of `@ai-sdk/provider` 4.x),
 * by the members Tether calls.
 *
 * @example
 * ```ts
 * import { createOpenAI } from "@ai-sdk/openai"; // 4.x, from AI SDK 7
 * const model: LanguageModelV4Like = createOpenAI({ apiKey })("gpt-4o-mini");
 * ```
 */
export interface LanguageModelV4Like {
  readonly specificationVersion: "v4";
  readonly provider: string;
  readonly modelId: string;
  supportedUrls: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  doGenerate(options: unknown): PromiseLike<unknown>;
  doStream(options: unknown): PromiseLike<{ stream: ReadableStream<unknown> } & object>;
}

/**
 * A model object as a runtime's options take it: AI SDK 6's providers (`v3`) or AI SDK 7's (`v4`).
 *
 * @example
 * ```ts
 * const model: ModelObject = offlineModel();
 * ```
 */
export type ModelObject = LanguageModelV3 | LanguageModelV4Like;

/** The error for a model of a specification this runtime cannot speak. */
export class UnsupportedModelError extends Error {
  override name = "UnsupportedModelError";
}

/**
 * The model as AI SDK 6 takes it: a v3 (or v2) model as it is, a v4 one wrapped; anything else
 * refused with an error that says which provider packages fit.
 *
 * @example
 * ```ts
 * import { createAnthropic } from "@ai-sdk/anthropic"; // 4.x, from AI SDK 7
 * const model = asLanguageModelV3(createAnthropic({ apiKey })("claude-sonnet-4-5"));
 * model.specificationVersion; // "v3"
 * ```
 */
export function asLanguageModelV3(model: ModelObject): LanguageModelV3 {
  const version = (model as { specificationVersion?: unknown }).specificationVersion;
  if (version === "v3" || version === "v2") return model as LanguageModelV3;
  if (version !== "v4") {
    throw new UnsupportedModelError(
      `The model object speaks provider specification ${
        JSON.stringify(version ?? null)
      }; Tether takes models of AI SDK 6's provider packages (v3, e.g. @ai-sdk/openai 3.x) or AI SDK 7's (v4, @ai-sdk/openai 4.x): pass one of those, or a model spec string such as "openai:gpt-4o-mini".`,
    );
  }
  const v4 = model as LanguageModelV4Like;
  return {
    specificationVersion: "v3",
    get provider() {
      return v4.provider;
    },
    get modelId() {
      return v4.modelId;
    },
    get supportedUrls() {
      return v4.supportedUrls;
    },
    doGenerate: async (options) => {
      const result = await v4.doGenerate(downOptions(options)) as Record<string, unknown>;
      return {
        ...result,
        content: upContent(result.content as Record<string, unknown>[]),
        warnings: upWarnings(result.warnings),
      } as LanguageModelV3GenerateResult;
    },
    doStream: async (options) => {
      const result = await v4.doStream(downOptions(options));
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<unknown, LanguageModelV3StreamPart>({
            transform(part, controller) {
              const up = upPart(part as Record<string, unknown>);
              if (up) controller.enqueue(up);
            },
          }),
        ),
      };
    },
  };
}

type Part = Record<string, unknown>;

/** v3 file data (bytes, base64 text or a URL) as v4 tags it. */
function fileData(data: unknown): Part {
  if (data instanceof URL) return { type: "url", url: data };
  return { type: "data", data };
}

function downOptions(options: LanguageModelV3CallOptions): unknown {
  return { ...options, prompt: downPrompt(options.prompt) };
}

function downPrompt(prompt: LanguageModelV3Prompt): unknown[] {
  return prompt.map((message) => {
    if (typeof message.content === "string") return message;
    return {
      ...message,
      content: (message.content as unknown as Part[]).map((part) => {
        if (part.type === "file") return { ...part, data: fileData(part.data) };
        if (part.type === "tool-result") {
          return { ...part, output: downOutput(part.output as LanguageModelV3ToolResultOutput) };
        }
        return part;
      }),
    };
  });
}

function downOutput(output: LanguageModelV3ToolResultOutput): unknown {
  if (output.type !== "content") return output;
  return {
    ...output,
    value: output.value.map((item) => {
      const { type, providerOptions } = item;
      switch (type) {
        case "text":
        case "custom":
          return item;
        case "file-data":
        case "image-data":
          return {
            type: "file",
            data: { type: "data", data: item.data },
            mediaType: item.mediaType,
            ...("filename" in item && item.filename ? { filename: item.filename } : {}),
            ...(providerOptions ? { providerOptions } : {}),
          };
        case "file-url":
        case "image-url":
          return {
            type: "file",
            data: { type: "url", url: new URL(item.url) },
            mediaType: type === "image-url" ? "image/*" : "application/octet-stream",
            ...(providerOptions ? { providerOptions } : {}),
          };
        default:
          // A provider file id names a file in one provider's storage; Tether never sends one.
          throw new UnsupportedModelError(
            `A tool result's ${type} part cannot be sent to an AI SDK 7 model; send the file's data instead.`,
          );
      }
    }),
  };
}

/** A v4 file's data as v3 holds it (bytes or base64); undefined for a URL, which v3 cannot hold. */
function upData(data: Part): unknown {
  return data?.type === "data" ? data.data : undefined;
}

function upPart(part: Part): LanguageModelV3StreamPart | undefined {
  switch (part.type) {
    case "custom":
    case "reasoning-file":
      return undefined;
    case "file": {
      const data = upData(part.data as Part);
      return data === undefined
        ? undefined
        : { ...part, data } as unknown as LanguageModelV3StreamPart;
    }
    case "stream-start":
      return { type: "stream-start", warnings: upWarnings(part.warnings) };
    default:
      return part as unknown as LanguageModelV3StreamPart;
  }
}

function upContent(content: Part[] | undefined): LanguageModelV3Content[] {
  return (content ?? []).flatMap((part) => {
    const up = upPart(part);
    return up ? [up as unknown as LanguageModelV3Content] : [];
  });
}

function upWarnings(warnings: unknown): SharedV3Warning[] {
  return ((warnings ?? []) as Part[]).map((w) =>
    w.type === "unsupported" || w.type === "compatibility" || w.type === "other"
      ? w as unknown as SharedV3Warning
      : { type: "other", message: String(w.message ?? w.feature ?? w.type) }
  );
}
