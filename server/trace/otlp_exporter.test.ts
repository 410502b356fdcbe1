// deno-lint-ignore-file no-explicit-any -- OTLP JSON is read field by field
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { createLogger } from "../log.ts";
import { serveLoopback } from "../testing/loopback.ts";
import { type FinishedSpan, OtlpExporter } from "./otlp_exporter.ts";

const span = (i: number): FinishedSpan => ({
  traceId: "0".repeat(31) + "1",
  spanId: i.toString(16).padStart(16, "0"),
  name: `s${i}`,
  kind: 1,
  startMs: 1_000,
  endMs: 1_002.5,
  attributes: { n: i, f: 0.5, ok: true, s: "x" },
});

test("spans go in batches of at most maxBatch; beyond the queue they are dropped, never awaited", async () => {
  const batches: any[] = [];
  const app = new Hono().post("/v1/traces", async (c) => {
    batches.push(await c.req.json());
    return c.json({});
  });
  const server = await serveLoopback(app.fetch);
  const url = `${server.url}/v1/traces`;
  const exporter = new OtlpExporter({
    url,
    headers: {},
    serviceName: "tether-test",
    logger: createLogger(() => {}),
    maxQueue: 10,
    maxBatch: 4,
    intervalMs: 60_000,
  });
  for (let i = 0; i < 25; i++) exporter.push(span(i));
  await exporter.close();
  await server.close();
  const sent = batches.flatMap((b) => b.resourceSpans[0].scopeSpans[0].spans);
  assert.ok(batches.every((b) => b.resourceSpans[0].scopeSpans[0].spans.length <= 4));
  assert.ok(sent.length <= 25 && sent.length >= 10, `${sent.length} spans sent`);
  assert.ok(sent.length < 25, "some were dropped: the queue is bounded");
  const first = sent[0];
  assert.equal(first.startTimeUnixNano, "1000000000");
  assert.equal(first.endTimeUnixNano, "1002500000");
  assert.deepEqual(first.attributes, [
    { key: "n", value: { intValue: "0" } },
    { key: "f", value: { doubleValue: 0.5 } },
    { key: "ok", value: { boolValue: true } },
    { key: "s", value: { stringValue: "x" } },
  ]);
  assert.deepEqual(first.status, { code: 1 });
  assert.equal(batches[0].resourceSpans[0].resource.attributes[0].value.stringValue, "tether-test");
});

test("a collector that is down costs a warning, not an error in the turn", async () => {
  const lines: string[] = [];
  const exporter = new OtlpExporter({
    url: "http://127.0.0.1:9/v1/traces",
    headers: {},
    serviceName: "t",
    logger: createLogger((line) => lines.push(line)),
    intervalMs: 60_000,
  });
  exporter.push(span(1));
  await exporter.close();
  assert.equal(lines.length, 1);
  assert.match(lines[0], /OTLP spans were not exported/);
});
