import { memoryStore } from "./memory.ts";
import { runStoreContract } from "./store.case.ts";

runStoreContract("memory", { open: () => Promise.resolve(memoryStore()) });
