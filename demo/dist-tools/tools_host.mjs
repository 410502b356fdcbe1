// demo/tools_host.ts
import { serve } from "@hono/node-server";

// server/remote-tools/host.ts
import { Hono } from "hono";

// protocol/version.ts
var HOST_CONTEXT_VERSION = 1;

// protocol/_id.ts
import * as z from "zod/mini";
function idSchema(field, max = 64) {
  return z.string().check(
    z.minLength(1, { error: `${field} must not be empty; send 1 to ${max} characters.` }),
    z.maxLength(max, { error: `${field} is longer than ${max} characters; send a shorter one.` })
  );
}
var SESSION_ID = /^[A-Za-z0-9._:-]{1,64}$/;
var SESSION_ID_RULE = "session_id may only hold letters, digits, '.', '_', ':' and '-' (1 to 64 of them); choose such an id.";
function sessionIdSchema() {
  return idSchema("session_id").check(z.regex(SESSION_ID, { error: SESSION_ID_RULE }));
}

// protocol/host_context.ts
import * as z8 from "zod/mini";

// protocol/_keys.ts
import * as z2 from "zod/mini";

// protocol/_values.ts
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return Number.isInteger(value) ? "a whole number" : "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
function label(path, root) {
  const last = path[path.length - 1];
  if (last === void 0) return root;
  if (typeof last !== "number") return String(last);
  const parent = path[path.length - 2];
  return `${parent === void 0 ? root : String(parent)}[${last}]`;
}

// protocol/_keys.ts
function camelCase(snake) {
  return snake.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}
function put(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true
    });
  } else {
    target[key] = value;
  }
}
function contractObject(shape, options = {}) {
  const spellings = /* @__PURE__ */ new Map();
  for (const key of Object.keys(shape)) {
    spellings.set(key, key);
    spellings.set(camelCase(key), key);
  }
  const normalise = z2.transform((input, ctx) => {
    if (!isObject(input)) return input;
    const out = {};
    const sentAs = /* @__PURE__ */ new Map();
    const report = (path, message) => {
      ctx.issues.push({ code: "custom", message, input, path });
    };
    for (const key of Object.keys(input)) {
      const value = input[key];
      const canonical = spellings.get(key);
      if (canonical === void 0) {
        put(out, key, value);
        continue;
      }
      if (value === null) continue;
      const earlier = sentAs.get(canonical);
      if (earlier !== void 0) {
        report(
          [canonical],
          `${canonical} was sent twice, as ${earlier} and as ${key}; send it under one spelling only.`
        );
        continue;
      }
      sentAs.set(canonical, key);
      put(out, canonical, value);
    }
    options.adjust?.(out, report);
    return out;
  });
  return z2.pipe(normalise, z2.strictObject(shape));
}
function hostObject() {
  return z2.custom(isObject, { params: { expected: "object" } });
}

// protocol/attachment.ts
import * as z3 from "zod/mini";

