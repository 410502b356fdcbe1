/**
 * Test fixtures for the element tests: a `<tether-chat>` on a fake runtime,
 * shadow-DOM queries, and polling. Not part of the public API.
 *
 * @module
 */
import { createHost, type Host, memoryJournal } from "../client/mod.ts";
import { type FakeRuntime, fakeRuntime } from "./_fake_runtime.ts";
import type { TetherChat } from "./chat.ts";
import "./define.ts";

/** A mounted chat and what drives it. */
export interface ChatFixture {
  chat: TetherChat;
  host: Host;
  rt: FakeRuntime;
  root: HTMLElement;
  /** `querySelector` inside the chat's shadow root. */
  $<E extends Element = HTMLElement>(selector: string): E | null;
  /** `querySelectorAll` inside the chat's shadow root. */
  $$<E extends Element = HTMLElement>(selector: string): E[];
  /** Removes everything and closes the host. */
  dispose(): void;
}

/**
 * Resolves once `check()` is truthy; rejects after `timeout` ms naming `what`.
 *
 * @example
 * ```ts
 * await until(() => chat.shadowRoot!.querySelector("strong"), "bold text");
 * ```
 */
export async function until<T>(
  check: () => T,
  what = "condition",
  timeout = 5000,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Mounts `<tether-chat>` (and any extra markup beside it) on a fake runtime.
 *
 * @example
 * ```ts
 * const f = mountChat(`<tether-action name="ping" description="Ping."></tether-action>`);
 * f.rt.respond = (body, turn) => turn.reply("pong");
 * ```
 */
export function mountChat(markup = ""): ChatFixture {
  const rt = fakeRuntime();
  const root = document.createElement("div");
  root.style.height = "480px";
  root.innerHTML = `<tether-chat id="chat-${
    crypto.randomUUID().slice(0, 8)
  }"></tether-chat>${markup}`;
  document.body.append(root);
  const chat = root.querySelector("tether-chat") as TetherChat;
  const host = createHost({
    runtimeUrl: location.origin,
    sessionId: `el-${crypto.randomUUID().slice(0, 12)}`,
    transport: rt.transport,
    journal: memoryJournal(),
    webmcp: false,
  });
  chat.host = host;
  return {
    chat,
    host,
    rt,
    root,
    $: (s) => chat.shadowRoot!.querySelector(s),
    $$: <E extends Element>(s: string) => [...chat.shadowRoot!.querySelectorAll(s)] as E[],
    dispose() {
      host.close();
      root.remove();
    },
  };
}
