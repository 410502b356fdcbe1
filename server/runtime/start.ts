/**
 * `npm start`: the runtime and the demo on http://127.0.0.1:7100 with the
 * embedded defaults (Deno KV file store under .tether/, the offline model),
 * run as built JavaScript (`node dist/server/runtime/start.js`).
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { startNode } from "./node.ts";
import { log } from "../log.ts";

// `npm start` runs this file built (dist/); scripts/prestart.mjs builds it and the demo when
// their sources changed. Without a built demo the runtime starts alone.
const demo = join(process.cwd(), "demo", "dist");
const staticRoot = existsSync(join(demo, "index.html")) ? demo : undefined;
if (!staticRoot) log.warn("the demo is not built (npm run build:demo); serving the runtime only");
// An operator needs the admin token to decide approvals; one is made when none is configured.
const env = { ...process.env } as Record<string, string | undefined>;
const madeToken = !env.ACCESS__ADMIN_TOKEN &&
  (env.ACCESS__MODE ?? "trusted_local") === "trusted_local";
if (madeToken) {
  env.ACCESS__ADMIN_TOKEN = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))
    .replace(/\+/g, "-").replace(/\//g, "_");
}
const started = await startNode({ staticRoot, env });
const engine = await started.app.engine();
log.info("tether: listening", {
  url: started.url,
  model: engine.model.name,
  store: engine.store.name,
  ...(staticRoot ? { demo: `${started.url}/` } : {}),
});
if (madeToken && staticRoot) {
  // Printed straight to the terminal, never through the logger: the token sits in the URL's fragment only.
  console.log(
    `tether: approve held calls at ${started.url}/operator.html#token=${env.ACCESS__ADMIN_TOKEN}`,
  );
}
const stop = async () => {
  await started.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