// protocol/limits.ts
var HOST_CONTEXT_LIMITS = {
  /** Characters of JSON in view.data, view.state and extensions together. */
  json_chars: 32e3,
  /** Navigation targets. */
  navigation: 50,
  /** Actions. */
  actions: 32,
  /** Attachments, legacy screenshots included. */
  attachments: 16,
  /** Characters in one attachment's data_uri, url or text. */
  attachment_chars: 12e6
};
function jsonChars(value) {
  return value === void 0 ? 0 : (JSON.stringify(value) ?? "").length;
}
function counted(list, path, max, what, advice) {
  if (!list || list.length <= max) return [];
  return [{
    path,
    message: `${path} has ${list.length} ${what}, over the limit of ${max}; ${advice}.`
  }];
}
function checkHostContextLimits(context) {
  const issues = [
    ...counted(
      context.navigation,
      "navigation",
      HOST_CONTEXT_LIMITS.navigation,
      "targets",
      "keep the ones that matter most"
    ),
    ...counted(
      context.actions,
      "actions",
      HOST_CONTEXT_LIMITS.actions,
      "actions",
      "offer only those that fit this view"
    ),
    ...counted(
      context.attachments,
      "attachments",
      HOST_CONTEXT_LIMITS.attachments,
      "attachments (legacy screenshots included)",
      "attach fewer"
    )
  ];
  context.attachments?.forEach((attachment, index) => {
    for (const key of ["data_uri", "url", "text"]) {
      if ((attachment[key]?.length ?? 0) > HOST_CONTEXT_LIMITS.attachment_chars) {
        issues.push({
          path: `attachments.${index}.${key}`,
          message: `${key} is longer than ${grouped(HOST_CONTEXT_LIMITS.attachment_chars)} characters; send a smaller file or link it by url.`
        });
      }
    }
  });
  const parts = {
    "view.data": context.view?.data,
    "view.state": context.view?.state,
    extensions: context.extensions
  };
  let total = 0;
  let largest = "view.data";
  let largestChars = -1;
  for (const [path, value] of Object.entries(parts)) {
    let chars;
    try {
      chars = jsonChars(value);
    } catch {
      issues.push({
        path,
        message: `${path} must be plain JSON (no cycles, no BigInt); remove what JSON cannot hold.`
      });
      continue;
    }
    total += chars;
    if (chars > largestChars) [largest, largestChars] = [path, chars];
  }
  if (total > HOST_CONTEXT_LIMITS.json_chars) {
    issues.push({
      path: largest,
      message: `view.data, view.state and extensions together take ${grouped(total)} characters of JSON, over the limit of ${grouped(HOST_CONTEXT_LIMITS.json_chars)}; send only what the model needs.`
    });
  }
  return issues;
}

// protocol/attachment.ts
var MAX_ATTACHMENT_CHARS = HOST_CONTEXT_LIMITS.attachment_chars;
var DATA_URI_HEAD = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[^,;]*)*,/;
function isDataUri(value, options = {}) {
  if (options.image && !value.startsWith("data:image/")) return false;
  return DATA_URI_HEAD.test(value.slice(0, 512));
}
var tooLong = (field) => `${field} is longer than ${grouped(MAX_ATTACHMENT_CHARS)} characters; send a smaller file or link it by url.`;
var content = (field) => z3.string().check(z3.maxLength(MAX_ATTACHMENT_CHARS, { error: tooLong(field) }));
var CONTENTS = ["data_uri", "url", "text"];
var attachmentSchema = z3.pipe(
  contractObject({
    kind: z3._default(z3.enum(["image", "document", "text"]), "image"),
    purpose: z3._default(z3.enum(["reference", "screenshot"]), "reference"),
    data_uri: z3.optional(
      content("data_uri").check(z3.refine((v) => isDataUri(v), {
        error: "data_uri must be a data URI such as data:image/png;base64,...; encode the content or send it by url."
      }))
    ),
    url: z3.optional(content("url").check(z3.minLength(1))),
    text: z3.optional(content("text")),
    name: z3.optional(z3.string()),
    description: z3.optional(z3.string()),
    media_type: z3.optional(z3.string())
  }),
  z3.transform((value, ctx) => {
    const given = CONTENTS.filter((key) => value[key] !== void 0);
    if (given.length !== 1) {
      const sent = given.length === 0 ? "none was given" : `${given.join(" and ")} were given`;
      ctx.issues.push({
        code: "custom",
        input: value,
        path: [],
        message: `an attachment needs exactly one of data_uri, url or text, but ${sent}; send exactly one.`
      });
    } else if (value.purpose === "screenshot" && (value.kind !== "image" || !value.data_uri?.startsWith("data:image/"))) {
      ctx.issues.push({
        code: "custom",
        input: value,
        path: [],
        message: "a screenshot attachment must be kind image with an image data URI (data:image/...) in data_uri; send it that way or use purpose reference."
      });
    }
    return value;
  })
);
var legacyImageSchema = content("the image data URI").check(
  z3.refine((v) => isDataUri(v, { image: true }), {
    error: (iss) => `${label(iss.path ?? [], "screenshot")} must be an image data URI (data:image/...); encode the image that way or use attachments.`
  })
);
function withLegacyScreenshots(attachments, images, screenshot) {
  if (!images?.length && screenshot === void 0) return attachments;
  const out = attachments ? [...attachments] : [];
  const legacy = screenshot === void 0 ? images ?? [] : [...images ?? [], screenshot];
  for (const data_uri of legacy) out.push({ kind: "image", purpose: "screenshot", data_uri });
  return out;
}

