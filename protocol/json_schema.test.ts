import assert from "node:assert/strict";
import { test } from "node:test";
import { type JsonSchema, validateJsonSchema as validateWithin50ms } from "./json_schema.ts";

/**
 * Validation with the 50 ms wall-clock deadline lifted: these tests are of what a schema
 * accepts, and on a loaded machine one pause can outlast 50 ms
 * (`json_schema_bounds.test.ts` tests the deadline).
 */
const validateJsonSchema = (schema: JsonSchema, value: unknown) =>
  validateWithin50ms(schema, value, { deadlineMs: 5_000 });

const paths = (schema: JsonSchema, value: unknown) =>
  validateJsonSchema(schema, value).map((i) => i.path);
const valid = (schema: JsonSchema, value: unknown) =>
  assert.deepEqual(validateJsonSchema(schema, value), []);

test("type checks every JSON type, integer and lists of types", () => {
  valid({ type: "integer" }, 3);
  assert.deepEqual(paths({ type: "integer" }, 3.5), [""]);
  valid({ type: "number" }, 3.5);
  assert.deepEqual(paths({ type: "number" }, "3"), [""]);
  valid({ type: "null" }, null);
  assert.deepEqual(paths({ type: "object" }, null), [""]);
  assert.deepEqual(paths({ type: "object" }, []), [""]);
  assert.deepEqual(paths({ type: "array" }, {}), [""]);
  valid({ type: ["string", "null"] }, null);
  assert.deepEqual(paths({ type: ["string", "null"] }, 1), [""]);
  assert.deepEqual(paths({ type: "boolean" }, "true"), [""]);
});

test("a type mismatch names the field and the expected type", () => {
  const [issue] = validateJsonSchema({
    type: "object",
    properties: { number: { type: "integer" } },
  }, { number: "42" });
  assert.deepEqual(issue, {
    path: "number",
    message: "number must be an integer, not a string; send an integer.",
  });
});

test("required properties are reported at their own path", () => {
  const schema = { type: "object", properties: { a: {}, b: {} }, required: ["a", "b"] };
  assert.deepEqual(paths(schema, { a: 1 }), ["b"]);
  valid(schema, { a: 1, b: null });
});

test("additionalProperties false rejects extras and a schema checks them", () => {
  const closed = { type: "object", properties: { a: {} }, additionalProperties: false };
  assert.deepEqual(validateJsonSchema(closed, { a: 1, z: 2 }), [
    { path: "z", message: "z is not a property the value accepts; remove it." },
  ]);
  assert.deepEqual(
    paths({ type: "object", additionalProperties: { type: "number" } }, { x: 1, y: "2" }),
    ["y"],
  );
  valid({ type: "object", properties: { a: {} } }, { a: 1, z: 2 });
});

test("enum and const compare JSON values deeply", () => {
  valid({ enum: ["a", { b: [1] }] }, { b: [1] });
  assert.deepEqual(paths({ enum: ["a", "b"] }, "c"), [""]);
  valid({ const: { x: 1 } }, { x: 1 });
  assert.deepEqual(paths({ const: { x: 1 } }, { x: 2 }), [""]);
  assert.deepEqual(paths({ const: null }, 0), [""]);
});

test("items, minItems, maxItems and uniqueItems check arrays", () => {
  assert.deepEqual(paths({ type: "array", items: { type: "string" } }, ["a", 2, "c", 4]), [
    "1",
    "3",
  ]);
  assert.deepEqual(paths({ minItems: 2 }, [1]), [""]);
  assert.deepEqual(paths({ maxItems: 1 }, [1, 2]), [""]);
  assert.deepEqual(paths({ uniqueItems: true }, [{ a: 1 }, { a: 1 }]), ["1"]);
  assert.deepEqual(
    paths({ items: [{ type: "string" }, { type: "number" }], additionalItems: false }, ["a", 1, 2]),
    ["2"],
  );
});

test("numeric bounds, exclusive bounds in both drafts and multipleOf", () => {
  valid({ minimum: 1, maximum: 3 }, 3);
  assert.deepEqual(paths({ minimum: 1 }, 0), [""]);
  assert.deepEqual(paths({ maximum: 3 }, 4), [""]);
  assert.deepEqual(paths({ exclusiveMinimum: 1 }, 1), [""]);
  assert.deepEqual(paths({ exclusiveMaximum: 3 }, 3), [""]);
  assert.deepEqual(paths({ minimum: 1, exclusiveMinimum: true }, 1), [""]);
  assert.deepEqual(paths({ maximum: 3, exclusiveMaximum: true }, 3), [""]);
  valid({ multipleOf: 0.1 }, 0.3);
  assert.deepEqual(paths({ multipleOf: 2 }, 3), [""]);
});

test("string length counts characters, not UTF-16 units, and pattern is a regular expression", () => {
  valid({ maxLength: 2 }, "😀😀");
  assert.deepEqual(paths({ maxLength: 1 }, "😀😀"), [""]);
  assert.deepEqual(paths({ minLength: 3 }, "ab"), [""]);
  valid({ pattern: "^[a-z]+$" }, "abc");
  assert.deepEqual(paths({ pattern: "^[a-z]+$" }, "ab1"), [""]);
  assert.match(
    validateJsonSchema({ pattern: "(" }, "x")[0]?.message ?? "",
    /not a valid regular expression/,
  );
});

test("anyOf needs one match, oneOf exactly one, allOf every one", () => {
  const nullableNumber = { anyOf: [{ type: "number" }, { type: "null" }] };
  valid(nullableNumber, null);
  assert.deepEqual(paths(nullableNumber, "x"), [""]);
  assert.deepEqual(paths({ oneOf: [{ type: "number" }, { type: "integer" }] }, 1), [""]);
  valid({ oneOf: [{ type: "number" }, { type: "integer" }] }, 1.5);
  assert.deepEqual(paths({ allOf: [{ minimum: 1 }, { maximum: 2 }] }, 3), [""]);
  assert.deepEqual(paths({ not: { type: "string" } }, "x"), [""]);
});

test("nested schemas report the full path of the problem", () => {
  const schema = {
    type: "object",
    properties: {
      rows: {
        type: "array",
        items: {
          type: "object",
          properties: { id: { type: "integer", minimum: 1 } },
          required: ["id"],
        },
      },
    },
  };
  assert.deepEqual(paths(schema, { rows: [{ id: 1 }, { id: 0 }, {}] }), ["rows.1.id", "rows.2.id"]);
});

test("local $ref resolves into $defs, including recursive definitions", () => {
  const schema = {
    $defs: {
      node: {
        type: "object",
        properties: {
          children: { type: "array", items: { $ref: "#/$defs/node" } },
          name: { type: "string" },
        },
      },
    },
    $ref: "#/$defs/node",
  };
  valid(schema, { name: "a", children: [{ name: "b", children: [] }] });
  assert.deepEqual(paths(schema, { children: [{ name: 1 }] }), ["children.0.name"]);
  assert.deepEqual(paths({ $ref: "#/$defs/missing" }, 1), [""]);
});

test("boolean schemas accept everything or nothing, and unknown keywords are ignored", () => {
  valid(true, { anything: 1 });
  assert.deepEqual(paths(false, 1), [""]);
  valid({ type: "string", format: "email", title: "Email", description: "d" }, "not an email");
});

test("validating deep values stops at a depth limit instead of overflowing the stack", () => {
  let value: unknown = 1;
  for (let i = 0; i < 1000; i++) value = [value];
  const schema: Record<string, unknown> = {};
  schema.items = schema;
  assert.equal(validateJsonSchema(schema, value).length, 1);
});
