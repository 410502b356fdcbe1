/**
 * A tool as one turn offers it. Each tool kind offers its own
 * (`server/turn/kinds/`): backend tools scoped by view, configured host
 * tools and the context's actions, the workspace's remote tools; for silent
 * decisions only the context's actions and `hold`.
 *
 * @module
 */

/** A tool as one turn offers it; `T` is the data its kind keeps on it (a backend tool's function). */
export interface TurnTool<T = unknown> {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** The category of the kind that offered it. */
  category: string;
  /** Its kind's own data, for that kind alone to read. */
  data?: T;
}

/** The reserved structured output of silent decisions. */
export const HOLD = "hold";