// protocol/host_action.ts
import * as z4 from "zod/mini";
var ACTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
var PARAMETERS_RULE = 'parameters must be a JSON schema with "type": "object" (such as {"type": "object", "properties": {}}); wrap the arguments in an object schema.';
function isObjectSchema(value) {
  if (!isObject(value) || value.type !== "object") return false;
  return value.properties === void 0 || isObject(value.properties);
}
var hostActionSchema = contractObject({
  name: z4.string().check(z4.regex(ACTION_NAME, {
    error: (iss) => `action name ${JSON.stringify(iss.input)} must be 1-64 letters, digits, underscores or hyphens; rename it (for example select_issue).`
  })),
  description: z4.string().check(z4.minLength(1, {
    error: "description must not be empty; tell the model what the action does."
  })),
  parameters: z4._default(
    z4.custom(isObjectSchema, { error: PARAMETERS_RULE }),
    () => ({ type: "object", properties: {} })
  )
});
var hostActionListSchema = z4.array(hostActionSchema).check(z4.superRefine((actions, ctx) => {
  const seen = /* @__PURE__ */ new Set();
  for (const action of actions) {
    if (seen.has(action.name)) {
      ctx.addIssue({
        code: "custom",
        input: actions,
        message: `action name "${action.name}" is declared more than once; give each action its own name.`
      });
    }
    seen.add(action.name);
  }
}));

// protocol/host_info.ts
import * as z5 from "zod/mini";
var HOST_KINDS = ["browser", "mobile", "desktop", "terminal", "service", "other"];
var hostInfoSchema = contractObject({
  name: z5.optional(z5.string()),
  kind: z5.optional(z5.enum(HOST_KINDS)),
  version: z5.optional(z5.string())
});

// protocol/navigation_target.ts
import * as z6 from "zod/mini";
var navigationTargetSchema = contractObject({
  name: z6.string().check(z6.minLength(1)),
  description: z6.optional(z6.string())
});

// protocol/view.ts
import * as z7 from "zod/mini";
var viewSchema = contractObject({
  name: z7.string().check(z7.minLength(1)),
  description: z7.optional(z7.string()),
  data: z7.optional(hostObject()),
  state: z7.optional(hostObject())
}, {
  adjust(value, report) {
    if (value.actions !== void 0) {
      report(
        ["actions"],
        "view.actions is the old place for actions and is no longer read; declare them in host_context.actions instead."
      );
    }
  }
});

// protocol/host_context.ts
var version = z8.literal(HOST_CONTEXT_VERSION, {
  error: (iss) => `version ${JSON.stringify(iss.input)} is not supported; this runtime speaks host_context version 1, so send version 1 or leave it out.`
});
var capturedAt = z8.iso.datetime({
  offset: true,
  local: true,
  error: "captured_at must be an ISO 8601 date-time such as 2026-09-05T10:00:00Z; send the capture time in that form."
});
function pageAlias(value, report) {
  if (!Object.hasOwn(value, "page")) return;
  const page = value.page;
  delete value.page;
  if (page === null) return;
  if (value.view === void 0) value.view = page;
  else {
    report(
      ["page"],
      "page and view were both sent, but page is another name for view; send only view."
    );
  }
}
var fields = contractObject({
  version: z8.optional(version),
  host: z8.optional(hostInfoSchema),
  view: z8.optional(viewSchema),
  navigation: z8.optional(z8.array(navigationTargetSchema)),
  actions: z8.optional(hostActionListSchema),
  attachments: z8.optional(z8.array(attachmentSchema)),
  images: z8.optional(z8.array(legacyImageSchema)),
  screenshot: z8.optional(legacyImageSchema),
  background: z8.optional(z8.record(z8.string(), hostObject())),
  captured_at: z8.optional(capturedAt),
  extensions: z8.optional(hostObject())
}, { adjust: pageAlias });
var hostContextSchema = z8.pipe(
  fields,
  z8.transform((value, ctx) => {
    const { version: _version, images, screenshot, ...rest } = value;
    const context = { version: HOST_CONTEXT_VERSION, ...rest };
    const attachments = withLegacyScreenshots(rest.attachments, images, screenshot);
    if (attachments) context.attachments = attachments;
    for (const issue of checkHostContextLimits(context)) {
      const path = issue.path === "" ? [] : issue.path.split(".");
      ctx.issues.push({ code: "custom", message: issue.message, input: value, path });
    }
    return context;
  })
);

