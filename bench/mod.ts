/**
 * `npm run bench`: prints every figure; never passes or fails on time.
 * Run one part with `npm run bench -- <part>`; the parts are in `parts.ts`.
 *
 * @module
 */
import process from "node:process";
import { BENCH_PARTS } from "./parts.ts";

const args = process.argv.slice(2);
const unknown = args.filter((a) => !(a in BENCH_PARTS));
if (unknown.length) {
  console.error(
    `bench: no part named ${unknown.join(", ")}; the parts are ${
      Object.keys(BENCH_PARTS).join(", ")
    }`,
  );
  process.exit(2);
}
console.log(`# Tether benchmarks (${new Date().toISOString()}, Node ${process.version})`);
for (const [name, run] of Object.entries(BENCH_PARTS)) {
  if (args.length && !args.includes(name)) continue;
  await run();
}
process.exit(0);
