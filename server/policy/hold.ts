/**
 * The oversight hold's wait: poll an approval request every couple of
 * seconds until it leaves pending or the window passes on the runtime's own
 * clock. The clock and the sleep are injected, so tests never wait minutes.
 *
 * @module
 */
import type { ApprovalOffer } from "./contract.ts";
import type { PolicyGate } from "./gate.ts";

/** Time as the hold sees it. */
export interface HoldClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const realClock: HoldClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** How a hold ended: approved with its token, or refused with the reason. */
export type HoldEnd = { approved: true; token: string } | { approved: false; reason: string };

/**
 * Waits for a held call's approval request to be decided.
 *
 * @example
 * ```ts
 * const end = await awaitApproval(gate, offer, { startedAt: Date.now(), clock: realClock, pollMs: 2_000 });
 * ```
 */
export async function awaitApproval(
  gate: PolicyGate,
  offer: Pick<ApprovalOffer, "request_id" | "timeout_seconds">,
  options: { startedAt: number; clock: HoldClock; pollMs: number; signal?: AbortSignal },
): Promise<HoldEnd> {
  const { clock, signal } = options;
  const deadline = options.startedAt + offer.timeout_seconds * 1000;
  for (;;) {
    if (signal?.aborted) return { approved: false, reason: "The hold was cancelled." };
    const status = await gate.poll(offer.request_id, signal);
    if (status?.status === "approved") {
      if (typeof status.approval_token === "string" && status.approval_token) {
        return { approved: true, token: status.approval_token };
      }
      return { approved: false, reason: "The approval came without a token." };
    }
    if (status?.status === "denied") {
      return {
        approved: false,
        reason: `An operator denied the call${status.reason ? `: ${status.reason}` : "."}`,
      };
    }
    if (status?.status === "expired") {
      return { approved: false, reason: status.reason || "The approval request expired." };
    }
    if (clock.now() >= deadline) {
      return {
        approved: false,
        reason: `No approval arrived within ${offer.timeout_seconds} seconds.`,
      };
    }
    await clock.sleep(Math.min(options.pollMs, Math.max(0, deadline - clock.now())), signal);
  }
}
