/**
 * `createRuntime(options)`: the Hono app that speaks the host contract over
 * HTTP. It sees only Request and Response, so it runs unchanged on Node, on
 * Deno and inside a team's own Hono server.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import { formatIssues, SESSION_ID, SESSION_ID_RULE } from "../protocol/mod.ts";
import { parseBody } from "./http/message_body.ts";
import { resolveOptions, type RuntimeOptions } from "./config.ts";
import { Engine } from "./engine.ts";
import { authenticate, originAllowed } from "./http/access.ts";
import { readJson } from "./http/body.ts";
import { clientKey } from "./http/client_key.ts";
import { TetherError, validationError } from "./http/errors.ts";
import type { Principal } from "./http/principal.ts";
import { modelFromSpec, profileOfModel } from "./model/mod.ts";
import { asLanguageModelV3, type ModelObject } from "./model/ai_sdk7.ts";
import { streamTurn } from "./transports/sse.ts";
import { corsFor } from "./http/cors.ts";
import { parseAfter, streamSessionEvents } from "./transports/sse_resume.ts";
import { runAgui } from "./transports/agui.ts";
import { aguiCapabilities } from "./transports/_agui_capabilities.ts";
import { integrationRoutes } from "./remote-tools/routes.ts";
import { registerConfiguredSecrets } from "./secrets.ts";
import { ConfigError } from "./env.ts";
import { createPolicy } from "./policy/setup.ts";
import { resolvePolicyOptions } from "./policy/options.ts";
import { policyServiceRoutes } from "./policy/service_routes.ts";
import { approvalRoutes } from "./policy/approval_routes.ts";
import { tracerFromEnv } from "./trace/from_env.ts";
import { inspectSession } from "./inspect/route.ts";

/** Where Zentinelle's operator inbox lives; Tether answers there too. */
const ZENTINELLE_OPERATOR_PATHS = [
  "/api/zentinelle/v1/approvals/requests",
  "/api/zentinelle/v1/approvals/requests/:id/decision",
];

/** The variables the routes share. */
export type RuntimeEnv = { Variables: { principal: Principal; engine: Engine } };

/** The runtime app: a Hono app plus the engine behind it and a way to release it. */
export type TetherApp = Hono<RuntimeEnv> & {
  /** Resolves once the store is open and the model chosen. */
  engine(): Promise<Engine>;
  /** Closes the store. */
  close(): Promise<void>;
};

/** A model given as an object, AI SDK 7's (v4) wrapped for AI SDK 6; any other version refused. */
function objectModel(given: ModelObject, name: string | undefined, openaiStore: boolean) {
  let model;
  try {
    model = asLanguageModelV3(given);
  } catch (error) {
    throw new ConfigError(`model: ${(error as Error).message}`);
  }
  return {
    model,
    name: name ?? model.modelId,
    providerOptions: undefined,
    profile: profileOfModel(model, { openaiStore }),
  };
}

/**
 * Builds the engine for resolved options (opens the store, picks the model).
 *
 * @example
 * ```ts
 * const engine = await createEngine(resolveOptions({ storeUrl: "memory:", model: "offline" }));
 * ```
 */
