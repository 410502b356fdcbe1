/**
 * A loopback reverse proxy to the runtime, so a test page can reach it from
 * its own origin (the way an app behind one gateway does): plain HTTP
 * requests and responses are streamed both ways (SSE included), and
 * WebSocket upgrades are piped through at the TCP level.
 *
 * Plain JavaScript because web-test-runner loads its config without a
 * TypeScript loader.
 *
 * @module
 */
import { request } from "node:http";
import { connect } from "node:net";

/** The paths that belong to the runtime. */
export const RUNTIME_PATHS = /^\/(api|socket\.io|health)(\/|\?|$)/;

/**
 * Forwards one HTTP request to the runtime and streams the answer back.
 *
 * @param {() => string} target the runtime's base URL, read per request (it may restart elsewhere)
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {(status: number) => void} [onStatus] told the status before the head is written
 */
export function proxyRequest(target, req, res, onStatus) {
  const url = new URL(req.url ?? "/", target());
  const upstream = request(
    url,
    { method: req.method, headers: { ...req.headers, host: url.host } },
    (answer) => {
      onStatus?.(answer.statusCode ?? 502);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
      // The runtime went away mid-answer (a stream cut off): cut the page's off too, as a
      // reverse proxy does, rather than leave it open with nothing more to come.
      answer.on("close", () => answer.complete || res.destroy());
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) {
      onStatus?.(502);
      res.writeHead(502, { "content-type": "application/json" });
    }
    res.end(
      JSON.stringify({
        error: { type: "internal", message: "The runtime is not reachable (test proxy)." },
      }),
    );
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
}

/**
 * Pipes a WebSocket upgrade to the runtime.
 *
 * @param {() => string} target
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:stream").Duplex} socket
 * @param {Buffer} head
 */
export function proxyUpgrade(target, req, socket, head) {
  const url = new URL(target());
  const upstream = connect(Number(url.port), url.hostname, () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i];
      lines.push(`${name}: ${name.toLowerCase() === "host" ? url.host : req.rawHeaders[i + 1]}`);
    }
    upstream.write(lines.join("\r\n") + "\r\n\r\n");
    if (head?.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  const close = () => (upstream.destroy(), socket.destroy());
  upstream.on("error", close);
  socket.on("error", close);
  socket.on("close", () => upstream.destroy());
}
