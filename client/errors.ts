/**
 * The error the SDK throws for refusals (runtime answers, invalid context,
 * transport failures), with the wire type and the HTTP status where one exists.
 *
 * @module
 */

/**
 * One field the runtime or a validator named.
 *
 * @example
 * ```ts
 * for (const { path, message } of error.issues) console.warn(path, message);
 * ```
 */
export interface ErrorIssue {
  path: string;
  message: string;
}

/**
 * A refusal or failure with its wire type (`validation`, `session_error`,
 * `forbidden`, `network`, ...) and HTTP status (0 when none was received).
 *
 * @example
 * ```ts
 * try {
 *   await host.send("hi");
 * } catch (error) {
 *   if (error instanceof TetherError && error.type === "validation") console.warn(error.issues);
 * }
 * ```
 */
export class TetherError extends Error {
  override name = "TetherError";
  /** HTTP status, or 0 when the runtime was not reached. */
  readonly status: number;
  /** The wire error type, or `network` when the runtime was not reached. */
  readonly type: string;
  /** The fields named by a validation error. */
  readonly issues: ErrorIssue[];
  constructor(status: number, type: string, message: string, issues: ErrorIssue[] = []) {
    super(message);
    this.status = status;
    this.type = type;
    this.issues = issues;
  }
}
