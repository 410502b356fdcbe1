#!/usr/bin/env node
/**
 * `tether-check-host <base-url> <secret>` (the `@tether/runtime` package's
 * command; `npm run check-host -- <base-url> <secret>` in this repository):
 * calls a tool server as the runtime would, prints each finding, and exits 1
 * when the server departs from the remote tools contract (2 on bad usage).
 *
 * @module
 */
import process from "node:process";
import { checkHost } from "../remote-tools/check.ts";

const USAGE = "usage: tether-check-host <base-url> <secret>\n" +
  "  Checks a remote tools server (the four endpoints under <base-url>) against the contract,\n" +
  "  with <secret> as the bearer token the runtime would send.";

const [base, secret, ...rest] = process.argv.slice(2);
if (base === "--help" || base === "-h") {
  console.log(USAGE);
  process.exit(0);
}
if (!base || !secret || rest.length) {
  console.error(USAGE);
  process.exit(2);
}
let url: URL;
try {
  url = new URL(base);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
} catch {
  console.error(`tether-check-host: ${base} is not an http(s) address\n${USAGE}`);
  process.exit(2);
}
const findings = await checkHost(url.href.replace(/\/$/, ""), secret);
for (const f of findings) console.log(`${f.ok ? "ok  " : "FAIL"} ${f.check}: ${f.detail}`);
const faults = findings.filter((f) => !f.ok).length;
console.log(faults ? `${faults} departure(s) from the contract` : "the host follows the contract");
process.exit(faults ? 1 : 0);
