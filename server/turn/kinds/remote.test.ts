import { test } from "node:test";
import assert from "node:assert/strict";
import type { CallRecord } from "../../session/records.ts";
import { modeOf } from "./kind.ts";
import { type RemoteData, remoteKind } from "./remote.ts";

const call = (extra: Partial<CallRecord<RemoteData>> & Record<string, unknown>) => ({
  call_id: "c1",
  tool_name: "delete_note",
  category: "remote",
  arguments: {},
  step: 0,
  status: "running" as const,
  ...extra,
});

test("a remote call keeps its verb and integration as the kind's data, taken from the tool", () => {
  const data = remoteKind.callData!({
    name: "delete_note",
    description: "Delete.",
    parameters: {},
    category: "remote",
    data: { integrationId: "int_1", verb: "delete" },
  });
  assert.deepEqual(data, { integrationId: "int_1", verb: "delete" });
  assert.equal(modeOf(remoteKind, call({ data })), "pend");
  assert.equal(modeOf(remoteKind, call({ data: { integrationId: "int_1", verb: "get" } })), "run");
  assert.deepEqual(remoteKind.describe!(call({ data })), { verb: "delete" });
});

test("a call stored before kinds kept their data still reads its verb from the record", () => {
  const legacy = call({ verb: "get", integration_id: "int_1" });
  assert.equal(modeOf(remoteKind, legacy), "run");
  assert.deepEqual(remoteKind.describe!(call({ verb: "update" })), { verb: "update" });
});
