/**
 * The Deno Deploy entry: a `deno serve` module whose default export is
 * `{ fetch }`, so the platform (or `deno serve` locally) owns the port and
 * the interface.
 *
 * The store defaults to `denokv://default`, Deno's own KV opened with no path:
 * the project's database on Deno Deploy, a per-script database in Deno's
 * cache folder under a local `deno serve`. Set `STORE__URL` to use another.
 *
 * Socket.IO cannot run here: it attaches to a node:http server, and
 * `deno serve` hands us requests only. HTTP, server-sent events and AG-UI
 * work; clients use the SSE transport (the default). The entry says so once
 * at start.
 *
 * It refuses to start without access configured (`ACCESS__TOKEN`, or
 * `ACCESS__MODE=header` behind a gateway): a public platform must not serve
 * `trusted_local` to strangers (`_open_access.ts`).
 *
 * Run: `ACCESS__TOKEN=… deno serve -A --unstable-kv server/runtime/deploy.ts`
 *
 * @module
 */
import { createRuntime, type TetherApp } from "../app.ts";
import { optionsFromEnv } from "../env.ts";
import { PLATFORM_KV } from "../kv/from_url.ts";
import { openAccessProblem } from "./_open_access.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  readTextFileSync(path: string): string;
  exit(code: number): never;
};

/**
 * The runtime for `deno serve` on the given environment (STORE__URL defaults to Deno's own KV).
 * Throws, saying what to set, when access is not configured.
 *
 * @example
 * ```ts
 * const app = deployRuntime({ MODEL__DEFAULT: "offline", ACCESS__TOKEN: "long-random-secret" });
 * const health = await app.fetch(new Request("http://deploy.local/health"));
 * ```
 */
export function deployRuntime(env: Record<string, string | undefined>): TetherApp {
  const withStore = { ...env, STORE__URL: env.STORE__URL || PLATFORM_KV };
  const options = optionsFromEnv(withStore, (path) => Deno.readTextFileSync(path));
  const problem = openAccessProblem(options.access);
  if (problem) throw new Error(problem);
  return createRuntime({ ...options, env: withStore });
}

let app: TetherApp;
try {
  app = deployRuntime(Deno.env.toObject());
} catch (error) {
  // What to set, said once, without a stack trace in the way.
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(1);
}
// Fail at start, not on the first request, when the configuration or the store is wrong.
const engine = await app.engine();
console.log(
  `tether: serving HTTP, server-sent events and AG-UI (model ${engine.model.name}, store ${engine.store.name}); ` +
    "Socket.IO is not available under deno serve, so clients use the SSE transport.",
);

/**
 * What `deno serve` calls for every request.
 *
 * @example
 * ```ts
 * // ACCESS__TOKEN=… deno serve -A --unstable-kv server/runtime/deploy.ts
 * ```
 */
const serve: { fetch: TetherApp["fetch"] } = { fetch: app.fetch };
export default serve;
