/**
 * The Socket.IO transport's `connect()` means "following": it resolves once the runtime
 * acknowledged the session's join, not when the socket opened. Before, a page that connected
 * and then saw another client start a turn could miss the turn's first events, when they
 * passed before the runtime took the join (a follower that joins without `after` starts
 * live). Checked against a real Socket.IO server on loopback that takes its time to join.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";
import { test } from "node:test";
import { Server } from "socket.io";
import { socketIoTransport } from "./socketio_transport.ts";
import type { TransportLink } from "./transport.ts";

test("connect() resolves once the runtime acknowledged the join, not when the socket opened", async () => {
  // Timers of other test files that share this process (scripts/node_suite.ts) may still run.
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout");
  const before = timers().length;
  const http = createServer();
  const io = new Server(http);
  const joins: unknown[] = [];
  let acknowledged = false;
  io.of("/assistant").on("connection", (socket) => {
    socket.on("assistant_join_session", (payload: unknown, ack: (answer: unknown) => void) => {
      joins.push(payload);
      // A runtime reading the session from its store before it follows it.
      setTimeout(() => {
        acknowledged = true;
        ack({ ok: true, session_id: "s1", last_seq: 0 });
      }, 200);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const states: string[] = [];
  const link: TransportLink = {
    runtimeUrl: `http://127.0.0.1:${port}`,
    sessionId: "s1",
    lastSeq: () => 0,
    event: () => {},
    state: (state) => states.push(state),
  };
  const transport = socketIoTransport()(link);
  try {
    await transport.connect();
    assert.equal(acknowledged, true, "connect() waited for the join's acknowledgement");
    assert.deepEqual(joins, [{ session_id: "s1" }]);
    assert.equal(states.at(-1), "open");
  } finally {
    transport.close();
    await new Promise<void>((resolve) => io.close(() => resolve()));
  }
  // connect() waits for the join with a timer of 30 s; the join or the close ends it. Left
  // behind, it held this file's process open for 30 s after its test passed. The sockets'
  // own closing timers end as their connections do, within two seconds under any load.
  for (let waited = 0; timers().length > before && waited < 2_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(
    timers().length <= before,
    `no timer outlives the transport and the server: ${timers().length} now, ${before} before`,
  );
});
