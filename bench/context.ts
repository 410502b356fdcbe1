/**
 * Long conversations against the local provider servers (`tests/providers/`):
 * for each provider path, the input tokens of every request of a 50-turn
 * session on a page of about 30,000 characters of `view.data` (one host
 * action a turn, the page changing with it), as the server counts them, and
 * how much of each request its prompt cache served; then the cached share of
 * a turn's first request when the page stays the same, when its data
 * changes, and when it gains an action, with the tool roster and without it
 * (`MODEL__STABLE_TOOLS=false`, each page's actions sent as they are).
 *
 * @module
 */
import type { RecordedRequest } from "../tests/providers/mod.ts";
import { PROVIDER_KINDS, providerRig, type Rig, trackerPage } from "../tests/providers/rig.ts";
import { table } from "./_stats.ts";

const TURNS = 50;

/** Cached input tokens of a request, in each provider's own usage fields. */
function cachedOf(r: RecordedRequest): number {
  const u = r.usage ?? {};
  return u.input_tokens_details?.cached_tokens ?? u.cache_read_input_tokens ??
    u.prompt_tokens_details?.cached_tokens ?? 0;
}

const pct = (part: number, whole: number) => `${whole ? Math.round((100 * part) / whole) : 0}%`;
const thousands = (n: number) => n.toLocaleString("en-US");

/** Requests of turns (the summary requests carry no tools). */
const turnRequests = (rig: Rig) => rig.requests().filter((r) => r.body?.tools?.length);

async function turn(
  rig: Rig,
  session: string,
  n: number,
  context: Record<string, unknown>,
  after: Record<string, unknown>,
) {
  const ask = await rig.h.chat({
    session_id: session,
    content: `@call close_issue {"number": ${n}}`,
    host_context: context,
  });
  const call = ask.body.pending_tool_call;
  if (!call) throw new Error(`turn ${n}: ${ask.body.error ?? "no call"}`);
  const done = await rig.h.chat({
    session_id: session,
    content: "",
    tool_call_id: call.call_id,
    tool_result: { closed: n },
    host_context: after,
  });
  if (done.body.error) throw new Error(`turn ${n}: ${done.body.error}`);
}

async function longSession(kind: typeof PROVIDER_KINDS[number]): Promise<void> {
  const rig = await providerRig(kind);
  try {
    const perTurn: number[][] = [];
    for (let n = 1; n <= TURNS; n++) {
      const before = turnRequests(rig).length;
      await turn(rig, "long", n, trackerPage({ changed: n - 1 }), trackerPage({ changed: n }));
      perTurn.push(turnRequests(rig).slice(before).map((r) => r.inputTokens ?? 0));
    }
    const requests = turnRequests(rig);
    const compactions = rig.logs.filter((l) => l.includes("history compacted")).length;
    console.log(
      `\n### ${kind}: ${requests.length} requests over ${TURNS} turns, ${compactions} compactions\n`,
    );
    const rows: (string | number)[][] = [];
    let i = 0;
    for (let decade = 0; decade < TURNS / 10; decade++) {
      const tokens: string[] = [];
      let cached = 0;
      let input = 0;
      let max = 0;
      for (let t = decade * 10; t < decade * 10 + 10; t++) {
        tokens.push(perTurn[t].map(thousands).join("+"));
        for (const _ of perTurn[t]) {
          const r = requests[i++];
          cached += cachedOf(r);
          input += r.inputTokens ?? 0;
          max = Math.max(max, r.inputTokens ?? 0);
        }
      }
      rows.push([
        `${decade * 10 + 1}–${decade * 10 + 10}`,
        tokens.join(" "),
        thousands(max),
        pct(cached, input),
      ]);
    }
    table([
      "turns",
      "input tokens of each request (user message + after the result)",
      "largest",
      "served from cache",
    ], rows);
  } finally {
    await rig.close();
  }
}

/** The cached share of the first request of a turn whose page is `next`, after five turns on `page`. */
async function cachedShare(
  kind: typeof PROVIDER_KINDS[number],
  next: Record<string, unknown>,
  stableTools: boolean,
): Promise<string> {
  const env: Record<string, string> = stableTools ? {} : { MODEL__STABLE_TOOLS: "false" };
  const rig = await providerRig(kind, {}, { env });
  try {
    const page = trackerPage({ changed: 0 });
    for (let n = 1; n <= 5; n++) await turn(rig, "share", n, page, page);
    const before = turnRequests(rig).length;
    await rig.h.chat({ session_id: "share", content: "and now?", host_context: next });
    const r = turnRequests(rig)[before];
    return `${pct(cachedOf(r), r.inputTokens ?? 0)} of ${thousands(r.inputTokens ?? 0)}`;
  } finally {
    await rig.close();
  }
}

/**
 * Prints the long-conversation figures.
 *
 * @example
 * ```ts
 * await benchContext(); // npm run bench -- context
 * ```
 */
export async function benchContext(): Promise<void> {
  console.log(
    `\n## Long conversations: ${TURNS} turns on a 30,000-character page, per provider (tokens as the local servers count them: a quarter of the UTF-8 bytes)\n`,
  );
  for (const kind of PROVIDER_KINDS) await longSession(kind);
  console.log("\n### Cached share of a turn's first request, after five turns on one page\n");
  const rows: (string | number)[][] = [];
  for (const kind of PROVIDER_KINDS) {
    rows.push([
      kind,
      await cachedShare(kind, trackerPage({ changed: 0 }), true),
      await cachedShare(kind, trackerPage({ changed: 9 }), true),
      await cachedShare(kind, trackerPage({ changed: 0, extra: true }), true),
      await cachedShare(kind, trackerPage({ changed: 0, extra: true }), false),
    ]);
  }
  table(
    ["provider", "same page", "data changed", "an action added", "an action added, no roster"],
    rows,
  );
}
