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
import { pathToFileURL } from "node:url";
import { log } from "../log.ts";
import type { Engine } from "../engine.ts";

/** Starts the demo's milestones tool server and registers it for the local workspace. */
async function startDemoTools(file: string, url: string, engine: Engine) {
  const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))));
  const demo = await import(pathToFileURL(file).href);
  const host = await demo.startDemoTools(secret, url);
  await engine.remote.integrations.add({
    id: "demo-milestones",
    provider: "generic-rest",
    workspace_id: engine.options.remoteTools.workspace,
    base_url: host.url,
    secret,
    allowed_tools: [],
  });
  log.info("tether: demo tool server (milestones) registered", { base_url: host.url });
  return host as { close(): Promise<void> };
}

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
// The demo's tool server (milestones) runs beside the runtime on loopback, allowed by configuration.
const tools = join(process.cwd(), "demo", "dist-tools", "tools_host.mjs");
const withTools = !!staticRoot && existsSync(tools);
if (withTools) {
  env.REMOTE_TOOLS__ALLOWED_HOSTS = [env.REMOTE_TOOLS__ALLOWED_HOSTS, "127.0.0.1"].filter(Boolean)
    .join(",");
}
const started = await startNode({ staticRoot, env });
const engine = await started.app.engine();
const demoTools = withTools ? await startDemoTools(tools, started.url, engine) : null;
log.info("tether: listening", {
  url: started.url,
  model: engine.model.name,
  store: engine.store.name,
  ...(staticRoot ? { demo: `${started.url}/` } : {}),
});
// One line for a person: where to go (the JSON line above is for log readers).
console.log(
  `tether: ${staticRoot ? "the demo and the runtime" : "the runtime"} on ${started.url}/`,
);
if (madeToken && staticRoot) {
  // Printed straight to the terminal, never through the logger: the token sits in the URL's fragment only.
  console.log(
    `tether: approve held calls at ${started.url}/operator.html#token=${env.ACCESS__ADMIN_TOKEN}`,
  );
}
const stop = async () => {
  await demoTools?.close();
  await started.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
