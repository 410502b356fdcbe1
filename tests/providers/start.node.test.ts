/**
 * What users run: `npm start`'s built runtime, configured for a provider by
 * its environment variables only, against the local provider servers. The
 * requests carry each provider's rules, a refusal is logged in the
 * provider's words, and the key appears in no log line.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Brain } from "./_brain.ts";
import { anthropicMessagesServer } from "./anthropic_messages.ts";
import { openaiResponsesServer } from "./openai_responses.ts";
import { isTitleRequest, TEST_KEY } from "./rig.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

for (const kind of ["openai", "anthropic"] as const) {
  test(`npm start with ${kind}'s variables speaks its wire format and logs its refusals without the key`, async () => {
    const built = spawnSync(process.execPath, ["scripts/prestart.mjs"], {
      cwd: root,
      encoding: "utf8",
    });
    assert.equal(built.status, 0, built.stderr);
    let fail = false;
    const brain: Brain = () => (fail ? { fail: 429 } : { text: "Hello." });
    const server = kind === "openai"
      ? await openaiResponsesServer({ apiKey: TEST_KEY, brain })
      : await anthropicMessagesServer({ apiKey: TEST_KEY, brain });
    const env = kind === "openai"
      ? {
        OPENAI_API_KEY: TEST_KEY,
        OPENAI_BASE_URL: server.url,
        MODEL__DEFAULT: "openai:gpt-4o-mini",
      }
      : {
        ANTHROPIC_API_KEY: TEST_KEY,
        ANTHROPIC_BASE_URL: server.url,
        MODEL__DEFAULT: "anthropic:claude-sonnet-4-5",
      };
    const dir = mkdtempSync(join(tmpdir(), "tether-provider-start-"));
    const child = spawn(process.execPath, ["dist/server/runtime/start.js"], {
      cwd: root,
      env: { ...process.env, PORT: "0", STORE__URL: join(dir, "store.db"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const logs: string[] = [];
    createInterface({ input: child.stderr! }).on("line", (line) => logs.push(line));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.once(
          "exit",
          (code) => reject(new Error(`start.js exited with ${code}: ${logs.join("\n")}`)),
        );
        createInterface({ input: child.stdout! }).on("line", (line) => {
          logs.push(line);
          const found = /"url":"(http:\/\/[^"]+)"/.exec(line);
          if (found) resolve(found[1]);
        });
      });
      const chat = async (content: string) =>
        await (await fetch(`${url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url },
          body: JSON.stringify({ session_id: "start", content }),
        })).json();
      assert.equal((await chat("hi")).content, "Hello.");
      const body = server.requests.find((r) => !isTitleRequest(r))!.body;
      if (kind === "openai") assert.equal(body.store, false);
      else assert.equal(body.max_tokens, 8_192);
      fail = true;
      assert.equal((await chat("again")).error_type, "rate_limit");
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(logs.some((l) => l.includes("refused the request") && l.includes('"status":429')));
      assert.ok(!logs.some((l) => l.includes(TEST_KEY)), "no key in any log line");
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
