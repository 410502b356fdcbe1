import { startNode } from "./server/runtime/node.ts"; import { memoryStore } from "./server/kv/memory.ts"; const s = await startNode({ port: 0, env: {}, store: memoryStore() }); await s.close();
