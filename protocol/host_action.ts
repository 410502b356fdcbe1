/**
 * `host_context.actions`: what the host can do when the model asks.
 *
 * @module
 */
import * as z from "zod/mini";
import { contractObject } from "./_keys.ts";
import { isObject } from "./_values.ts";

/**
 * The rule every action name follows (the tool-name rules): 1-64 letters, digits, `_` or `-`.
 *
 * @example
 * ```ts
 * ACTION_NAME.test("select_issue"); // true
 * ACTION_NAME.test("select issue"); // false
 * ```
 */
export const ACTION_NAME: RegExp = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An action the host performs for this turn; the model sees it as a host tool.
 *
 * `parameters` is the host's JSON schema and keeps its keys verbatim.
 *
 * @example
 * ```ts
 * const action: HostAction = {
 *   name: "select_issue",
 *   description: "Select an issue in the list.",
 *   parameters: {
 *     type: "object",
 *     properties: { number: { type: "integer" } },
 *     required: ["number"],
 *   },
 * };
 * ```
 */
export interface HostAction {
  /** The tool name the model calls. */
  name: string;
  /** What the action does, for the model. */
  description: string;
  /** A JSON schema of type object for the arguments; `{type: "object", properties: {}}` when absent. */
  parameters: Record<string, unknown>;
}

const PARAMETERS_RULE =
  'parameters must be a JSON schema with "type": "object" (such as {"type": "object", "properties": {}}); wrap the arguments in an object schema.';

function isObjectSchema(value: unknown): boolean {
  if (!isObject(value) || value.type !== "object") return false;
  return value.properties === undefined || isObject(value.properties);
}

/**
 * The zod schema of one host action; fills in empty parameters when absent.
 *
 * @example
 * ```ts
 * const parsed = hostActionSchema.safeParse({ name: "ping", description: "Ping." });
 * // parsed.data.parameters is { type: "object", properties: {} }
 * ```
 */
export const hostActionSchema: z.ZodMiniType<HostAction, unknown> = contractObject({
  name: z.string().check(z.regex(ACTION_NAME, {
    error: (iss) =>
      `action name ${
        JSON.stringify(iss.input)
      } must be 1-64 letters, digits, underscores or hyphens; rename it (for example select_issue).`,
  })),
  description: z.string().check(z.minLength(1, {
    error: "description must not be empty; tell the model what the action does.",
  })),
  parameters: z._default(
    z.custom<Record<string, unknown>>(isObjectSchema, { error: PARAMETERS_RULE }),
    () => ({ type: "object", properties: {} }),
  ),
});

/**
 * The zod schema of `host_context.actions`: host actions with distinct names.
 *
 * @example
 * ```ts
 * hostActionListSchema.safeParse([{ name: "a", description: "A." }]).success; // true
 * ```
 */
export const hostActionListSchema: z.ZodMiniType<HostAction[], unknown> = z.array(hostActionSchema)
  .check(z.superRefine((actions, ctx) => {
    const seen = new Set<string>();
    for (const action of actions) {
      if (seen.has(action.name)) {
        ctx.addIssue({
          code: "custom",
          input: actions,
          message:
            `action name "${action.name}" is declared more than once; give each action its own name.`,
        });
      }
      seen.add(action.name);
    }
  }));
