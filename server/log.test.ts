import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createLogger,
  formatLogLine,
  redact,
  redactValue,
  registerSecret,
  SECRET_FRAGMENT,
} from "./log.ts";
import { registerConfiguredSecrets } from "./secrets.ts";
import { resolveOptions } from "./config.ts";

test("a log line is one JSON object whatever control characters its values carry", () => {
  const forged = 'x\r\n{"level":"info","msg":"admin logged in"}\u001b[31m\u2028\u0085';
  const line = formatLogLine("warn", `bad session ${forged}`, { session_id: forged });
  assert.equal(line.split(/[\r\n\u2028\u2029\u0085]/).length, 1, "no line break survives");
  assert.ok(!line.includes("\u001b"), "no raw ANSI escape");
  const parsed = JSON.parse(line);
  assert.equal(parsed.level, "warn");
  assert.equal(parsed.session_id, forged, "the value is kept, only escaped");
});

test("registered secrets are redacted from messages, fields, nested values and errors", () => {
  registerSecret("sk-live-abcdefghijkl");
  const lines: string[] = [];
  const logger = createLogger((line) => lines.push(line));
  const error = new Error('provider said 401: {"key":"sk-live-abcdefghijkl"}');
  logger.error("call with sk-live-abcdefghijkl failed", {
    error,
    body: { nested: ["sk-live-abcdefghijkl"] },
  });
  assert.equal(lines.length, 1);
  assert.ok(!lines[0].includes("sk-live-abcdefghijkl"), lines[0]);
  assert.ok(lines[0].includes("[redacted]"));
});

test("configured keys, tokens and store passwords are secrets; short values are not", () => {
  registerConfiguredSecrets(resolveOptions({
    storeUrl: "postgres://app:pg-pass-0987654@db/x",
    access: {
      mode: "trusted_local",
      token: "token-1234567",
      principalHeader: "",
      rolesHeader: "",
      corsOrigins: [],
    },
    env: {
      ANTHROPIC_API_KEY: "ant-key-7777777",
      ACCESS__ADMIN_TOKEN: "admin-tok-55555",
      REDIS_URL: "redis://:redis-pw-3333@127.0.0.1:6379",
      PORT: "7100",
    },
  }));
  const text = redact(
    "pg-pass-0987654 token-1234567 ant-key-7777777 admin-tok-55555 redis-pw-3333 7100",
  );
  assert.equal(text, "[redacted] [redacted] [redacted] [redacted] [redacted] 7100");
});

test("a runtime given a warn function receives finished, redacted lines", () => {
  registerSecret("hunter2-secret");
  const seen: string[] = [];
  const options = resolveOptions({ warn: (line) => seen.push(line) });
  options.logger.warn("login with hunter2-secret", { session_id: "s1" });
  assert.equal(seen.length, 1);
  assert.deepEqual(JSON.parse(seen[0]).msg, "login with [redacted]");
});

test("a piece of a registered secret is redacted too: a provider's parse error quoting part of a key", () => {
  registerSecret("sk-live-LE4k3d-9f8e7d6c5b4a");
  const lines: string[] = [];
  const logger = createLogger((line) => lines.push(line));
  logger.error('the provider answered invalid JSON: {"bad":sk-live-LE', {
    error: new Error('Unexpected token s in JSON at position 7: {"bad":sk-live-LE'),
    tail: "…9f8e7d6c5b4a",
  });
  assert.ok(!lines[0].includes("sk-live-LE"), lines[0]);
  assert.ok(!lines[0].includes("9f8e7d6c"), lines[0]);
  // Pieces shorter than SECRET_FRAGMENT are not secrets on their own.
  assert.equal(redact("sk-live"), "sk-live");
  assert.equal(
    redact("a run of sk-live-LE4k3d-9f8e7d6c5b4a twice sk-live-LE4k3d"),
    "a run of [redacted] twice [redacted]",
  );
  assert.equal(SECRET_FRAGMENT, 8);
});

test("redactValue redacts every string of a JSON value, keys too, and keeps a clean value as it is", () => {
  registerSecret("bearer-echo-0a1b2c3d4e5f");
  const clean = { a: [1, "two", { three: null }] };
  assert.equal(redactValue(clean), clean);
  assert.deepEqual(
    redactValue({ output: { auth: "Bearer bearer-echo-0a1b2c3d4e5f", ["bearer-echo-0a1b"]: 1 } }),
    { output: { auth: "Bearer [redacted]", "[redacted]": 1 } },
  );
});
