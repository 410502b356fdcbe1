/**
 * What the AG-UI agent declares about itself (`AgentCapabilities`, AG-UI
 * 1.1), at `GET /api/agui/capabilities`: the protocol leaves retrieval to the
 * implementation and fixes only the shape. Only what the route does is
 * declared; what it does not do is declared `false` rather than left out,
 * since an omitted field says nothing.
 *
 * @module
 */
import type { AgentCapabilities } from "@ag-ui/core";
import { AGUI_VERSION } from "./_agui_input.ts";

/**
 * The declaration.
 *
 * @example
 * ```ts
 * app.get("/api/agui/capabilities", (c) => c.json(aguiCapabilities()));
 * ```
 */
export function aguiCapabilities(): AgentCapabilities {
  return {
    identity: {
      name: "Tether",
      type: "tether-runtime",
      description:
        "A web application's assistant: it sees what the page shows and asks the page to act.",
      metadata: { protocolVersion: AGUI_VERSION },
    },
    // The standard bindings resume nothing; Tether's own resumption is GET /api/sessions/{id}/events.
    transport: { streaming: true, websocket: false, httpBinary: false, resumable: false },
    tools: { supported: true, clientProvided: true, parallelCalls: true },
    output: { structuredOutput: false },
    state: { snapshots: false, deltas: false, persistentState: true },
    multiAgent: { supported: false },
    reasoning: { supported: true, streaming: true, encrypted: false },
    multimodal: {
      input: { image: true, pdf: true, audio: false, video: false, file: false },
      output: { image: false, audio: false },
    },
    // Holds for a person's approval happen inside the run; Tether raises no interrupts.
    humanInTheLoop: { supported: true, approvals: true, interrupts: false },
  };
}
