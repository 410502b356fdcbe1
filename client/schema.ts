/**
 * Action parameters as the wire needs them. A host may declare parameters
 * as a JSON schema or as a schema object that describes itself
 * (Standard Schema with `jsonSchema`, as zod 4 schemas are); converting one
 * costs nothing here, so no zod code enters the SDK bundle.
 *
 * @module
 */
import { type Issue, validateJsonSchema } from "./_protocol.ts";

/**
 * A JSON schema of type object, as action parameters need.
 *
 * @example
 * ```ts
 * const schema: ObjectSchema = { type: "object", properties: { x: { type: "number" } } };
 * ```
 */
export type ObjectSchema = Record<string, unknown>;

/**
 * A Standard Schema (zod 4, valibot, arktype...); `jsonSchema` is present on those that can describe themselves.
 *
 * @example
 * ```ts
 * const parameters: StandardSchema = z.object({ x: z.number() });
 * ```
 */
export interface StandardSchema<Output = unknown> {
  "~standard": {
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
}

type StandardResult<Output> = { value: Output; issues?: undefined } | {
  issues: readonly { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] }[];
};

/**
 * Action parameters: a JSON schema of type object, or a self-describing schema such as `z.object({...})`.
 *
 * @example
 * ```ts
 * host.action("move", { description: "Move.", parameters: z.object({ x: z.number() }) }, ({ x }) => move(x));
 * ```
 */
export type Parameters = ObjectSchema | StandardSchema;

const isStandard = (p: Parameters): p is StandardSchema =>
  typeof p === "object" && p !== null && "~standard" in p;

/**
 * The JSON schema of action parameters, for the wire.
 *
 * @example
 * ```ts
 * toJsonSchema(z.object({ number: z.number().int() })); // {type: "object", properties: {...}, required: ["number"]}
 * toJsonSchema({ type: "object", properties: {} }); // returned as is
 * ```
 */
export function toJsonSchema(parameters: Parameters | undefined): ObjectSchema {
  if (!parameters) return { type: "object", properties: {} };
  if (!isStandard(parameters)) return parameters;
  const convert = parameters["~standard"].jsonSchema;
  if (!convert) {
    throw new TypeError(
      "These parameters cannot describe themselves as JSON schema (zod/mini schemas cannot): pass z.toJSONSchema(schema) or a zod (classic) schema.",
    );
  }
  const { $schema: _, ...schema } = convert.input({ target: "draft-2020-12" });
  return schema;
}

/**
 * The arguments checked against the parameters: the (parsed) value, or the issues found.
 *
 * @example
 * ```ts
 * const checked = await checkArguments(parameters, { x: 1 });
 * if (!checked.ok) console.warn(checked.issues);
 * ```
 */
export async function checkArguments(
  parameters: Parameters | undefined,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; issues: Issue[] }> {
  if (parameters && isStandard(parameters)) {
    const result = await parameters["~standard"].validate(value);
    if (!result.issues) return { ok: true, value: result.value };
    return {
      ok: false,
      issues: result.issues.map((i) => ({
        path: (i.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".") ||
          "(root)",
        message: i.message,
      })),
    };
  }
  const issues: Issue[] = validateJsonSchema(toJsonSchema(parameters), value);
  return issues.length ? { ok: false, issues } : { ok: true, value };
}
