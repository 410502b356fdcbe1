/** A random id for messages and sessions (crypto.randomUUID needs a secure context). */
export const newId = (prefix = ""): string =>
  prefix +
  (globalThis.crypto?.randomUUID?.() ??
    Math.random().toString(36).slice(2) + Date.now().toString(36));
