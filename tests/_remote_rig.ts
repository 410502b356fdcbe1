// deno-lint-ignore-file no-explicit-any -- JSON of the wire, read in tests
/**
 * A runtime with a registered tool server, for the remote tools tests: the
 * admin token, loopback allowed by configuration, every event and log line
 * kept so a test can grep them.
 *
 * @module
 */
import type { RuntimeOptions } from "../server/config.ts";
import type { SessionEvent } from "../server/events/hub.ts";
import { type Harness, harness } from "../server/testing/harness.ts";

/** The admin token of the rigs. */
export const ADMIN = "admin-token-for-tests-0123456789";

/** A runtime under test, with its captured events. */
export interface Rig extends Harness {
  admin: Record<string, string>;
  events: SessionEvent[];
  /** Starts recording a session's events into `events`. */
  watch(sessionId: string): Promise<void>;
  /** Registers a tool server for the default workspace; returns the integration view. */
  connect(baseUrl: string, secret: string, allowed?: string[]): Promise<any>;
  /** Every response body, event and log line seen so far, as one string. */
  everything(): string;
}

/**
 * Creates the rig.
 *
 * @example
 * ```ts
 * const rig = remoteRig({ model });
 * await rig.connect(host.url, SECRET);
 * ```
 */
export function remoteRig(options: Partial<RuntimeOptions> = {}): Rig {
  const h = harness({
    access: { adminToken: ADMIN } as RuntimeOptions["access"],
    remoteTools: { allowedHosts: ["127.0.0.1"], timeoutMs: 2_000, workspace: "default" },
    ...options,
  });
  const events: SessionEvent[] = [];
  const bodies: unknown[] = [];
  const admin = { authorization: `Bearer ${ADMIN}` };
  const call: Harness["call"] = async (...args) => {
    const res = await h.call(...args);
    bodies.push(res.body);
    return res;
  };
  return {
    ...h,
    call,
    chat: (body, headers) => call("POST", "/api/chat", body, headers),
    admin,
    events,
    async watch(sid) {
      (await h.app.engine()).hub.subscribe(sid, (e) => events.push(e));
    },
    async connect(baseUrl, secret, allowed = []) {
      const res = await call("POST", "/v1/integrations/generic-rest/connect", {
        workspace_id: "default",
        base_url: baseUrl,
        secret,
        allowed_tools: allowed,
      }, admin);
      if (res.status !== 201) throw new Error(`connect failed: ${JSON.stringify(res.body)}`);
      return res.body.integration;
    },
    everything: () => JSON.stringify({ bodies, events, logs: h.warnings }),
  };
}

/** The payloads of one event name, in order. */
export function payloads(rig: Rig, name: string): any[] {
  return rig.events.filter((e) => e.event === name).map((e) => e.payload);
}
