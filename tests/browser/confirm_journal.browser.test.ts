/**
 * A host action that asks the user first, in Chromium against the real
 * runtime (offline model): while the question is open the journal says
 * `confirming` (nothing ran, a reload asks again), `started` only once the
 * handler runs; a decline sends the SDK's own sentence as `failed` and the
 * state shows the call as cancelled, also after a reload.
 */
import {
  type ActionContext,
  type HostState,
  indexedDbJournal,
  type Journal,
  runAction,
} from "../../client/mod.ts";
import { deepEqual, equal, ok } from "./_assert.ts";
import { hostOpener } from "./_hosts.ts";
import { freshSession, runtimeUrls, sessionMessages, waitFor } from "./_runtime.ts";

const { open, closeAll } = hostOpener();
afterEach(closeAll);

const createIssue = {
  description: "File a new issue.",
  parameters: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
};
const statuses = (s: HostState) =>
  s.messages.flatMap((m) => m.toolCalls.map((c) => [c.toolName, c.status, !!c.declined]));

describe("runAction with a confirmation", () => {
  const call = { call_id: "c1", tool_name: "create_issue", arguments: { title: "x" } };

  it("declined: the handler never runs and the outcome says the user cancelled", async () => {
    let ran = false;
    let started = false;
    const outcome = await runAction(
      {
        name: "create_issue",
        ...createIssue,
        confirm: () => Promise.resolve(false),
        handler: () => (ran = true),
      },
      call,
      { started: () => void (started = true) },
    );
    deepEqual(outcome, {
      outcome: "declined",
      result: "The user cancelled create_issue; nothing was changed.",
    });
    ok(!ran && !started, "nothing started");
  });

  it("applied: started is recorded before the handler runs, after the question", async () => {
    const order: string[] = [];
    const outcome = await runAction(
      {
        name: "create_issue",
        ...createIssue,
        confirm: (
          _args: Record<string, unknown>,
          _c: ActionContext,
        ) => (order.push("asked"), Promise.resolve(true)),
        handler: () => (order.push("ran"), { created: 1 }),
      },
      call,
      { started: () => void order.push("started") },
    );
    equal(outcome.outcome, "success");
    deepEqual(order, ["asked", "started", "ran"]);
  });
});

describe("a host action with a confirmation, on the runtime", () => {
  let journal: Journal;
  beforeEach(() => (journal = indexedDbJournal({ name: `tether-confirm-${crypto.randomUUID()}` })));

  it("is journaled as confirming until Apply, then started, then settled", async () => {
    const { proxied } = await runtimeUrls();
    const host = open({ runtimeUrl: proxied, sessionId: freshSession("confirming"), journal });
    let answer!: (applied: boolean) => void;
    const seen: string[] = [];
    host.action("create_issue", {
      ...createIssue,
      confirm: () => new Promise<boolean>((resolve) => (answer = resolve)),
    }, async () => {
      seen.push((await journal.list(host.sessionId))[0].state);
      return { created: 68 };
    });
    const sent = host.send(`create issue "Dark mode"`);
    await waitFor(() => answer, 10_000, "the question");
    const [asking] = await journal.list(host.sessionId);
    equal(asking.state, "confirming", "nothing ran: a reload would ask again");
    deepEqual(statuses(host.state.get()), [["create_issue", "pending", false]]);
    equal(host.state.get().messages.at(-1)!.toolCalls[0].waitingFor, "confirmation");
    answer(true);
    await sent;
    deepEqual(seen, ["started"], "the handler ran with the call recorded as started");
    equal((await journal.list(host.sessionId))[0].state, "settled");
  });

  it("a decline is recorded as failed with the SDK's sentence and shown as cancelled, also after a reload", async () => {
    const { proxied } = await runtimeUrls();
    const sessionId = freshSession("declined");
    const host = open({ runtimeUrl: proxied, sessionId, journal });
    let ran = false;
    host.action("create_issue", { ...createIssue, confirm: () => Promise.resolve(false) }, () => {
      ran = true;
    });
    await host.send(`create issue "Dark mode"`);
    ok(!ran, "the handler never ran");
    deepEqual(statuses(host.state.get()), [["create_issue", "cancelled", true]]);
    const stored = await sessionMessages(proxied, sessionId);
    equal(stored[1].tool_calls[0].status, "failed", "the wire has success and failed only");
    host.close();

    const again = open({ runtimeUrl: proxied, sessionId, journal });
    await again.connect();
    deepEqual(statuses(again.state.get()), [["create_issue", "cancelled", true]]);
  });
});
