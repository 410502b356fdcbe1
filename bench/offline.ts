/**
 * The offline model's planner against the demo's own context: p50/p99 of one
 * model call (`doGenerate`, the whole plan: reading the prompt and the
 * context, naming or weighing every action, completing item numbers) for the
 * short requests people type, and for messages of growing length, which
 * shows the work stays bounded (the planner reads a 4,096-character prefix),
 * also when every word is one it looks up among the items.
 *
 * @module
 */
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { offlineModel } from "../server/model/offline.ts";
import { block, tools } from "../tests/_demo_context.ts";
import { ms, percentile, table, timeIt } from "./_stats.ts";

const REQUESTS = [
  "close 42",
  "open the issue about login",
  "show me the issues assigned to alice",
  "give the saved filters issue to chen",
  "what is on screen?",
  "help",
  `create issue "Dark mode flickers" label ui`,
  "make me a sandwich",
];

// The AI SDK's function tools, as generateText hands them to the model.
const offered = Object.entries(tools).map(([name, t]) => ({
  type: "function" as const,
  name,
  description: t.description,
  inputSchema: (t.inputSchema as { jsonSchema: Record<string, unknown> }).jsonSchema,
}));

const options = (text: string): LanguageModelV3CallOptions => ({
  prompt: [{ role: "user", content: [{ type: "text", text: block + "\n\n" + text }] }],
  tools: offered as LanguageModelV3CallOptions["tools"],
});

/**
 * Prints the offline planner's figures.
 *
 * @example
 * ```ts
 * await benchOffline(); // npm run bench -- offline
 * ```
 */
export async function benchOffline(): Promise<void> {
  const model = offlineModel();
  console.log(
    `\n## Offline model: one planning call on the demo's context (${offered.length} actions)\n`,
  );
  const rows: (string | number)[][] = [];
  const short = REQUESTS.map(options);
  const times = await timeIt(
    4_000,
    async (i) => await model.doGenerate(short[Math.abs(i) % short.length]),
  );
  rows.push([
    `short requests (${REQUESTS.length} in rotation)`,
    ms(percentile(times, 50)),
    ms(percentile(times, 99)),
  ]);
  for (const chars of [1_000, 100_000, 1_000_000]) {
    const long = options(
      ("close issue 42 and then " + "some words ".repeat(chars / 11)).slice(0, chars),
    );
    const t = await timeIt(200, async () => await model.doGenerate(long), 20);
    rows.push([
      `a ${chars.toLocaleString("en")}-character message`,
      ms(percentile(t, 50)),
      ms(percentile(t, 99)),
    ]);
  }
  // Every word one the planner looks up among the items: ordinals, facts, a count.
  const wordy = options(
    ("how many first bug oldest docs second alice ui issue ".repeat(2_000)).slice(0, 100_000),
  );
  const t = await timeIt(200, async () => await model.doGenerate(wordy), 20);
  rows.push([
    "100,000 characters of ordinals and facts",
    ms(percentile(t, 50)),
    ms(percentile(t, 99)),
  ]);
  table(["input", "p50", "p99"], rows);
}
