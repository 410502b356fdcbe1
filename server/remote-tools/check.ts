/**
 * `check-host`: calls a tool server as the runtime would and reports every
 * way it departs from the remote tools contract: the secret (401 on a wrong
 * or missing one), the tool list (verbs, names, schemas of type object), the
 * context, previews (and that they change nothing the server shows), `get`
 * executes, and the error format.
 *
 * @module
 */
import type { JsonSchema } from "../../protocol/mod.ts";
import { parseContext, parseTools, type RemoteToolSpec } from "./shapes.ts";

/** One check and how it went. */
export interface Finding {
  /** A stable id, like `auth.wrong_secret`. */
  check: string;
  ok: boolean;
  detail: string;
}

const SCOPE = {
  workspaceId: "check-host",
  externalUserId: "check-host-user",
  permissions: ["check:read"],
  requestId: "req_check_host",
};
const QUERY =
  "workspaceId=check-host&externalUserId=check-host-user&permissions=check%3Aread&requestId=req_check_host";

/** Arguments that satisfy the simple parts of a schema: required properties with sample values. */
function sample(schema: JsonSchema): unknown {
  if (typeof schema !== "object" || schema === null) return {};
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ("const" in s) return s.const;
  switch (s.type) {
    case "string":
      return "check-host";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object": {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const key of (s.required as string[] | undefined) ?? []) {
        out[key] = sample(props[key] ?? {});
      }
      return out;
    }
  }
  return null;
}

/**
 * Checks a tool server; resolves with every finding (passed and failed).
 *
 * @example
 * ```ts
 * const findings = await checkHost("http://127.0.0.1:7200/assistant", "the-shared-secret");
 * const faults = findings.filter((f) => !f.ok);
 * ```
 */
export async function checkHost(
  baseUrl: string,
  secret: string,
  timeoutMs = 10_000,
): Promise<Finding[]> {
  const base = baseUrl.replace(/\/+$/, "");
  const findings: Finding[] = [];
  const note = (check: string, ok: boolean, detail: string) => findings.push({ check, ok, detail });
  const send = async (method: string, path: string, auth: string | null, body?: unknown) => {
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(auth === null ? {} : { authorization: `Bearer ${auth}` }),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined
          ? undefined
          : typeof body === "string"
          ? body
          : JSON.stringify(body),
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch { /* not JSON */ }
      return { status: res.status, json, text };
    } catch (error) {
      return { status: 0, json: undefined, text: (error as Error).message };
    }
  };
  const errorBody = (json: unknown) => typeof (json as { error?: unknown })?.error === "string";
  const refusal = async (
    check: string,
    method: string,
    path: string,
    auth: string | null,
    body?: unknown,
  ) => {
    const r = await send(method, path, auth, body);
    note(
      check,
      r.status === 401 && errorBody(r.json),
      r.status === 401
        ? errorBody(r.json) ? "401 with an error body" : '401, but the body is not {"error": "..."}'
        : `expected 401, got ${r.status || r.text}`,
    );
  };
  const wrong = `${secret}-wrong`;
  await refusal("auth.wrong_secret", "GET", `/tools?${QUERY}`, wrong);
  await refusal("auth.missing_secret", "GET", `/tools?${QUERY}`, null);
  await refusal("auth.wrong_secret_post", "POST", "/tools/preview", wrong, {
    tool: "x",
    callId: "c",
    arguments: {},
    execution: SCOPE,
  });

  const listed = await send("GET", `/tools?${QUERY}`, secret);
  let tools: RemoteToolSpec[] = [];
  if (listed.status !== 200) {
    note("tools.status", false, `GET /tools answered ${listed.status || listed.text}`);
  } else {
    try {
      const parsed = parseTools(listed.json);
      tools = parsed.tools;
      note(
        "tools.shape",
        parsed.skipped.length === 0,
        parsed.skipped.length
          ? `tools that break the contract: ${parsed.skipped.join("; ")}`
          : `${tools.length} tools, each with a name, a description, a verb and an object schema`,
      );
    } catch (error) {
      note("tools.shape", false, (error as Error).message);
    }
  }
  const context = async () => {
    const r = await send("GET", `/context?${QUERY}`, secret);
    try {
      return r.status === 200 ? JSON.stringify(parseContext(r.json)) : null;
    } catch {
      return null;
    }
  };
  const before = await context();
  note(
    "context.shape",
    before !== null,
    before !== null
      ? "GET /context answers a JSON object"
      : "GET /context must answer 200 with a JSON object",
  );

  const listBefore = JSON.stringify(listed.json);
  for (const tool of tools.filter((t) => t.verb !== "get")) {
    const r = await send("POST", "/tools/preview", secret, {
      tool: tool.name,
      callId: "call_check_host",
      arguments: sample(tool.inputSchema),
      execution: SCOPE,
    });
    const ok = r.status === 200 && typeof (r.json as { preview?: unknown })?.preview === "string";
    note(
      `preview.${tool.name}`,
      ok,
      ok
        ? "POST /tools/preview answers {preview}"
        : `POST /tools/preview answered ${r.status || r.text}, not 200 {"preview": "..."}`,
    );
  }
  const after = await context();
  const listAfter = JSON.stringify((await send("GET", `/tools?${QUERY}`, secret)).json);
  const unchanged = before !== null && before === after && listBefore === listAfter;
  note(
    "preview.no_side_effects",
    unchanged,
    unchanged
      ? "the context and the tool list are unchanged after the previews"
      : before === null
      ? "could not be observed: GET /context did not answer"
      : "the context or the tool list changed after previews: a preview must not do anything",
  );

  for (const tool of tools.filter((t) => t.verb === "get")) {
    const r = await send("POST", "/tools/execute", secret, {
      tool: tool.name,
      callId: "call_check_host",
      arguments: sample(tool.inputSchema),
      execution: SCOPE,
    });
    const ok = r.status === 200 && !!r.json && typeof r.json === "object" && "output" in r.json;
    note(
      `execute.${tool.name}`,
      ok,
      ok
        ? "POST /tools/execute answers {output}"
        : `POST /tools/execute answered ${r.status || r.text}, not 200 {"output": ...}`,
    );
  }

  const unknown = await send("POST", "/tools/preview", secret, {
    tool: "no_such_tool_check_host",
    callId: "c",
    arguments: {},
    execution: SCOPE,
  });
  note(
    "errors.unknown_tool",
    unknown.status === 404 && errorBody(unknown.json),
    unknown.status === 404
      ? errorBody(unknown.json)
        ? "404 with an error body"
        : '404, but the body is not {"error": "..."}'
      : `an unknown tool must be a 404 {"error"}, got ${unknown.status}`,
  );
  const target = tools[0];
  if (target) {
    const bad = await send("POST", "/tools/preview", secret, {
      tool: target.name,
      callId: "c",
      arguments: "not an object",
      execution: SCOPE,
    });
    note(
      "errors.bad_arguments",
      bad.status === 400 && errorBody(bad.json),
      bad.status === 400
        ? errorBody(bad.json)
          ? "400 with an error body"
          : '400, but the body is not {"error": "..."}'
        : `arguments that break the schema must be a 400 {"error"}, got ${bad.status}`,
    );
  }
  return findings;
}