export async function createEngine(options: RuntimeOptions): Promise<Engine> {
  // Loaded on demand so a runtime given a store never loads the database drivers.
  const store = options.store ??
    (await (await import("./kv/from_url.ts")).storeFromUrl(options.storeUrl));
  const openaiStore = options.modelOptions.openaiStore;
  const model = typeof options.model === "string"
    ? modelFromSpec(options.model, options.env, { openaiStore })
    : objectModel(options.model, options.modelName, openaiStore);
  const engine = new Engine(store, options, model as never);
  const tooLong = engine.configuredToolIssues(engine.model);
  if (tooLong.length) throw new ConfigError(tooLong[0].message);
  if (options.history.summaryModel) {
    // Checked now, not at the first compaction: a missing key is a setup error, not a turn's.
    try {
      modelFromSpec(options.history.summaryModel, options.env, { openaiStore });
    } catch (error) {
      throw new ConfigError(
        `HISTORY__SUMMARY_MODEL: ${(error as Error).message.replace(/MODEL__DEFAULT/g, "it")}`,
      );
    }
  }
  try {
    engine.usePolicy(
      await createPolicy(resolvePolicyOptions(options.gate), store, options.logger, {
        release: (sid, callId, verdict) => engine.resumeHeld(sid, callId, verdict),
      }),
    );
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (options.debug.inspect) {
    options.logger.warn(
      "DEBUG__INSPECT is on: each session's owner can read what the model was given (GET /api/sessions/{id}/inspect); turn it off outside development",
    );
  }
  const tracer = tracerFromEnv(options.env, options.logger);
  if (tracer) engine.useTracer(tracer);
  await engine.start();
  try {
    await engine.policy?.start();
  } catch (error) {
    // A policy service Tether cannot work with stops the start, leaving nothing open.
    await engine.stop();
    await engine.store.close();
    throw new ConfigError((error as Error).message);
  }
  return engine;
}

/**
 * Creates the runtime's Hono app.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * import { createRuntime } from "@tether/runtime";
 * const tether = createRuntime({ storeUrl: "memory:", model: "offline" });
 * const app = new Hono().route("/assistant", tether);
 * ```
 */
export function createRuntime(partial: Partial<RuntimeOptions> = {}): TetherApp {
  const options = resolveOptions(partial);
  registerConfiguredSecrets(options);
  let ready: Promise<Engine> | null = null;
  const engine = () => (ready ??= createEngine(options));
  const app = new Hono<RuntimeEnv>();

  app.onError((error, c) => {
    if (error instanceof TetherError) {
      // A body that did not arrive in time leaves the connection in an unknown state: close it.
      if (error.status === 408) c.header("connection", "close");
      return c.json(error.toJSON(), error.status as 400);
    }
    options.logger.error("internal error on an HTTP request", {
      method: c.req.method,
      path: c.req.path,
      error,
    });
    return c.json({
      error: {
        type: "internal",
        message: "The runtime failed on this request; it has been logged.",
      },
    }, 500);
  });
  app.notFound((c) =>
    c.json(
      { error: { type: "not_found", message: `No route for ${c.req.method} ${c.req.path}.` } },
      404,
    )
  );

  app.get("/health", async (c) => {
    const e = await engine();
    return c.json({
      status: "ok",
      model: e.model.name,
      offline: e.model.name === "offline",
      store: e.store.name,
      ...(e.policy ? { policy: e.policy.status() } : {}),
      // Whether the inspector's route is on (DEBUG__INSPECT), so a page can offer it.
      inspect: e.options.debug.inspect,
    });
  });

  // The same access rules for the chat API and the integration routes.
  const guard: MiddlewareHandler<RuntimeEnv> = async (c, next) => {
    const state = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    if (state && !originAllowed(c.req.header("origin"), options.access.corsOrigins)) {
      throw new TetherError(
        403,
        "forbidden",
        `Origin ${
          c.req.header("origin")
        } may not change state here; add it to ACCESS__CORS_ORIGINS.`,
      );
    }
    c.set(
      "principal",
      await authenticate(options.access, { headers: c.req.raw.headers, request: c.req.raw }),
    );
    c.set("engine", await engine());
    await next();
  };
  // Zentinelle's operator routes, with Tether's operators, ahead of its agent-key routes;
  // a refused credential answers as Zentinelle's would (`{"detail": ...}`).
  const zentinelleGuard: MiddlewareHandler<RuntimeEnv> = async (c, next) => {
    try {
      await guard(c, next);
    } catch (error) {
      if (!(error instanceof TetherError) || (error.status !== 401 && error.status !== 403)) {
        throw error;
      }
      return c.json({ detail: error.message }, error.status);
    }
  };
  for (const path of ZENTINELLE_OPERATOR_PATHS) {
    app.use(path, corsFor(options.access));
    app.use(path, zentinelleGuard);
  }
  app.route("/api/zentinelle/v1/approvals/requests", approvalRoutes("zentinelle"));
  // Other agent hosts authenticate with X-Zentinelle-Key, not with Tether's access rules.
  app.route("/api/zentinelle/v1", policyServiceRoutes(async () => (await engine()).policy));
  for (const path of ["/api/*", "/v1/*"]) {
    app.use(path, corsFor(options.access));
    app.use(path, guard);
  }
  app.route("/v1/integrations", integrationRoutes(options));

  app.post("/api/chat", async (c) => {
    const raw = await readJson(c.req.raw, options.limits, clientKey(c));
    const parsed = parseBody(raw);
    if (!parsed.ok) throw validationError(formatIssues(parsed.issues), parsed.issues);
    const e = c.get("engine");
    if ((c.req.header("accept") ?? "").includes("text/event-stream")) {
      return streamTurn(e, c.get("principal"), parsed.value);
    }
    return c.json(await e.chat(c.get("principal"), parsed.value));
  });

  app.post(
    "/api/chat/:id/cancel",
    async (c) => c.json(await c.get("engine").cancel(c.get("principal"), sid(c))),
  );
  // A principal's conversations (server/session/conversations.ts).
  app.get("/api/sessions", async (c) => {
    return c.json(await c.get("engine").conversations.list(c.get("principal"), c.req.query()));
  });
  app.patch("/api/sessions/:id", async (c) => {
    const body = await readJson(c.req.raw, options.limits, clientKey(c));
    return c.json(await c.get("engine").conversations.patch(c.get("principal"), sid(c), body));
  });
  app.get(
    "/api/sessions/:id",
    async (c) => {
      try {
        return c.json(await c.get("engine").session(c.get("principal"), sid(c)));
      } catch (error) {
        // `?missing=null`: a page asking about a session it may not have started yet gets
        // 200 `null`, not a 404 its browser logs as an error. Without it, 404 as always.
        // Another principal's session answers the same `null`, so the answer never tells a
        // stranger which ids are taken (the id stays unusable to them: 403 on every other route).
        const status = (error as { status?: number }).status;
        if (c.req.query("missing") === "null" && (status === 404 || status === 403)) {
          return c.json(null);
        }
        throw error;
      }
    },
  );
  // Only with DEBUG__INSPECT=true, only for the session's owner (server/inspect/route.ts).
  app.get("/api/sessions/:id/inspect", async (c) => {
    return c.json(await inspectSession(c.get("engine"), c.get("principal"), sid(c)));
  });
  app.get("/api/sessions/:id/messages", async (c) => {
    return c.json({
      session_id: sid(c),
      ...(await c.get("engine").messages(c.get("principal"), sid(c))),
    });
  });
  app.get("/api/sessions/:id/events", (c) => {
    const after = c.req.header("last-event-id") !== undefined
      ? parseAfter(c.req.header("last-event-id"), "Last-Event-ID")
      : parseAfter(c.req.query("after"), "after");
    return streamSessionEvents(c.get("engine"), c.get("principal"), sid(c), after);
  });
  app.post("/api/agui", async (c) => {
    return runAgui(
      c.get("engine"),
      c.get("principal"),
      await readJson(c.req.raw, options.limits, clientKey(c)),
    );
  });
  app.get("/api/agui/capabilities", (c) => c.json(aguiCapabilities()));
  app.route("/api/approvals", approvalRoutes());
  app.delete("/api/sessions/:id", async (c) => {
    await c.get("engine").deleteSession(c.get("principal"), sid(c));
    return c.json({ deleted: true, session_id: sid(c) });
  });

  return Object.assign(app, {
    engine,
    async close() {
      if (!ready) return;
      const engine = await ready;
      await engine.stop();
      await engine.store.close();
    },
  });
}

function sid(c: Context<RuntimeEnv>): string {
  const id = c.req.param("id") ?? "";
  if (!SESSION_ID.test(id)) {
    throw validationError(SESSION_ID_RULE, [{ path: "session_id", message: SESSION_ID_RULE }]);
  }
  return id;
}
