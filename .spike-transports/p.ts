import { parseMessageBody, parseJoinSession } from "../protocol/mod.ts";
console.log(JSON.stringify(parseMessageBody({ session_id: "s", content: "hi" })));
console.log(JSON.stringify(parseMessageBody(5)));
console.log(JSON.stringify(parseJoinSession({ session_id: "s", after: 3 })));
console.log(JSON.stringify(parseJoinSession({})));
