import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveOptions } from "../config.ts";
import { authenticate } from "./access.ts";

const access = (token?: string) =>
  resolveOptions({ access: { adminToken: "admin-secret-123", token } as never }).access;
const bearer = (t: string) => ({ headers: new Headers({ authorization: `Bearer ${t}` }) });

test("trusted local: the admin token makes the local principal an admin; without it, no role", async () => {
  assert.deepEqual(await authenticate(access(), bearer("admin-secret-123")), {
    id: "local",
    roles: ["admin"],
  });
  assert.deepEqual(await authenticate(access(), { headers: new Headers() }), {
    id: "local",
    roles: [],
  });
  assert.deepEqual(await authenticate(access(), bearer("admin-secret-12")), {
    id: "local",
    roles: [],
  });
  assert.deepEqual(
    await authenticate(access(), { headers: new Headers(), token: "admin-secret-123" }),
    { id: "local", roles: ["admin"] },
    "Socket.IO auth.token counts too",
  );
});

test("with ACCESS__TOKEN as well, either token gets in and only the admin one carries the role", async () => {
  assert.deepEqual(await authenticate(access("user-token-456"), bearer("user-token-456")), {
    id: "local",
    roles: [],
  });
  assert.deepEqual(await authenticate(access("user-token-456"), bearer("admin-secret-123")), {
    id: "local",
    roles: ["admin"],
  });
  await assert.rejects(authenticate(access("user-token-456"), bearer("nope")), /bearer token/);
});
