/**
 * A real runtime for the browser tests: the offline model, a memory store
 * (or the Deno KV file in STORE__URL), on loopback. With `STALL_PHRASE` set,
 * a turn whose last user message holds that phrase streams its first words,
 * then never gets the rest of its model's answer: it runs until the process
 * ends (a test kills it there). Prints
 * `TETHER_RUNTIME_URL=<url>` once it listens; exits when its stdin closes
 * (so it never outlives the test run that spawned it) or on SIGTERM.
 *
 * Run: `node --import tsx tests/browser/runtime.ts` (PORT=0 picks a free port).
 *
 * @module
 */
import process from "node:process";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { offlineModel } from "../../server/model/mod.ts";
import { startNode } from "../../server/runtime/node.ts";

/**
 * The offline model, stalled on `phrase`: such a turn streams the first words of its answer
 * (`STALLED_WORDS`), then waits for the rest, which never comes.
 */
function stalled(phrase: string): LanguageModelV3 {
  const model = offlineModel();
  return {
    ...model,
    doStream: async (options) => {
      const last = options.prompt.findLast((m) => m.role === "user");
      if (!JSON.stringify(last?.content ?? "").includes(phrase)) {
        return await model.doStream(options);
      }
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: STALLED_WORDS });
          },
        }),
      };
    },
  };
}

/** What a stalled turn says before it stalls. */
const STALLED_WORDS = "Let me think this over";

const stall = process.env.STALL_PHRASE;
const runtime = await startNode({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  env: {
    STORE__URL: process.env.STORE__URL ?? "memory:",
    MODEL__DEFAULT: "offline",
    ...(process.env.LIMITS__LEASE_TTL_MS
      ? { LIMITS__LEASE_TTL_MS: process.env.LIMITS__LEASE_TTL_MS }
      : {}),
  },
  ...(stall ? { model: stalled(stall), modelName: "offline" } : {}),
});
console.log(`TETHER_RUNTIME_URL=${runtime.url}`);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await Promise.race([runtime.close(), new Promise((resolve) => setTimeout(resolve, 3_000))]);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