// protocol/message_body.ts
import * as z10 from "zod/mini";

// protocol/message_config.ts
import * as z9 from "zod/mini";
var count = (field, min) => {
  const error = `${field} must be a whole number of at least ${min}; send such a limit or leave it out.`;
  return z9.int({ error }).check(z9.minimum(min, { error }));
};
var messageConfigSchema = contractObject({
  max_model_requests: z9.optional(count("max_model_requests", 1)),
  max_tool_calls: z9.optional(count("max_tool_calls", 0)),
  tool_timeout_ms: z9.optional(count("tool_timeout_ms", 1)),
  model: z9.optional(z9.string().check(z9.minLength(1)))
});

// protocol/message_body.ts
var fields2 = contractObject({
  id: z10.optional(idSchema("id")),
  session_id: sessionIdSchema(),
  content: z10.string(),
  message_type: z10._default(z10.enum(["standard", "steering"]), "standard"),
  output_mode: z10._default(z10.enum(["text", "host_tools"]), "text"),
  host_context: z10.optional(hostContextSchema),
  attachments: z10.optional(z10.array(attachmentSchema)),
  images: z10.optional(z10.array(legacyImageSchema)),
  screenshot: z10.optional(legacyImageSchema),
  // Call ids come from model providers, whose formats vary; 256 leaves room.
  tool_call_id: z10.optional(idSchema("tool_call_id", 256)),
  tool_result: z10.optional(z10.unknown()),
  tool_outcome: z10.optional(z10.enum(["success", "failed"])),
  config: z10.optional(messageConfigSchema)
});
var messageBodySchema = z10.pipe(
  fields2,
  z10.transform((value, ctx) => {
    const { images, screenshot, attachments, ...rest } = value;
    const body = {
      ...rest,
      attachments: withLegacyScreenshots(attachments, images, screenshot) ?? []
    };
    const report = (path, message) => ctx.issues.push({ code: "custom", message, input: value, path: [path] });
    if (body.attachments.length > HOST_CONTEXT_LIMITS.attachments) {
      report(
        "attachments",
        `attachments has ${body.attachments.length} entries (legacy screenshots included), over the limit of ${HOST_CONTEXT_LIMITS.attachments}; attach fewer.`
      );
    }
    if (body.tool_call_id !== void 0) {
      body.tool_result ??= null;
      body.tool_outcome ??= "success";
    } else if (body.tool_outcome !== void 0) {
      report(
        "tool_outcome",
        "tool_outcome was sent without tool_call_id; add the id of the pending call it reports on."
      );
    } else if (body.tool_result !== void 0 && body.tool_result !== null) {
      report(
        "tool_result",
        "tool_result was sent without tool_call_id; add the id of the pending call it answers."
      );
    }
    return body;
  })
);

// protocol/client_payloads.ts
import * as z11 from "zod/mini";
var joinSchema = contractObject({
  session_id: sessionIdSchema(),
  host_context: z11.optional(hostContextSchema)
});
var cancelSchema = contractObject({
  session_id: sessionIdSchema()
});

// protocol/_json_values.ts
var patterns = /* @__PURE__ */ new Map();
function pattern(source) {
  let compiled = patterns.get(source);
  if (compiled !== void 0) return compiled;
  try {
    compiled = new RegExp(source, "u");
  } catch {
    compiled = null;
  }
  if (patterns.size > 256) patterns.clear();
  patterns.set(source, compiled);
  return compiled;
}
function hasType(value, type) {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true;
  }
}
function equal(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]));
}
function codePoints(text) {
  let count2 = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 55296 && unit <= 56319) count2--;
  }
  return count2;
}
function resolvePointer(root, ref) {
  if (!ref.startsWith("#")) return void 0;
  let node = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) || Array.isArray(node) ? node[key] : void 0;
  }
  return typeof node === "boolean" || isObject(node) ? node : void 0;
}

