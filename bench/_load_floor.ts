/**
 * The floor of `npm run bench -- load`: a bare Hono app on
 * `@hono/node-server` whose one route makes one AI SDK `streamText` call
 * with the same scripted model the runtime gets, and answers JSON. Whatever
 * the runtime spends per turn above this is Tether's own cost.
 *
 * With `yields` (the bench's `floor-yielding` row), the same handler gives the event loop back
 * that many times in a request (half before the model call, half after it), as a handler that
 * awaits a database does: what that scheduling alone changes, measured beside the floor.
 *
 * @module
 */
import { Hono } from "hono";
import { jsonSchema, streamText, type ToolSet } from "ai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { serveLoopback } from "../server/testing/loopback.ts";

/** The fields of a host action the floor turns into a tool. */
interface Action {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/**
 * Serves the floor on a free loopback port; resolves with its URL and a close function.
 *
 * @example
 * ```ts
 * const floor = await startFloor(loadModel("floor"));
 * await floor.close();
 * const yielding = await startFloor(loadModel("floor"), 8);
 * await yielding.close();
 * ```
 */
export async function startFloor(
  model: LanguageModelV3,
  yields = 0,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  const later = async (times: number) => {
    for (let i = 0; i < times; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  app.post("/api/chat", async (c) => {
    const body = await c.req.json();
    await later(Math.floor(yields / 2));
    const tools: ToolSet = {};
    for (const action of (body.host_context?.actions ?? []) as Action[]) {
      tools[action.name] = {
        description: action.description,
        inputSchema: jsonSchema(action.parameters ?? { type: "object" }),
      };
    }
    const result = streamText({
      model,
      messages: [{ role: "user", content: String(body.content) }],
      tools,
    });
    const [text, calls] = await Promise.all([result.text, result.toolCalls]);
    const call = calls[0];
    await later(Math.ceil(yields / 2));
    return c.json({
      content: text,
      session_id: body.session_id,
      pending_tool_call: call
        ? { tool_name: call.toolName, call_id: call.toolCallId, arguments: call.input, queued: [] }
        : null,
    });
  });
  return await serveLoopback(app.fetch);
}
