/**
 * `node --import ./tests/_ts_loader.mjs file.ts`: runs TypeScript on Node 20,
 * which cannot strip types itself, for `npm test`'s Node 20 suite and the
 * runtimes its tests start (`_ts_args.mjs`), through `_ts_hooks.mjs` and
 * `_ts_cache.mjs`. It does what tsx did there, with
 * less: loading the server's modules took 1.35 s of CPU through tsx and 0.98 s
 * through this (`docs/architecture.md`, "Test time"). Stack traces name the
 * TypeScript lines, as under tsx.
 *
 * @module
 */
import { register } from "node:module";
import process from "node:process";

process.setSourceMapsEnabled(true);
register("./_ts_hooks.mjs", import.meta.url);