// protocol/json_schema_bounds.ts
var JSON_SCHEMA_LIMITS = {
  /** Objects and arrays in one schema. */
  nodes: 2e3,
  /** Nesting of objects and arrays in one schema. */
  depth: 32,
  /** Characters of one `pattern`. */
  pattern_chars: 1e3,
  /** Schema nodes one validation may visit; also the most ways alternatives may combine. */
  steps: 1e4,
  /** Characters of a string checked against a `pattern`. */
  pattern_input: 4096
};

// protocol/_json_schema_budget.ts
var nativeMatcher = (source) => {
  const regex3 = pattern(source);
  return regex3 ? (text) => regex3.test(text) : null;
};
var OutOfSteps = class extends Error {
};
function newBudget(options) {
  const max = options.maxSteps ?? JSON_SCHEMA_LIMITS.steps;
  return {
    left: max,
    max,
    matcher: options.matcher ?? nativeMatcher,
    maxPatternInput: options.maxPatternInput ?? JSON_SCHEMA_LIMITS.pattern_input
  };
}

// protocol/json_schema.ts
var label2 = (path) => label(path, "the value");
var MAX_DEPTH = 128;
var TYPE_NOUNS = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null"
};
var Run = class _Run {
  issues = [];
  #root;
  #budget;
  constructor(root, budget) {
    this.#root = root;
    this.#budget = budget;
  }
  /** Charges work to the budget shared by every sub-run; throws once it is spent. */
  #spend(steps) {
    this.#budget.left -= steps;
    if (this.#budget.left < 0) throw new OutOfSteps();
  }
  /** A pattern test costs in proportion to the text it reads. */
  #matches(test, text) {
    this.#spend(1 + (text.length >> 6));
    return test(text);
  }
  report(path, message) {
    this.issues.push({ path: path.join("."), message });
  }
  check(schema, value, path, depth) {
    if (schema === true || schema === void 0) return;
    const field = label2(path);
    if (schema === false) return this.report(path, `${field} is not allowed here; remove it.`);
    if (!isObject(schema)) return;
    this.#spend(1);
    if (depth > MAX_DEPTH) {
      return this.report(
        path,
        `${field} is nested more than ${MAX_DEPTH} levels deep; flatten it.`
      );
    }
    if (typeof schema.$ref === "string") {
      const target = resolvePointer(this.#root, schema.$ref);
      if (target === void 0) {
        return this.report(
          path,
          `the schema for ${field} refers to ${schema.$ref}, which it does not define; fix the schema.`
        );
      }
      this.check(target, value, path, depth + 1);
    }
    if (schema.type !== void 0) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((type) => hasType(value, type))) {
        const nouns = types.map((type) => TYPE_NOUNS[String(type)] ?? String(type)).join(" or ");
        return this.report(
          path,
          `${field} must be ${nouns}, not ${describe(value)}; send ${nouns}.`
        );
      }
    }
    if (Array.isArray(schema.enum)) this.#spend(Math.ceil(schema.enum.length / 16));
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => equal(option, value))) {
      const options = schema.enum.map((option) => JSON.stringify(option)).join(", ");
      this.report(
        path,
        `${field} must be one of ${options}, not ${JSON.stringify(value)}; pick one of those.`
      );
    }
    if (Object.hasOwn(schema, "const") && !equal(schema.const, value)) {
      this.report(
        path,
        `${field} must be ${JSON.stringify(schema.const)}; send exactly that value.`
      );
    }
    if (typeof value === "string") this.#string(schema, value, path, field);
    else if (typeof value === "number") this.#number(schema, value, path, field);
    else if (Array.isArray(value)) this.#array(schema, value, path, field, depth);
    else if (isObject(value)) this.#object(schema, value, path, field, depth);
    this.#combinators(schema, value, path, field, depth);
  }
  #string(schema, value, path, field) {
    const { minLength: minLength7, maxLength: maxLength3 } = schema;
    if (typeof minLength7 === "number" || typeof maxLength3 === "number") {
      const length = codePoints(value);
      if (typeof minLength7 === "number" && length < minLength7) {
        this.report(
          path,
          `${field} must be at least ${grouped(minLength7)} characters long; lengthen it.`
        );
      }
      if (typeof maxLength3 === "number" && length > maxLength3) {
        this.report(
          path,
          `${field} must be at most ${grouped(maxLength3)} characters long; shorten it.`
        );
      }
    }
    if (typeof schema.pattern === "string") {
      const { matcher, maxPatternInput } = this.#budget;
      const test = value.length > maxPatternInput ? void 0 : matcher(schema.pattern);
      if (test === void 0) {
        this.report(
          path,
          `${field} is longer than ${grouped(maxPatternInput)} characters, too long to check against its pattern; shorten it.`
        );
      } else if (test === null) {
        this.report(
          path,
          `the schema's pattern for ${field} is not a valid regular expression; fix the schema.`
        );
      } else if (!this.#matches(test, value)) {
        this.report(path, `${field} must match the pattern ${schema.pattern}; change it to fit.`);
      }
    }
  }
  #number(schema, value, path, field) {
    const { minimum: minimum2, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
    if (typeof minimum2 === "number") {
      if (exclusiveMinimum === true ? value <= minimum2 : value < minimum2) {
        const bound = exclusiveMinimum === true ? "greater than" : "at least";
        this.report(path, `${field} must be ${bound} ${minimum2}; raise it.`);
      }
    }
    if (typeof maximum === "number") {
      if (exclusiveMaximum === true ? value >= maximum : value > maximum) {
        const bound = exclusiveMaximum === true ? "less than" : "at most";
        this.report(path, `${field} must be ${bound} ${maximum}; lower it.`);
      }
    }
    if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) {
      this.report(path, `${field} must be greater than ${exclusiveMinimum}; raise it.`);
    }
    if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum) {
      this.report(path, `${field} must be less than ${exclusiveMaximum}; lower it.`);
    }
    if (typeof multipleOf === "number" && multipleOf > 0) {
      const quotient = value / multipleOf;
      if (Math.abs(quotient - Math.round(quotient)) > 1e-9) {
        this.report(path, `${field} must be a multiple of ${multipleOf}; round it.`);
      }
    }
  }
  #array(schema, value, path, field, depth) {
    const { minItems, maxItems, items } = schema;
    if (typeof minItems === "number" && value.length < minItems) {
      this.report(path, `${field} must hold at least ${minItems} items; add more.`);
    }
    if (typeof maxItems === "number" && value.length > maxItems) {
      this.report(path, `${field} must hold at most ${maxItems} items; remove some.`);
    }
    if (schema.uniqueItems === true) {
      this.#spend(Math.ceil(value.length * value.length / 64));
      const repeated = value.findIndex(
        (item, i) => value.findIndex((other) => equal(item, other)) !== i
      );
      if (repeated >= 0) {
        this.report(
          [...path, repeated],
          `${label2([...path, repeated])} repeats an earlier item; items must be unique.`
        );
      }
    }
    if (Array.isArray(items)) {
      value.forEach((item, i) => {
        this.check(
          i < items.length ? items[i] : schema.additionalItems,
          item,
          [...path, i],
          depth + 1
        );
      });
    } else if (items !== void 0) {
      value.forEach((item, i) => this.check(items, item, [...path, i], depth + 1));
    }
  }
  #object(schema, value, path, field, depth) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === "string" && !Object.hasOwn(value, key)) {
          this.report([...path, key], `${key} is required in ${field}; add it.`);
        }
      }
    }
    const extra = schema.additionalProperties;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        this.check(properties[key], value[key], [...path, key], depth + 1);
      } else if (extra === false) {
        this.report([...path, key], `${key} is not a property ${field} accepts; remove it.`);
      } else if (extra !== void 0 && extra !== true) {
        this.check(extra, value[key], [...path, key], depth + 1);
      }
    }
  }
  #combinators(schema, value, path, field, depth) {
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf) this.check(part, value, path, depth + 1);
    }
    for (const keyword of ["anyOf", "oneOf"]) {
      const options = schema[keyword];
      if (!Array.isArray(options)) continue;
      const results = options.map((option) => {
        const run = new _Run(this.#root, this.#budget);
        run.check(option, value, path, depth + 1);
        return run.issues;
      });
      const passed = results.filter((issues) => issues.length === 0).length;
      if (passed === 0) {
        const nearest = results.reduce((a, b) => b.length < a.length ? b : a, results[0] ?? []);
        const hint = nearest[0] ? ` The nearest fails because ${nearest[0].message}` : "";
        this.report(
          path,
          `${field} matches none of the allowed alternatives (${keyword}); change it to fit one.${hint}`
        );
      } else if (keyword === "oneOf" && passed > 1) {
        this.report(
          path,
          `${field} matches ${passed} alternatives of oneOf but must match exactly one; make it unambiguous.`
        );
      }
    }
    if (schema.not !== void 0) {
      const run = new _Run(this.#root, this.#budget);
      run.check(schema.not, value, path, depth + 1);
      if (run.issues.length === 0) {
        this.report(path, `${field} matches a form the schema forbids (not); change it.`);
      }
    }
  }
};
function validateJsonSchema(schema, value, options = {}) {
  const budget = newBudget(options);
  const run = new Run(schema, budget);
  try {
    run.check(schema, value, [], 0);
  } catch (error) {
    if (!(error instanceof OutOfSteps)) throw error;
    return [{
      path: "",
      message: `the arguments could not be checked within ${grouped(budget.max)} steps of their schema; the schema is too complex, so simplify it.`
    }];
  }
  return run.issues;
}

