import assert from "node:assert/strict";
import { test } from "node:test";
import { registerTransport, transportNamed, TRANSPORTS } from "./transports.ts";
import type { TransportFactory, TransportLink } from "./transport.ts";

const link: TransportLink = {
  runtimeUrl: "http://127.0.0.1:1",
  sessionId: "s1",
  lastSeq: () => 0,
  event: () => {},
  state: () => {},
};

test("a transport is picked by its name in the table; empty means sse", () => {
  assert.deepEqual(Object.keys(TRANSPORTS), ["sse", "socket.io"]);
  assert.equal(transportNamed(undefined)(link).name, "sse");
  assert.equal(transportNamed("sse")(link).name, "sse");
  const socket = transportNamed("socket.io")(link);
  assert.equal(socket.name, "socket.io");
  socket.close();
});

test("a registered transport is found by name; an unknown name is refused naming the known ones", () => {
  const mine: TransportFactory = () => ({
    name: "loopback",
    connect: () => Promise.resolve(),
    send: () => Promise.resolve(),
    cancel: () => Promise.resolve(),
    close: () => {},
  });
  registerTransport("loopback", () => mine);
  assert.equal(transportNamed("loopback"), mine);
  assert.throws(() => registerTransport("loopback", () => mine), /already registered/);
  assert.throws(() => registerTransport("sse", () => mine), /already registered/);
  assert.throws(
    () => transportNamed("carrier-pigeon"),
    /Transport "carrier-pigeon" is unknown; use one of sse, socket\.io, loopback\./,
  );
});
