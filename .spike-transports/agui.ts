import { RunAgentInputSchema } from "@ag-ui/core/schemas";
const r = RunAgentInputSchema.safeParse({ threadId: "t", runId: "r", messages: [{ id: "m", role: "user", content: [{ type: "text", text: "hi" }, { type: "image", source: { type: "data", value: "AAA", mimeType: "image/png" } }] }], tools: [], context: [] });
console.log(r.success, JSON.stringify(r.success ? r.data : r.error.issues).slice(0, 400));
const bad = RunAgentInputSchema.safeParse({ threadId: 5 });
console.log(bad.success, bad.error?.issues.map((i) => i.path.join(".") + ": " + i.message));