// server/remote-tools/host.ts
var HostError = class extends Error {
  name = "HostError";
  status;
  constructor(status, message) {
    super(message);
    this.status = status;
  }
};
async function sameSecret(a, b) {
  const digest = async (s) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}
function scopeFromQuery(c) {
  const workspaceId = c.req.query("workspaceId");
  const externalUserId = c.req.query("externalUserId");
  if (!workspaceId || !externalUserId) {
    throw new HostError(400, "workspaceId and externalUserId are required in the query string");
  }
  return {
    workspaceId,
    externalUserId,
    permissions: c.req.queries("permissions") ?? [],
    requestId: c.req.query("requestId") ?? ""
  };
}
function scopeFromBody(value) {
  const e = value;
  const ok = !!e && typeof e === "object" && typeof e.workspaceId === "string" && typeof e.externalUserId === "string" && (e.permissions === void 0 || Array.isArray(e.permissions) && e.permissions.every((p) => typeof p === "string"));
  if (!ok) throw new HostError(400, "execution must carry workspaceId and externalUserId");
  return {
    workspaceId: e.workspaceId,
    externalUserId: e.externalUserId,
    permissions: e.permissions ?? [],
    requestId: typeof e.requestId === "string" ? e.requestId : ""
  };
}
function remoteToolsHost(options) {
  const app = new Hono();
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const maxBody = options.maxBodyBytes ?? 1e6;
  app.onError((error, c) => {
    if (error instanceof HostError) return c.json({ error: error.message }, error.status);
    return c.json({ error: "the tool failed on this server" }, 500);
  });
  app.notFound((c) => c.json({ error: `no endpoint ${c.req.method} ${c.req.path}` }, 404));
  app.use("*", async (c, next) => {
    const bearer = c.req.header("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
    if (!await sameSecret(bearer, options.secret)) {
      return c.json({ error: "the bearer secret does not match" }, 401);
    }
    await next();
  });
  app.get("/tools", (c) => {
    scopeFromQuery(c);
    return c.json({
      tools: options.tools.map(({ name, description, verb, inputSchema }) => ({
        name,
        description,
        verb,
        inputSchema
      }))
    });
  });
  app.get("/context", async (c) => c.json(await (options.context?.(scopeFromQuery(c)) ?? {})));
  const call = async (c) => {
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > maxBody) throw new HostError(413, `the body is over ${maxBody} bytes`);
    const text = await c.req.text();
    if (text.length > maxBody) throw new HostError(413, `the body is over ${maxBody} bytes`);
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HostError(400, "the body is not JSON");
    }
    if (typeof body !== "object" || body === null) {
      throw new HostError(400, "the body must be an object");
    }
    const tool = byName.get(String(body.tool));
    if (!tool) throw new HostError(404, `unknown tool ${String(body.tool).slice(0, 64)}`);
    const args = body.arguments ?? {};
    const issues = validateJsonSchema(tool.inputSchema, args);
    if (issues.length) {
      throw new HostError(
        400,
        `invalid arguments: ${issues.slice(0, 5).map((i) => `${i.path || "(arguments)"}: ${i.message}`).join("; ")}`
      );
    }
    return { tool, args, scope: scopeFromBody(body.execution) };
  };
  app.post("/tools/preview", async (c) => {
    const { tool, args, scope } = await call(c);
    const preview = tool.preview ? await tool.preview(args, scope) : tool.description;
    return c.json({ preview });
  });
  app.post("/tools/execute", async (c) => {
    const { tool, args, scope } = await call(c);
    return c.json({ output: await tool.execute(args, scope) ?? null });
  });
  return app;
}

