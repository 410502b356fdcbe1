import { memoryStore } from "../kv/memory.ts";
import { backendCases, CASE_POLICIES } from "./backend.case.ts";
import { localBackend } from "./local_backend.ts";
import { LocalPolicyEngine } from "./local_engine.ts";

backendCases("local backend", () => {
  const store = memoryStore();
  const engine = new LocalPolicyEngine({ store, policies: CASE_POLICIES, log: () => {} });
  return Promise.resolve({
    backend: localBackend(engine, "tether"),
    approve: async (id) => void (await engine.approvals.decide(id, "approve", "ops")),
    deny: async (id, reason) => void (await engine.approvals.decide(id, "deny", "ops", reason)),
    close: () => store.close(),
  });
});
