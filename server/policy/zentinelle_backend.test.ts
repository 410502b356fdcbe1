import { startNode } from "../runtime/node.ts";
import { backendCases, CASE_POLICIES } from "./backend.case.ts";
import { fakeZentinelle } from "./testing/fake_zentinelle.ts";
import { zentinelleBackend } from "./zentinelle_backend.ts";

const KEY = "sk_agent_test_key_0123456789";

// The client against Tether's own policy service, over HTTP on loopback.
backendCases("zentinelle backend against Tether's policy service", async () => {
  const rt = await startNode({
    port: 0,
    socketIo: false,
    env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline" },
    gate: { document: CASE_POLICIES, agentKeys: { [KEY]: "agent-a" } },
    warn: () => {},
  });
  const approvals = (await rt.app.engine()).policy!.local!.approvals;
  return {
    backend: zentinelleBackend({ url: rt.url, key: KEY, timeoutMs: 5_000 }),
    approve: async (id) => void (await approvals.decide(id, "approve", "ops")),
    deny: async (id, reason) => void (await approvals.decide(id, "deny", "ops", reason)),
    close: () => rt.close(),
  };
});

// The same client against the contract-faithful fake.
backendCases("zentinelle backend against the fake Zentinelle", async () => {
  const z = await fakeZentinelle();
  z.decisions = { Write: "deny", Bash: "ask" };
  return {
    backend: zentinelleBackend({ url: z.url, key: z.key, timeoutMs: 5_000 }),
    approve: (id) => Promise.resolve(z.approve(id)),
    deny: (id, reason) => Promise.resolve(z.deny(id, reason)),
    close: () => z.close(),
  };
});
