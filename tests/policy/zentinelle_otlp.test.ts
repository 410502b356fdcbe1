// deno-lint-ignore-file no-explicit-any -- the vectors and the wire answers are JSON read field by field
/**
 * Zentinelle's OTLP receiver tests as vectors (tests/conformance/
 * zentinelle_otlp.json): run against the receiver rules in process and
 * against the Zentinelle double's receiver over HTTP; then Tether's own
 * exporter, configured as the contract tells an agent host to configure
 * it, sends a real turn's spans to that receiver, which takes every one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startNode } from "../../server/runtime/node.ts";
import { OtlpRejected, traceEvents } from "../zentinelle/_otlp.ts";
import { zentinelleDouble } from "../zentinelle/double.ts";

const vectors = JSON.parse(
  readFileSync(new URL("../conformance/zentinelle_otlp.json", import.meta.url), "utf8"),
);

/** The request body of a `post` step. */
function batchOf(post: any): unknown {
  const batch = structuredClone(vectors.batch);
  const spans = batch.resourceSpans[0].scopeSpans[0].spans;
  if (post.session) spans[0].attributes[0].value.stringValue = post.session;
  if (post.append_bad_span) spans.push({ ...structuredClone(spans[0]), ...post.append_bad_span });
  if (post.repeat_span) {
    batch.resourceSpans[0].scopeSpans[0].spans = Array(post.repeat_span).fill(spans[0]);
  }
  return batch;
}

for (const scenario of vectors.scenarios) {
  test(`zentinelle_otlp.json: ${scenario.name} (the double's receiver over HTTP)`, async () => {
    const z = await zentinelleDouble();
    const other = z.register("another-host", "agent_host", "another-tenant");
    try {
      for (const step of scenario.steps) {
        if (step.post) {
          const key = step.post.key === "none"
            ? null
            : step.post.key === "other-tenant"
            ? other
            : z.key;
          const res = await fetch(`${z.url}/api/zentinelle/v1/otlp/v1/traces`, {
            method: "POST",
            headers: {
              "content-type": step.post.content_type ?? "application/json",
              ...(key ? { "x-zentinelle-key": key } : {}),
            },
            body: step.post.raw ?? JSON.stringify(batchOf(step.post)),
          });
          const body = await res.json().catch(() => null);
          if (step.expect.status) {
            assert.equal(res.status, step.expect.status, JSON.stringify(body));
          }
          if (step.expect.status_in) assert.ok(step.expect.status_in.includes(res.status));
          if (step.expect.body) assert.deepEqual(body, step.expect.body);
        } else if (step.stored) {
          assert.equal(z.spans.length, step.stored.count);
          const first = z.spans[0];
          if (step.stored.session_id) {
            assert.equal(first.payload.context.session_id, step.stored.session_id);
          }
          if (step.stored.duration_ms) {
            assert.equal(first.payload.duration_ms, step.stored.duration_ms);
          }
          if (step.stored.content === false) {
            assert.equal(
              "content" in first.payload,
              false,
              "metadata capture keeps no span content",
            );
          }
        }
      }
    } finally {
      await z.close();
    }
  });
}

test("zentinelle_otlp.json: the receiver's rules in process refuse each bad span and take the good batch", () => {
  const batch = batchOf({});
  const [event] = traceEvents(batch);
  assert.equal(event.event_id, `otlp:${"1".repeat(32)}:${"2".repeat(16)}`);
  assert.equal(event.payload.duration_ms, 1000);
  const bad = vectors.scenarios.find((s: any) => s.name.startsWith("the whole batch")).steps
    .filter((s: any) => s.post);
  for (const step of bad) {
    assert.throws(() => traceEvents(batchOf(step.post)), OtlpRejected, JSON.stringify(step.post));
  }
  assert.throws(() => traceEvents(batchOf({ repeat_span: 1001 })), /at most 1000/);
});

test("Tether's exporter, pointed at Zentinelle's receiver as the contract says, has every span taken", async () => {
  const z = await zentinelleDouble();
  const rt = await startNode({
    port: 0,
    socketIo: false,
    env: {
      STORE__URL: "memory:",
      MODEL__DEFAULT: "offline",
      OTEL_EXPORTER_OTLP_ENDPOINT: `${z.url}/api/zentinelle/v1/otlp/v1/traces`,
      OTEL_EXPORTER_OTLP_HEADERS: `X-Zentinelle-Key=${z.key}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    },
    warn: () => {},
  });
  let closed = false;
  try {
    const res = await fetch(`${rt.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: "otlp-1", content: "hello" }),
    });
    assert.equal(res.status, 200);
    await rt.close();
    closed = true;
    assert.ok(z.spans.length >= 1, "the turn's spans arrived");
    for (const span of z.spans) {
      assert.equal(span.payload.context.session_id, "otlp-1", "correlated with the session");
      assert.ok(span.payload.duration_ms >= 0);
    }
  } finally {
    if (!closed) await rt.close();
    await z.close();
  }
});
