/**
 * The policy file (`POLICY__FILE`), loaded at start and checked for changes
 * every second or so: a good edit replaces the policies without a restart; a
 * bad one is logged with the field at fault and the last good policies stay.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { parsePolicyDocument, type PolicyDocument, PolicyFileError } from "./policy_file.ts";
import { backgroundInterval } from "../background_timer.ts";

/** What the watcher needs. */
export interface PolicyFileOptions {
  path: string;
  /** How often to look at the file (ms). */
  intervalMs: number;
  /** Called with each good new version. */
  onChange: (doc: PolicyDocument) => void;
  /** Where a bad edit is reported. */
  onError: (message: string) => void;
  /** Reads the file (default: node:fs). */
  read?: (path: string) => Promise<string>;
}

/** A watched policy file. */
export interface PolicyFile {
  /** The document as first loaded. */
  initial: PolicyDocument;
  /** Looks at the file now (the timer calls this). */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Loads the policy file (throwing `PolicyFileError` naming the field) and watches it.
 *
 * @example
 * ```ts
 * const file = await watchPolicyFile({ path: "policies.json", intervalMs: 1_000, onChange: (d) => engine.setPolicies(d), onError: console.error });
 * ```
 */
export async function watchPolicyFile(options: PolicyFileOptions): Promise<PolicyFile> {
  const read = options.read ?? ((p: string) => readFile(p, "utf8"));
  let last: string;
  try {
    last = await read(options.path);
  } catch (error) {
    throw new PolicyFileError(
      `POLICY__FILE (${options.path}) cannot be read: ${(error as Error).message}`,
    );
  }
  let initial: PolicyDocument;
  try {
    initial = parsePolicyDocument(last);
  } catch (error) {
    throw new PolicyFileError(`POLICY__FILE (${options.path}): ${(error as Error).message}`);
  }
  let busy = false;
  let lastError = "";
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      const text = await read(options.path).catch((error) => {
        throw new PolicyFileError(`cannot be read: ${(error as Error).message}`);
      });
      if (text === last) return;
      last = text;
      options.onChange(parsePolicyDocument(text));
      lastError = "";
    } catch (error) {
      const message = (error as Error).message;
      // A file that stays unreadable is reported once, not every interval.
      if (message !== lastError) {
        options.onError(
          `POLICY__FILE (${options.path}) ${message} The last good policies stay in force.`,
        );
      }
      lastError = message;
    } finally {
      busy = false;
    }
  };
  const stop = backgroundInterval(() => void check(), options.intervalMs);
  return { initial, check, stop };
}
