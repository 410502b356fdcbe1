/**
 * `GET /api/sessions/{id}/inspect`: what the inspector shows of a session,
 * for its owner alone (not even the admin role: it holds what the owner's
 * page told the model), and only while `DEBUG__INSPECT=true`; otherwise the
 * route answers 404 and says how to turn it on.
 *
 * @module
 */
import type { Engine } from "../engine.ts";
import { forbidden, notFound, TetherError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { inspection, type InspectionView } from "./inspections.ts";

/**
 * The inspection of a session, or the refusal.
 *
 * @example
 * ```ts
 * const view = await inspectSession(engine, principal, "s1");
 * ```
 */
export async function inspectSession(
  engine: Engine,
  principal: Principal,
  sessionId: string,
): Promise<InspectionView> {
  if (!engine.options.debug.inspect) {
    throw new TetherError(
      404,
      "not_found",
      "Inspection is off on this runtime; start it with DEBUG__INSPECT=true to inspect sessions.",
    );
  }
  const entry = await engine.repo.record(sessionId);
  if (!entry) throw notFound(sessionId);
  if (entry.value.owner_id !== principal.id) throw forbidden(sessionId);
  return await inspection(engine.store, entry.value);
}
