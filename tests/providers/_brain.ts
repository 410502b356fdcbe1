/**
 * What the local provider servers answer: a "brain" reads the request in a
 * provider-neutral form and says what the model does. The servers own the
 * wire (validation, limits, caches, streaming); the brain only decides the
 * words and the calls, so a test scripts the model's behaviour without
 * touching the wire format.
 *
 * @module
 */

/** A message of the request, with its content flattened to what a test reads. */
export interface BrainMessage {
  role: "system" | "user" | "assistant" | "tool";
  /** The message's text parts, joined with newlines. */
  text: string;
  /** Tool calls an assistant message makes. */
  calls: { id: string; name: string; arguments: unknown }[];
  /** Tool results a message carries (Anthropic: in a user message; others: tool messages). */
  results: { id: string; output: string; error: boolean; images: number }[];
  /** Images in the message's own content. */
  images: number;
}

/** The request as the brain reads it. */
export interface BrainRequest {
  /** Which API received it. */
  api: "openai-responses" | "anthropic-messages" | "chat-completions";
  model: string;
  system: string;
  messages: BrainMessage[];
  tools: { name: string; description: string; parameters: unknown }[];
  /** How many requests this server answered before this one. */
  index: number;
}

/** A call the model makes. */
export interface BrainCall {
  name: string;
  arguments: unknown;
}

/** What the model does for one request. */
export interface BrainReply {
  text?: string;
  calls?: BrainCall[];
  /**
   * A stall: `headers` never answers at all; `events` sends the response headers and the
   * stream's first event, then nothing.
   */
  stall?: "headers" | "events";
  /** Fail the request with this HTTP status, in the provider's own error shape. */
  fail?: number;
}

/** A brain: any function of the request. */
export type Brain = (request: BrainRequest) => BrainReply | Promise<BrainReply>;

/** The last message's own words, without the runtime's fenced blocks. */
export function spokenText(message: BrainMessage | undefined): string {
  return (message?.text ?? "").replace(/<([a-z_]+)>[\s\S]*?<\/\1>/g, "").trim();
}

/**
 * The default brain. In the last user message's own words, each line `@call name {json}` is a
 * tool call; after tool results it answers "Done: " and the first result; a request without
 * tools (a summary) is answered with a short summary of what it read; otherwise it echoes.
 *
 * @example
 * ```ts
 * defaultBrain(request); // { calls: [{ name: "select_issue", arguments: { number: 42 } }] }
 * ```
 */
export const defaultBrain: Brain = (request) => {
  const last = request.messages.at(-1);
  if (!last) return { text: "Hello." };
  // Tool results, possibly followed by a message holding only the runtime's page block.
  const answered = last.results.length
    ? last
    : last.role === "user" && !spokenText(last)
    ? request.messages.at(-2)
    : undefined;
  if (answered?.results.length && !spokenText(last)) {
    const first = answered.results[0];
    return { text: `Done: ${first.output.slice(0, 120)}` };
  }
  const calls: BrainCall[] = [];
  for (const line of spokenText(last).split("\n")) {
    const match = /^\s*@call\s+([A-Za-z0-9_-]+)\s*(.*)$/.exec(line);
    if (!match) continue;
    let args: unknown = {};
    try {
      args = match[2] ? JSON.parse(match[2]) : {};
    } catch { /* not JSON: no arguments */ }
    calls.push({ name: match[1], arguments: args });
  }
  if (calls.length) return { calls };
  if (!request.tools.length) {
    const chars = request.messages.reduce((n, m) => n + m.text.length, 0);
    return { text: `Summary: the conversation so far (${chars} characters read).` };
  }
  return { text: `You said: ${spokenText(last).slice(0, 200)}` };
};
