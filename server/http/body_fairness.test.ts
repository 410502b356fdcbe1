/** The per-client cap on bodies read at once, under the runtime's ceiling. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readJson } from "./body.ts";
import { TetherError } from "./errors.ts";
import { clientAddress } from "../runtime/client_address.ts";

/** A request whose body never ends until `end()` is called. */
function hanging(): { request: Request; end(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const request = new Request("http://x/api/chat", {
    method: "POST",
    body,
    // @ts-ignore: Node needs it for a streamed body; Deno ignores it.
    duplex: "half",
  });
  return {
    request,
    end() {
      controller.enqueue(new TextEncoder().encode("{}"));
      controller.close();
    },
  };
}

const status = (error: unknown) => (error instanceof TetherError ? error.status : error);

test("one client past its share gets 429 once half the ceiling is used; others are read until the ceiling (503)", async () => {
  const limits = { maxBodyBytes: 1_000, maxBodyReads: 4, maxBodyReadsPerClient: 1 };
  const slow = [hanging(), hanging()];
  const reading = slow.map((s) => readJson(s.request, limits, "mallory@10.0.0.9"));
  await assert.rejects(
    readJson(hanging().request, limits, "mallory@10.0.0.9"),
    (e) => status(e) === 429 && /LIMITS__MAX_BODY_READS_PER_CLIENT/.test((e as Error).message),
  );
  const other = hanging();
  const served = readJson(other.request, limits, "ann@10.0.0.7");
  const third = hanging();
  const alsoServed = readJson(third.request, limits, "carol@10.0.0.6");
  // The ceiling still holds for everyone: four bodies are being read.
  await assert.rejects(
    readJson(hanging().request, limits, "bob@10.0.0.8"),
    (e) => status(e) === 503,
  );
  other.end();
  third.end();
  assert.deepEqual(await served, {});
  assert.deepEqual(await alsoServed, {});
  for (const s of slow) s.end();
  await Promise.all(reading);
  // Slots are given back: the client may send again.
  const again = hanging();
  const next = readJson(again.request, limits, "mallory@10.0.0.9");
  again.end();
  assert.deepEqual(await next, {});
});

test("the client's address is read from either server's bindings", () => {
  assert.equal(clientAddress({ incoming: { socket: { remoteAddress: "10.0.0.7" } } }), "10.0.0.7");
  assert.equal(clientAddress({ remoteAddr: { hostname: "203.0.113.7", port: 1 } }), "203.0.113.7");
  assert.equal(clientAddress(undefined), undefined);
});
