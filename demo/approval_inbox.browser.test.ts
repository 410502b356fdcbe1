/**
 * The operator's approval inbox in Chromium, on a scripted runtime that
 * answers `GET /api/approvals` and `POST /api/approvals/{id}/decision` as the
 * runtime does (the end-to-end test, tests/e2e/approvals.node.test.ts, runs
 * it against the real one): the list, the bearer token, a decision with its
 * reason, and what the operator is told on a 409 and a 401.
 */
import { deepEqual, equal, match, ok } from "../tests/browser/_assert.ts";
import { until } from "../elements/_test_fixture.ts";
import { about, mountApprovalInbox, tokenFromFragment } from "./approval_inbox.ts";

const realFetch = globalThis.fetch;
let root: HTMLElement;
let stop = () => {};
afterEach(() => {
  stop();
  root?.remove();
  globalThis.fetch = realFetch;
});

const pending = (id: string, tool: string) => ({
  request_id: id,
  agent_id: "tether",
  user_id: "local",
  action: "tool_call",
  context: {
    session_id: "s-1",
    tool_name: tool,
    tool_input: { command: "rm -rf build/ <b>x</b>" },
  },
  reason: "Shell commands need a person's approval.",
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 125_000).toISOString(),
  seconds_left: 125,
});

/** A runtime with `requests` pending; records what the page sent. */
function runtime(requests: ReturnType<typeof pending>[], token = "tok-1") {
  const seen: { method: string; path: string; auth: string | null; body?: unknown }[] = [];
  const answer = (input: RequestInfo | URL, init: RequestInit): Response => {
    const url = new URL(String(input));
    const auth = new Headers(init.headers).get("authorization");
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    seen.push({ method: init.method ?? "GET", path: url.pathname, auth, body });
    if (auth !== `Bearer ${token}`) {
      return Response.json({ error: { type: "unauthorized", message: "Send the admin token." } }, {
        status: 401,
      });
    }
    if (url.pathname === "/api/approvals") return Response.json({ requests });
    const id = decodeURIComponent(url.pathname.split("/")[3]);
    const i = requests.findIndex((r) => r.request_id === id);
    if (i < 0) {
      return Response.json({ error: { type: "conflict", message: `${id} was decided already.` } }, {
        status: 409,
      });
    }
    requests.splice(i, 1);
    return Response.json({
      request_id: id,
      status: body.decision === "approve" ? "approved" : "denied",
    });
  };
  globalThis.fetch = (input: RequestInfo | URL, init: RequestInit = {}) =>
    Promise.resolve(answer(input, init));
  return seen;
}

function mount(token: string) {
  root = document.createElement("section");
  document.body.append(root);
  ({ stop } = mountApprovalInbox(root, { runtimeUrl: "http://127.0.0.1:9", token, interval: 100 }));
}

describe("the approval inbox", () => {
  it("reads the token from the fragment", () => {
    equal(tokenFromFragment("#token=abc%20d"), "abc d");
    equal(tokenFromFragment("#other=1"), "");
  });

  it("names a call by its tool and the item its input names", () => {
    equal(
      about({
        request_id: "r",
        expires_at: "",
        context: { tool_name: "assign_issue", tool_input: { number: 15, assignee: "dana" } },
      }),
      "assign_issue for #15",
    );
    equal(
      about({
        request_id: "r",
        expires_at: "",
        context: { tool_name: "delete_milestone", tool_input: '{"id":"Beta"}' },
      }),
      "delete_milestone for “Beta”",
    );
  });

  it("lists held calls as text with the time left, and sends a decision with its reason", async () => {
    const seen = runtime([pending("apr_1", "run_shell"), pending("apr_2", "deploy")]);
    mount("tok-1");
    await until(() => root.querySelectorAll(".approval").length === 2, "the two requests");
    const first = root.querySelector<HTMLElement>('[data-request="apr_1"]')!;
    match(first.querySelector(".tool")!.textContent!, /run_shell/);
    match(first.querySelector(".reason")!.textContent!, /need a person's approval/);
    match(first.querySelector(".input")!.textContent!, /rm -rf build\/ <b>x<\/b>/);
    ok(!first.querySelector(".input b"), "tool input is shown as text");
    match(first.querySelector(".left")!.textContent!, /^2:0[45] left$/);
    equal(seen[0].auth, "Bearer tok-1");
    first.querySelector<HTMLInputElement>("input")!.value = "Looks fine";
    first.querySelector<HTMLButtonElement>("[data-decision=approve]")!.click();
    await until(
      () => root.querySelector(".notice")?.textContent?.includes("Approved"),
      "the notice",
    );
    // The notice names the tool, never only the request's id.
    match(root.querySelector(".notice")!.textContent!, /^Approved run_shell\.$/);
    const post = seen.find((s) => s.method === "POST")!;
    equal(post.path, "/api/approvals/apr_1/decision");
    deepEqual(post.body, { decision: "approve", reason: "Looks fine" });
    await until(() => root.querySelectorAll(".approval").length === 1, "the list refreshed");
  });

  it("says so when a request was decided meanwhile (409)", async () => {
    const requests = [pending("apr_3", "deploy")];
    runtime(requests);
    mount("tok-1");
    const item = await until(() => root.querySelector<HTMLElement>('[data-request="apr_3"]'), "it");
    requests.splice(0); // decided in another tab
    item.querySelector<HTMLButtonElement>("[data-decision=deny]")!.click();
    const notice = await until(() => root.querySelector(".notice"), "the notice");
    match(
      notice.textContent!,
      /^deploy: Already decided or expired \(409\): apr_3 was decided already\./,
    );
  });

  it("says so when the token is refused (401), and without a token asks for the address", async () => {
    const seen = runtime([pending("apr_4", "deploy")]);
    mount("wrong");
    const error = await until(() => root.querySelector(".error"), "the error");
    match(error.textContent!, /refused the admin token \(401\)/);
    equal(root.querySelectorAll(".approval").length, 0);
    // A refused token is not tried again every interval.
    const asked = seen.length;
    await new Promise((r) => setTimeout(r, 350));
    equal(seen.length, asked, "no request after the 401");
    stop();
    root.remove();
    mount("");
    match(root.querySelector(".error")!.textContent!, /No admin token/);
  });
});
