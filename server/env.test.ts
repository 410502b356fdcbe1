import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, optionsFromEnv } from "./env.ts";
import { resolveOptions } from "./config.ts";

test("SECTION__KEY variables map onto the typed options", () => {
  const options = resolveOptions(optionsFromEnv({
    MODEL__DEFAULT: "offline",
    STORE__URL: "memory:",
    TOOLS__HOST_TOOLS: JSON.stringify([{ name: "open_door", description: "Opens the door." }]),
    TOOLS__PAGE_SCOPES: '{"search":["tasks"]}',
    LIMITS__MAX_TOOL_CALLS: "4",
    ACCESS__MODE: "header",
    ACCESS__CORS_ORIGINS: "https://app.example.com, http://localhost:*",
  }));
  assert.equal(options.model, "offline");
  assert.equal(options.storeUrl, "memory:");
  assert.equal(options.hostTools[0].name, "open_door");
  assert.deepEqual(options.hostTools[0].parameters, { type: "object", properties: {} });
  assert.deepEqual(options.pageScopes, { search: ["tasks"] });
  assert.equal(options.limits.maxToolCalls, 4);
  assert.equal(options.limits.maxModelRequests, 8, "unset limits keep their defaults");
  assert.equal(options.access.mode, "header");
  assert.deepEqual(options.access.corsOrigins, ["https://app.example.com", "http://localhost:*"]);
});

test("TOOLS__HOST_TOOLS_PATH reads the tools from a file", () => {
  const options = optionsFromEnv({ TOOLS__HOST_TOOLS_PATH: "/tools.json" }, (path) => {
    assert.equal(path, "/tools.json");
    return JSON.stringify([{ name: "wave", description: "Waves." }]);
  });
  assert.equal(options.hostTools?.[0].name, "wave");
});

test("bad configuration is refused with a message naming the variable", () => {
  assert.throws(
    () => optionsFromEnv({ TOOLS__HOST_TOOLS: "{oops" }),
    (e: Error) => e instanceof ConfigError && /TOOLS__HOST_TOOLS/.test(e.message),
  );
  assert.throws(
    () => optionsFromEnv({ TOOLS__HOST_TOOLS: '[{"name":"bad name","description":"x"}]' }),
    /TOOLS__HOST_TOOLS.*name/,
  );
  assert.throws(
    () => optionsFromEnv({ TOOLS__PAGE_SCOPES: '{"a":"tasks"}' }),
    /TOOLS__PAGE_SCOPES/,
  );
  assert.throws(() => optionsFromEnv({ LIMITS__MAX_TOOL_CALLS: "many" }), /LIMITS__MAX_TOOL_CALLS/);
  assert.throws(() => optionsFromEnv({ ACCESS__MODE: "open" }), /ACCESS__MODE/);
});
