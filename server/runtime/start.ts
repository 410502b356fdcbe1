/**
 * `npm start`: the runtime and the demo on http://127.0.0.1:7100 with the
 * embedded defaults (Deno KV file store under .tether/, the offline model).
 *
 * @module
 */
import { startNode } from "./node.ts";

const started = await startNode();
const engine = await started.app.engine();
console.log(`tether: listening on ${started.url} (model ${engine.model.name}, store ${engine.store.name})`);
import process from "node:process";
const stop = async () => {
  await started.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
