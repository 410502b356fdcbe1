/**
 * The floor of `npm run bench -- load`: a bare Hono app on
 * `@hono/node-server` whose one route makes one AI SDK `streamText` call
 * with the same scripted model the runtime gets, and answers JSON. Whatever
 * the runtime spends per turn above this is Tether's own cost.
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
 * ```
 */
export async function startFloor(
  model: LanguageModelV3,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  app.post("/api/chat", async (c) => {
    const body = await c.req.json();
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
