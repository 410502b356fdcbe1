/**
 * The Tether wire protocol, shared by the browser SDK and the server: the
 * host_context contract (version 1), the message body, the Socket.IO/SSE
 * events and a small JSON Schema validator for tool arguments.
 *
 * Parsers never throw. They return `{ok: true, value}` with the canonical
 * snake_case form, or `{ok: false, issues}` where each issue names the field
 * path and says what to do; {@linkcode formatIssues} joins them into one
 * message. camelCase keys are accepted for the contract's own fields; the
 * host's own objects (view.data, view.state, background, extensions, action
 * parameters) pass through verbatim.
 *
 * The only dependency is `zod/mini`; nothing here touches the DOM or Node.
 *
 * @example
 * ```ts
 * import { formatIssues, parseHostContext } from "@tether/web/protocol";
 *
 * const result = parseHostContext({ view: { name: "tasks" }, capturedAt: new Date().toISOString() });
 * if (result.ok) send(result.value);
 * else console.error(formatIssues(result.issues, "host_context"));
 * ```
 *
 * @module
 */
export * from "./version.ts";
export { SESSION_ID, SESSION_ID_RULE } from "./_id.ts";
export * from "./issues.ts";
export * from "./host_context.ts";
export * from "./host_info.ts";
export * from "./view.ts";
export * from "./navigation_target.ts";
export * from "./host_action.ts";
export * from "./attachment.ts";
export * from "./limits.ts";
export * from "./message_body.ts";
export * from "./message_config.ts";
export * from "./client_payloads.ts";
export * from "./events.ts";
export * from "./final_response.ts";
export * from "./display.ts";
export * from "./pending_kinds.ts";
export * from "./verdict.ts";
export * from "./error_type.ts";
export * from "./chat_result.ts";
export * from "./session_view.ts";
export * from "./session_list.ts";
export * from "./inspection.ts";
export * from "./json_schema.ts";
export * from "./json_schema_bounds.ts";
