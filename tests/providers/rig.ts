/**
 * A runtime wired to one of the local provider servers, as a deployment
 * would configure it (the provider's environment variables), for tests and
 * the bench. The page helpers build a tracker page of about 30,000
 * characters of `view.data`, near the contract's 32,000-character limit.
 *
 * @module
 */
import { type Harness, harness } from "../../server/testing/harness.ts";
import type { RuntimeOptions } from "../../server/config.ts";
import { optionsFromEnv } from "../../server/env.ts";
import type { Brain } from "./_brain.ts";
import type { ProviderServer, ProviderServerOptions, RecordedRequest } from "./_server.ts";
import { anthropicMessagesServer } from "./anthropic_messages.ts";
import { chatCompletionsServer } from "./chat_completions.ts";
import { openaiResponsesServer } from "./openai_responses.ts";

/** The three provider paths. */
export const PROVIDER_KINDS = ["openai", "anthropic", "chat"] as const;
/** One of them. */
export type ProviderKind = typeof PROVIDER_KINDS[number];

/** A runtime and the provider server behind it. */
export interface Rig {
  kind: ProviderKind;
  server: ProviderServer;
  h: Harness;
  /** Every log line the runtime wrote. */
  logs: string[];
  /** The environment the runtime was given (to start another runtime like it). */
  env: Record<string, string>;
  /** The requests the server answered, but for conversation titles (made beside the turn, in any order). */
  requests(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Whether a request is the runtime's background call for a conversation's title.
 *
 * @example
 * ```ts
 * server.requests.filter((r) => !isTitleRequest(r));
 * ```
 */
export function isTitleRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.body ?? null).includes("Write a short title");
}

/** The key every rig configures (the servers accept it). */
export const TEST_KEY = "sk-test-0123456789abcdef";

/**
 * Starts a provider server of `kind` and a runtime configured for it.
 *
 * @example
 * ```ts
 * const rig = await providerRig("anthropic", { brain });
 * const { body } = await rig.h.chat({ session_id: "s", content: "hi" });
 * ```
 */
export async function providerRig(
  kind: ProviderKind,
  server: ProviderServerOptions & { brain?: Brain; overflowInStream?: boolean } = {},
  runtime: Partial<RuntimeOptions> & { env?: Record<string, string> } = {},
): Promise<Rig> {
  const options = { apiKey: TEST_KEY, ...server };
  const started = kind === "openai"
    ? await openaiResponsesServer(options)
    : kind === "anthropic"
    ? await anthropicMessagesServer(options)
    : await chatCompletionsServer(options);
  const env: Record<string, string> = kind === "openai"
    ? { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: started.url }
    : kind === "anthropic"
    ? { ANTHROPIC_API_KEY: TEST_KEY, ANTHROPIC_BASE_URL: started.url }
    : { OPENAI_COMPATIBLE_API_KEY: TEST_KEY, MODEL__CONTEXT_TOKENS: "131072" };
  const model = kind === "openai"
    ? "openai:gpt-4o-mini"
    : kind === "anthropic"
    ? "anthropic:claude-sonnet-4-5"
    : `openai-compatible:${started.url}#llama3.2`;
  const logs: string[] = [];
  const all = { ...env, ...runtime.env, MODEL__DEFAULT: model };
  const h = harness({
    ...optionsFromEnv(all),
    ...runtime,
    env: all,
    warn: (line) => logs.push(line),
  });
  return {
    kind,
    server: started,
    h,
    logs,
    env: all,
    requests: () => started.requests.filter((r) => !isTitleRequest(r)),
    close: async () => {
      await h.close();
      await started.close();
      // Whatever a test did, no log line may carry the key.
      const leaked = logs.find((line) => line.includes(TEST_KEY));
      if (leaked) {
        throw new Error(
          `a log line carries the provider key: ${
            leaked.replaceAll(TEST_KEY, "<key>").slice(0, 300)
          }`,
        );
      }
    },
  };
}

const TITLES = [
  "Fix login",
  "Dark mode flickers",
  "Export fails on Safari",
  "Slow search",
  "Typo in footer",
];

/**
 * A tracker page with about `chars` characters of `view.data` (issue `changed` shows as closed),
 * and the actions `close_issue` (plus `archive_issue` when `extra`).
 *
 * @example
 * ```ts
 * const context = trackerPage({ changed: 3 });
 * ```
 */
export function trackerPage(
  options: { changed?: number; chars?: number; extra?: boolean } = {},
): Record<string, unknown> {
  const chars = options.chars ?? 30_000;
  const issues: Record<string, unknown>[] = [];
  for (let n = 1, length = 2; length < chars - 200; n++) {
    const issue = {
      number: n,
      title: `${TITLES[n % TITLES.length]} (${n})`,
      state: n === options.changed ? "closed" : "open",
      labels: n % 3 ? ["bug"] : ["ui", "feature"],
      assignee: ["alice", "bob", "dana"][n % 3],
    };
    issues.push(issue);
    length += JSON.stringify(issue).length + 1;
  }
  const actions = [{
    name: "close_issue",
    description: "Close an issue by its number.",
    parameters: {
      type: "object",
      properties: { number: { type: "integer" } },
      required: ["number"],
    },
  }];
  if (options.extra) {
    actions.push({
      name: "archive_issue",
      description: "Archive an issue by its number.",
      parameters: {
        type: "object",
        properties: { number: { type: "integer" } },
        required: ["number"],
      },
    });
  }
  return {
    version: 1,
    view: { name: "tracker", description: "The open issues.", data: { issues } },
    actions,
  };
}
