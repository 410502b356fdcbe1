/** IPv6 forms that reach a private IPv4 address, or a private IPv6 range, are private. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkBaseUrl, isPrivateAddress } from "./address.ts";

test("translated, site-local, discard-only and Teredo forms are private", () => {
  for (
    const address of [
      "::ffff:0:7f00:1", // IPv4-translated 127.0.0.1
      "::ffff:0:127.0.0.1",
      "::ffff:0:a00:1", // 10.0.0.1
      "fec0::1", // site-local
      "feff::1",
      "100::1", // discard-only
      "2001:0:4136:e378::1", // Teredo
    ]
  ) assert.equal(isPrivateAddress(address), true, address);
});

test("public addresses stay public", () => {
  for (
    const address of ["::ffff:0:5db8:d822", "2606:4700::1111", "2001:4860::8888", "93.184.216.34"]
  ) {
    assert.equal(isPrivateAddress(address), false, address);
  }
});

test("registration refuses the bracketed forms with the message naming the setting", async () => {
  for (const host of ["[::ffff:0:7f00:1]", "[fec0::1]"]) {
    await assert.rejects(checkBaseUrl(`http://${host}:7200/`, []), /REMOTE_TOOLS__ALLOWED_HOSTS/);
  }
});
