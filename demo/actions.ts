/**
 * What the demo's SDK actions tell the model: names, descriptions and
 * parameters, apart from their handlers (assistant.ts), so the offline
 * model's phrasing table (tests/demo_phrasings.test.ts) checks the very
 * actions the demo offers. Descriptions start with the verbs people use:
 * "Close or reopen an issue." lets "close 42" find `change_status`.
 *
 * @module
 */
import { ASSIGNEES, LABELS } from "./data.ts";

const integer = (description: string) => ({ type: "integer", description });
const schema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/**
 * The actions the demo registers through `host.action()`, by name.
 *
 * @example
 * ```ts
 * SDK_ACTIONS.change_status.description; // "Close or reopen an issue."
 * ```
 */
export const SDK_ACTIONS = {
  open_issue: {
    description: "Open an issue on its own page.",
    parameters: schema({ number: integer("The issue number") }, ["number"]),
  },
  show_only: {
    description: "Show only the issues with one label.",
    parameters: schema({ label: { type: "string", enum: LABELS } }, ["label"]),
  },
  filter_issues: {
    description:
      "Filter the issue list by state, label, assignee or text; the filters not given are cleared.",
    parameters: schema({
      state: { type: "string", enum: ["open", "closed", "all"] },
      label: { type: "string", enum: LABELS },
      assignee: { type: "string", enum: ASSIGNEES },
      query: { type: "string", description: "Text the title must contain" },
    }),
  },
  clear_filters: {
    description: "Show all open issues again.",
    parameters: schema({}),
  },
  change_status: {
    description: "Close or reopen an issue.",
    parameters: schema({
      number: integer("The issue number"),
      status: { type: "string", enum: ["open", "closed"] },
    }, ["number", "status"]),
  },
  assign_issue: {
    description: "Assign an issue to someone.",
    parameters: schema({
      number: integer("The issue number"),
      assignee: { type: "string", enum: ASSIGNEES },
    }, ["number", "assignee"]),
  },
  go_to: {
    description: "Go to a page of the tracker.",
    parameters: schema({ page: { type: "string", enum: ["issues", "new issue"] } }, ["page"]),
  },
} as const;
