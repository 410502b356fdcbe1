/**
 * What the host registers about its page (view, navigation, background,
 * extensions, attachments, actions) and the host_context built from it:
 * fresh before every message and continuation, validated with the protocol
 * schemas and stamped `captured_at`. A registration that breaks a contract
 * rule throws where it is made, not as a 422 later.
 *
 * @module
 */
import { checkLimits } from "./_limits.ts";
import {
  type AttachmentInput,
  type BackgroundEntry,
  formatIssues,
  type HostContext,
  type HostInfo,
  type Issue,
  type NavigationTarget,
  parseHostContext,
  type View,
} from "./_protocol.ts";
import { TetherError } from "./errors.ts";
import type { ActionDefinition } from "./run_action.ts";
import { toJsonSchema } from "./schema.ts";

/**
 * A value, or a function read each time a context is built (so it is never stale).
 *
 * @example
 * ```ts
 * host.view(() => ({ name: "cart", data: { items: cart.items.length } })); // read at each message
 * ```
 */
export type Source<T> = T | (() => T | Promise<T>);

/**
 * Undoes a registration.
 *
 * @example
 * ```ts
 * const dispose = host.view({ name: "settings" });
 * dispose(); // the previous view shows again
 * ```
 */
export type Disposer = () => void;

const invalid = (issues: Issue[]) =>
  new TetherError(
    422,
    "validation",
    `Invalid host context: ${formatIssues(issues.slice(0, 3), "host_context")}`,
    issues,
  );

/**
 * The registry behind `host.view()`, `host.action()` and friends.
 *
 * @example
 * ```ts
 * const registry = new ContextRegistry({ name: "shop", kind: "browser" });
 * registry.view({ name: "cart", data: () => ({ items: cart.items }) });
 * const context = await registry.build();
 * ```
 */
export class ContextRegistry {
  #host: HostInfo;
  #views: Source<View>[] = [];
  #navigation: Source<NavigationTarget[]>[] = [];
  #background = new Map<string, Source<BackgroundEntry>>();
  #extensions: Source<Record<string, unknown>>[] = [];
  #attachments: AttachmentInput[] = [];
  #actions = new Map<string, ActionDefinition>();

  constructor(host: HostInfo) {
    this.#host = host;
  }

  /** The registered actions by name. */
  get actions(): ReadonlyMap<string, ActionDefinition> {
    return this.#actions;
  }

  /** Shows a view; the latest registered view wins until it is disposed. */
  view(view: Source<View>): Disposer {
    return this.#add(this.#views, view);
  }

  /** Adds places the host can go. */
  navigation(targets: Source<NavigationTarget[]>): Disposer {
    return this.#add(this.#navigation, targets);
  }

  /** Sets the summary of something off screen. */
  background(name: string, entry: Source<BackgroundEntry>): Disposer {
    this.#background.set(name, entry);
    return this.#checked(() =>
      this.#background.get(name) === entry && this.#background.delete(name)
    );
  }

  /** Adds host-specific data (merged with the other extensions). */
  extensions(data: Source<Record<string, unknown>>): Disposer {
    return this.#add(this.#extensions, data);
  }

  /** Attaches content to every context until disposed. */
  attach(attachment: AttachmentInput): Disposer {
    return this.#add(this.#attachments, attachment);
  }

  /** Registers an action; its name must be unique. */
  action(definition: ActionDefinition): Disposer {
    if (this.#actions.has(definition.name)) {
      throw new TypeError(
        `An action named ${definition.name} is already registered; dispose it first or pick another name.`,
      );
    }
    toJsonSchema(definition.parameters); // throws now for parameters that cannot be converted
    this.#actions.set(definition.name, definition);
    return this.#checked(() =>
      this.#actions.get(definition.name) === definition && this.#actions.delete(definition.name)
    );
  }

  /** Builds the host_context now: every source read, validated, stamped `captured_at`. */
  async build(): Promise<HostContext> {
    const values = new Map<unknown, unknown>();
    const sources = [
      this.#views.at(-1),
      ...this.#navigation,
      ...this.#extensions,
      ...this.#background.values(),
    ];
    await Promise.all(
      sources.map(async (s) => typeof s === "function" && values.set(s, await s())),
    );
    const context = this.#snapshot(<T>(s: Source<T>) =>
      (typeof s === "function" ? values.get(s) : s) as T
    );
    context.captured_at = new Date().toISOString();
    const parsed = parseHostContext(context);
    if (!parsed.ok) throw invalid(parsed.issues);
    return parsed.value;
  }

  #add<T>(list: T[], item: T): Disposer {
    list.push(item);
    return this.#checked(() => {
      const index = list.lastIndexOf(item);
      if (index >= 0) list.splice(index, 1);
    });
  }

  /** Checks what is known now (functions are read at build time) and undoes the registration if it broke a rule. */
  #checked(dispose: () => unknown): Disposer {
    const issues = checkLimits(
      this.#snapshot(<T>(s: Source<T>) => typeof s === "function" ? undefined : s as T),
    );
    if (issues.length) {
      dispose();
      throw invalid(issues);
    }
    return () => void dispose();
  }

  /** The context from the registrations, reading each source with `value`. */
  #snapshot(value: <T>(source: Source<T>) => T | undefined): Record<string, unknown> {
    const context: Record<string, unknown> = { version: 1, host: this.#host };
    const view = this.#views.length ? value(this.#views.at(-1)!) : undefined;
    if (view) context.view = view;
    const navigation = this.#navigation.flatMap((s) => value(s) ?? []);
    if (navigation.length) context.navigation = navigation;
    if (this.#actions.size) {
      context.actions = [...this.#actions.values()].map((a) => ({
        name: a.name,
        description: a.description,
        parameters: toJsonSchema(a.parameters),
      }));
    }
    if (this.#attachments.length) context.attachments = [...this.#attachments];
    const background = [...this.#background].map(([name, s]) => [name, value(s)]).filter(([, v]) =>
      v !== undefined
    );
    if (background.length) context.background = Object.fromEntries(background);
    const extensions = this.#extensions.map((s) => value(s)).filter(Boolean);
    if (extensions.length) context.extensions = Object.assign({}, ...extensions);
    return context;
  }
}
