/**
 * Helpers the SDK's browser tests share: hosts opened for a test and closed
 * after it, the `select_issue` action, and a scripted server-sent event stream.
 *
 * @module
 */
import { createHost, type Host, type HostOptions, memoryJournal } from "../../client/mod.ts";

/** The options of a `select_issue` action taking an integer `number`. */
export const selectIssue = {
  description: "Select an issue in the list.",
  parameters: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
};

/**
 * Opens hosts (memory journal, no auto-connect, no WebMCP, plus `defaults()`)
 * and closes every one of them in `closeAll`.
 *
 * @example
 * ```ts
 * const { open, closeAll } = hostOpener();
 * afterEach(closeAll);
 * const host = open({ runtimeUrl });
 * ```
 */
export function hostOpener(defaults: () => Partial<HostOptions> = () => ({})): {
  open(options: Partial<HostOptions> & { runtimeUrl: string }): Host;
  closeAll(): void;
} {
  const hosts: Host[] = [];
  return {
    open(options) {
      const host = createHost({
        journal: memoryJournal(),
        autoConnect: false,
        webmcp: false,
        ...defaults(),
        ...options,
      });
      hosts.push(host);
      return host;
    },
    closeAll() {
      for (const host of hosts.splice(0)) host.close();
    },
  };
}

/**
 * A server-sent event stream of `events`, one per read; afterwards it ends
 * cleanly (`"close"`), with a network error (`"cut"`), or stays open (`"open"`).
 *
 * @example
 * ```ts
 * globalThis.fetch = async () => sseStream([["assistant:status", { seq: 1, status: "started" }]], "cut");
 * ```
 */
export function sseStream(
  events: [string, Record<string, unknown>][],
  end: "close" | "cut" | "open",
): Response {
  return new Response(
    new ReadableStream({
      // One event per pull, so the reader sees every event before the end.
      pull(controller) {
        const next = events.shift();
        if (next) {
          const [name, payload] = next;
          controller.enqueue(
            new TextEncoder().encode(
              `event: ${name}\nid: ${payload.seq}\ndata: ${JSON.stringify(payload)}\n\n`,
            ),
          );
        } else if (end === "cut") controller.error(new TypeError("network connection lost"));
        else if (end === "close") controller.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}
