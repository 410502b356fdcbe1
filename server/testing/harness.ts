// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime in tests and benchmarks
/**
 * Test helpers: a runtime over a memory store with a chosen model, driven
 * through `app.request` (the real Hono app, no network).
 *
 * @module
 */
import * as z from "zod/mini";
import { pendingActionSchema, pendingToolCallSchema } from "../../protocol/mod.ts";
import { createRuntime, type TetherApp } from "../app.ts";
import type { RuntimeOptions } from "../config.ts";
import { memoryStore } from "../kv/memory.ts";

/** A runtime under test. */
export interface Harness {
  app: TetherApp;
  /** POST /api/chat; returns status and JSON. */
  chat(
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  /** Any request; returns status and JSON. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  /** Waits (up to 5 s) until session `id` exists: a turn asked for it has begun. */
  started(id: string): Promise<void>;
  warnings: string[];
  close(): Promise<void>;
}

/**
 * Creates a runtime for a test.
 *
 * @example
 * ```ts
 * const h = harness({ model: scriptedModel([{ text: "hi" }]) });
 * const { body } = await h.chat({ session_id: "s", content: "hello" });
 * ```
 */
export function harness(options: Partial<RuntimeOptions> = {}): Harness {
  const warnings: string[] = [];
  const app = createRuntime({
    store: options.store ?? memoryStore(),
    model: "offline",
    warn: (m) => warnings.push(m),
    ...options,
  });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.request(path, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch { /* not JSON */ }
    if (res.ok) conformsToWire(method, path, json);
    return { status: res.status, body: json as any };
  };
  return {
    app,
    call,
    chat: (body, headers) => call("POST", "/api/chat", body, headers),
    async started(id) {
      for (let i = 0; i < 500; i++) {
        if ((await call("GET", `/api/sessions/${id}/messages`)).status === 200) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`session ${id} was not created within 5 s`);
    },
    warnings,
    close: () => app.close(),
  };
}

/**
 * The JSON edge: a pending call in POST /api/chat's answer and in
 * GET /api/sessions/{id} must follow the protocol's schemas.
 */
function conformsToWire(method: string, path: string, json: unknown): void {
  if (!json || typeof json !== "object") return;
  const body = json as Record<string, unknown>;
  const check = (schema: z.ZodMiniType, value: unknown, what: string) => {
    const read = z.safeParse(schema, value);
    if (!read.success) {
      throw new Error(`${what} broke its schema: ${JSON.stringify(read.error.issues)}`);
    }
  };
  if (method === "POST" && path === "/api/chat" && body.pending_tool_call) {
    check(pendingToolCallSchema, body.pending_tool_call, "pending_tool_call");
  }
  if (method === "GET" && /^\/api\/sessions\/[^/?]+$/.test(path) && body.pending_action) {
    check(pendingActionSchema, body.pending_action, "pending_action");
  }
}

/** The contract's own example context. */
export const ISSUE_CONTEXT = {
  version: 1,
  view: {
    name: "tasks",
    description: "The issue list.",
    data: { issues: [{ number: 42, title: "Fix login" }] },
  },
  actions: [{
    name: "select_issue",
    description: "Select an issue in the list.",
    parameters: {
      type: "object",
      properties: { number: { type: "integer" } },
      required: ["number"],
    },
  }],
};