// demo/tools_host.ts
var SEED = [
  { id: "m1", title: "Beta", due: "2026-12-15" },
  { id: "m2", title: "Public launch", due: "2027-01-20" },
  { id: "m3", title: "Mobile app", due: "2027-03-01" }
];
var str = { type: "string", minLength: 1, maxLength: 80 };
function milestonesHost(secret, pageUrl) {
  const milestones = SEED.map((m) => ({ ...m }));
  let next = milestones.length + 1;
  const find = (id) => {
    const m = milestones.find(
      (x) => x.id === id || x.title.toLowerCase() === String(id).toLowerCase()
    );
    if (!m) throw new HostError(404, `no milestone ${String(id).slice(0, 40)}`);
    return m;
  };
  const card = (m) => ({
    title: m.title,
    url: `${pageUrl}/#milestone-${m.id}`,
    subtitle: `Due ${m.due}`,
    badges: [m.id]
  });
  return remoteToolsHost({
    secret,
    context: () => ({ milestones: milestones.length, next_due: milestones[0]?.title ?? null }),
    tools: [
      {
        name: "find_milestones",
        description: "Search the tracker's milestones by title (empty query lists them all).",
        verb: "get",
        inputSchema: { type: "object", properties: { query: { type: "string", maxLength: 80 } } },
        execute: ({ query }) => {
          const q = String(query ?? "").toLowerCase();
          const found = milestones.filter((m) => m.title.toLowerCase().includes(q));
          return { milestones: found, display: found.map(card) };
        }
      },
      {
        name: "create_milestone",
        description: "Create a milestone with a title and a due date (YYYY-MM-DD).",
        verb: "create",
        inputSchema: {
          type: "object",
          properties: { title: str, due: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } },
          required: ["title"]
        },
        preview: ({ title, due }) => `Create the milestone \u201C${title}\u201D${due ? ` due ${due}` : ""}.`,
        execute: ({ title, due }) => {
          const m = { id: `m${next++}`, title: String(title), due: String(due ?? "2027-06-30") };
          milestones.push(m);
          return { created: m, display: [card(m)] };
        }
      },
      {
        name: "rename_milestone",
        description: "Rename a milestone, given its id (like m1) or its current title.",
        verb: "update",
        inputSchema: {
          type: "object",
          properties: { id: str, title: str },
          required: ["id", "title"]
        },
        preview: ({ id, title }) => `Rename \u201C${find(id).title}\u201D to \u201C${title}\u201D.`,
        execute: ({ id, title }) => {
          const m = find(id);
          m.title = String(title);
          return { updated: m };
        }
      },
      {
        name: "delete_milestone",
        description: "Delete a milestone, given its id (like m1) or its title.",
        verb: "delete",
        inputSchema: { type: "object", properties: { id: str }, required: ["id"] },
        preview: ({ id }) => `Delete the milestone \u201C${find(id).title}\u201D for good.`,
        execute: ({ id }) => {
          const m = find(id);
          milestones.splice(milestones.indexOf(m), 1);
          return { deleted: m.id };
        }
      }
    ]
  });
}
function startDemoTools(secret, pageUrl) {
  const app = milestonesHost(secret, pageUrl);
  return new Promise((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: 0, hostname: "127.0.0.1" },
      (info) => resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise((done) => server.close(() => done()))
      })
    );
  });
}
export {
  milestonesHost,
  startDemoTools
};
