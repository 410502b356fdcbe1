/**
 * The demo's tool server (remote tools contract), built with the host kit:
 * the tracker's milestones, kept in this process's memory, with a `get`
 * search, a `create`, an `update` and a `delete`, so the confirmation flows
 * (Apply, and Apply twice for a delete) can be tried in the page.
 * `npm start` starts it on loopback beside the runtime and registers it for
 * the default workspace.
 *
 * @module
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { HostError, remoteToolsHost } from "../server/remote-tools/host.ts";

/** A milestone of the tracker. */
export interface Milestone {
  id: string;
  title: string;
  due: string;
}

const SEED: Milestone[] = [
  { id: "m1", title: "Beta", due: "2026-12-15" },
  { id: "m2", title: "Public launch", due: "2027-01-20" },
  { id: "m3", title: "Mobile app", due: "2027-03-01" },
];

const str = { type: "string", minLength: 1, maxLength: 80 };
/** The due date of a milestone created without one. */
const DEFAULT_DUE = "2027-06-30";

/**
 * The milestones tool server as a Hono app. `_pageUrl` is the page it serves (its cards link
 * nowhere yet: the demo has no page for a milestone).
 *
 * @example
 * ```ts
 * const app = milestonesHost("a-long-random-secret", "http://127.0.0.1:7100");
 * ```
 */
export function milestonesHost(secret: string, _pageUrl: string) {
  const milestones = SEED.map((m) => ({ ...m }));
  let next = milestones.length + 1;
  const find = (id: unknown) => {
    const m = milestones.find((x) =>
      x.id === id || x.title.toLowerCase() === String(id).toLowerCase()
    );
    if (!m) throw new HostError(404, `no milestone ${String(id).slice(0, 40)}`);
    return m;
  };
  // No link: the demo has no page for a milestone.
  const card = (m: Milestone) => ({ title: m.title, subtitle: `Due ${m.due}`, badges: [m.id] });
  return remoteToolsHost({
    secret,
    context: () => ({ milestones: milestones.length, next_due: milestones[0]?.title ?? null }),
    tools: [
      {
        name: "find_milestones",
        description: "Search the tracker's milestones by title (empty query lists them all).",
        verb: "get",
        inputSchema: { type: "object", properties: { query: { type: "string", maxLength: 80 } } },
        execute: ({ query }) => {
          const q = String(query ?? "").toLowerCase();
          const found = milestones.filter((m) => m.title.toLowerCase().includes(q));
          return { milestones: found, display: found.map(card) };
        },
      },
      {
        name: "create_milestone",
        description: "Create a milestone with a title and a due date (YYYY-MM-DD).",
        verb: "create",
        inputSchema: {
          type: "object",
          properties: { title: str, due: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } },
          required: ["title"],
        },
        // The preview shows the due date the milestone will get, chosen or not.
        preview: ({ title, due }) => `Create the milestone “${title}” due ${due ?? DEFAULT_DUE}.`,
        execute: ({ title, due }) => {
          const m = { id: `m${next++}`, title: String(title), due: String(due ?? DEFAULT_DUE) };
          milestones.push(m);
          return { created: m, display: [card(m)] };
        },
      },
      {
        name: "rename_milestone",
        description: "Rename a milestone, given its id (like m1) or its current title.",
        verb: "update",
        inputSchema: {
          type: "object",
          properties: { id: str, title: str },
          required: ["id", "title"],
        },
        preview: ({ id, title }) => `Rename “${find(id).title}” to “${title}”.`,
        execute: ({ id, title }) => {
          const m = find(id);
          m.title = String(title);
          return { updated: m };
        },
      },
      {
        name: "delete_milestone",
        description: "Delete a milestone, given its id (like m1) or its title.",
        verb: "delete",
        inputSchema: { type: "object", properties: { id: str }, required: ["id"] },
        preview: ({ id }) => `Delete the milestone “${find(id).title}” for good.`,
        execute: ({ id }) => {
          const m = find(id);
          milestones.splice(milestones.indexOf(m), 1);
          return { deleted: m.title };
        },
      },
    ],
  });
}

/**
 * Starts the milestones tool server on 127.0.0.1 (an ephemeral port).
 *
 * @example
 * ```ts
 * const tools = await startDemoTools(secret, "http://127.0.0.1:7100");
 * await tools.close();
 * ```
 */
export function startDemoTools(
  secret: string,
  pageUrl: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = milestonesHost(secret, pageUrl);
  return new Promise((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: 0, hostname: "127.0.0.1" },
      (info: AddressInfo) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          close: () => new Promise<void>((done) => server.close(() => done())),
        }),
    );
  });
}
