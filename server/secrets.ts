/**
 * Registers the secrets a runtime is configured with, so the logger redacts
 * them: provider API keys, access tokens, and the password of the store URL.
 *
 * @module
 */
import type { RuntimeOptions } from "./config.ts";
import { registerSecret } from "./log.ts";

// Provider keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), tokens and passwords, by name.
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/i;
const URL_NAME = /(?:^|_)URL$/i;

/** The password (and user info) of a URL like `postgres://user:secret@host/db`, if any. */
function urlPassword(url: string | undefined): string | undefined {
  if (!url || !url.includes("@")) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.password ? decodeURIComponent(parsed.password) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Registers every secret the options and their environment carry.
 *
 * @example
 * ```ts
 * registerConfiguredSecrets(resolveOptions({ env: { OPENAI_API_KEY: "sk-..." } }));
 * ```
 */
export function registerConfiguredSecrets(options: RuntimeOptions): void {
  registerSecret(options.access.token);
  registerSecret(options.access.adminToken);
  registerSecret(urlPassword(options.storeUrl));
  for (const [name, value] of Object.entries(options.env)) {
    if (!value) continue;
    if (SECRET_NAME.test(name)) registerSecret(value);
    else if (URL_NAME.test(name)) registerSecret(urlPassword(value));
  }
}
