import { startDeno } from "../server/runtime/deno.ts";
import { HttpAgent } from "@ag-ui/client";
for (const socketIo of [false, true]) {
  const s = await startDeno({ port: 0, socketIo, env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline" } });
  const r = await fetch(`${s.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify({ id: "m1", session_id: "d1", content: "hello" }) });
  const text = await r.text();
  const resumed = await fetch(`${s.url}/api/sessions/d1/events?after=1`);
  const reader = resumed.body!.getReader(); const first = new TextDecoder().decode((await reader.read()).value); await reader.cancel();
  const agent = new HttpAgent({ url: `${s.url}/api/agui`, threadId: "d2" });
  agent.addMessage({ id: "u", role: "user", content: "hi" });
  await agent.runAgent();
  console.log(socketIo, r.status, text.split("\n\n").length - 1, "events;", first.split("\n")[0], "| agui:", String(agent.messages.at(-1)?.content).slice(0, 40));
  await s.close();
}
