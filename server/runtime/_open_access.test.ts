/** The Deploy entry's start check refuses open access and names what to set. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { optionsFromEnv } from "../env.ts";
import { openAccessProblem } from "./_open_access.ts";

const problem = (env: Record<string, string>) => openAccessProblem(optionsFromEnv(env).access);

test("trusted_local without ACCESS__TOKEN is refused, naming ACCESS__TOKEN and header mode", () => {
  const envs: Record<string, string>[] = [{}, { ACCESS__MODE: "trusted_local" }, {
    ACCESS__TOKEN: "",
  }];
  for (const env of envs) {
    const said = problem(env);
    assert.ok(said, JSON.stringify(env));
    assert.match(said, /ACCESS__TOKEN/);
    assert.match(said, /ACCESS__MODE=header/);
  }
  // The admin token alone leaves every other caller the local principal.
  assert.ok(problem({ ACCESS__ADMIN_TOKEN: "operator-secret" }));
});

test("a token, a gateway or an authenticate function is access configured", () => {
  assert.equal(problem({ ACCESS__TOKEN: "long-random-secret" }), null);
  assert.equal(problem({ ACCESS__MODE: "header" }), null);
  assert.equal(openAccessProblem({ mode: "custom", authenticate: () => null }), null);
  assert.match(openAccessProblem({ mode: "custom" })!, /authenticate/);
});
