/**
 * `offline`: the deterministic planner, no key and no network.
 *
 * @module
 */
import { offlineModel } from "../offline.ts";
import type { ModelProfile, ModelProvider } from "./provider.ts";

/**
 * The offline planner's rules: it has no window (it reads the start of a message), caches
 * nothing and sees no images. Its budget only keeps a session's requests bounded.
 */
export const OFFLINE_PROFILE: ModelProfile = {
  provider: "offline",
  limits: { contextTokens: 4_000_000, maxOutputTokens: 8_192, defaultRequestTokens: 3_800_000 },
  known: true,
  imagesInToolResults: false,
  maxToolDescriptionChars: 16_384,
  stableTools: false,
};

/**
 * The offline provider; the spec is the bare word `offline`.
 *
 * @example
 * ```ts
 * offline.create("", { spec: "offline", env: {} }).profile.provider; // "offline"
 * ```
 */
export const offline: ModelProvider = {
  form: "offline",
  create: () => ({ model: offlineModel(), profile: OFFLINE_PROFILE }),
  profile: () => OFFLINE_PROFILE,
};
