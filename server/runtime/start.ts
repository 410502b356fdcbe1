/**
 * `npm start`: the runtime and the demo on http://127.0.0.1:7100 with the
 * embedded defaults (Deno KV file store under .tether/, the offline model).
 *
 * @module
 */
import { startNode } from "./node.ts";
import { log } from "../log.ts";

// The demo is built fresh on every start; without esbuild (a production install) the runtime starts alone.
const staticRoot = await import("../../scripts/build-demo.ts").then((m) => m.buildDemo()).catch(
  (error) => {
    log.warn("the demo was not built; serving the runtime only", {
      error: (error as Error).message,
    });
    return undefined;
  },
);
const started = await startNode({ staticRoot });
const engine = await started.app.engine();
log.info("tether: listening", {
  url: started.url,
  model: engine.model.name,
  store: engine.store.name,
  ...(staticRoot ? { demo: `${started.url}/` } : {}),
});
import process from "node:process";
const stop = async () => {
  await started.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
