/**
 * `npm run check-host -- <base-url> <secret>`: checks a tool server against
 * the remote tools contract and prints each finding; exits 1 when any fails.
 *
 * @module
 */
import process from "node:process";
import { checkHost } from "../server/remote-tools/check.ts";

const [base, secret] = process.argv.slice(2);
if (!base || !secret) {
  console.error("usage: npm run check-host -- <base-url> <secret>");
  process.exit(2);
}
const findings = await checkHost(base, secret);
for (const f of findings) console.log(`${f.ok ? "ok  " : "FAIL"} ${f.check}: ${f.detail}`);
const faults = findings.filter((f) => !f.ok).length;
console.log(faults ? `${faults} departure(s) from the contract` : "the host follows the contract");
process.exit(faults ? 1 : 0);
