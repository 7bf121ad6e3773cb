// The kit's connection-free checks (generators/conformance/checks.ts) against hand-written tables:
// JSON pointers with item selectors, one field against each FieldExpect form, deep equality, and
// the x-sse ordering rules, each with a case that meets it and one that breaks it.
import { describe, expect, it } from "vitest";
import { checkField, checkOrdering, deepEqual, describeMatch, getPointer, lastInteraction, summarize } from "../../generators/conformance/checks.js";
import type { Frame, Json } from "../../generators/conformance/types.js";

describe("getPointer", () => {
  const doc: Json = { a: { "b/c": 1, "d~e": 2, list: [{ label: "Change to high", v: 1 }, { label: "Keep", v: 2 }] }, n: null, "": 3 };
  it.each([
    ["", { found: true, value: doc }],
    ["/a/b~1c", { found: true, value: 1 }],
    ["/a/d~0e", { found: true, value: 2 }],
    ["/", { found: true, value: 3 }],
    ["/n", { found: true, value: null }],
    ["/a/list/1/v", { found: true, value: 2 }],
    ["/a/list/0/v", { found: true, value: 1 }],
    ["/a/list/[label=Keep]/v", { found: true, value: 2 }],
    ["/a/list/[label^=Change to]/v", { found: true, value: 1 }],
    ["/a/list/[v=2]/label", { found: true, value: "Keep" }],
  ] as const)("%s is found", (pointer, want) => expect(getPointer(doc, pointer)).toEqual(want));
  it.each([
    "/missing",
    "/a/list/2",
    "/a/list/-1",
    "/a/list/1.5",
    "/a/list/x",
    "/a/list/[label=Nope]",
    "/a/list/[label^=Nope]",
    "/a/[label=Keep]",
    "/n/x",
    "/a/b~1c/x",
    "/a/toString",
    "/a/__proto__",
  ])("%s is not found", (pointer) => expect(getPointer(doc, pointer)).toEqual({ found: false }));
  it("a token is a selector only when the whole token is [name=value] or [name^=value]", () => {
    const names: Json = { "x[k=v]": 1, "[k=v]x": 2 };
    expect(getPointer(names, "/x[k=v]")).toEqual({ found: true, value: 1 });
    expect(getPointer(names, "/[k=v]x")).toEqual({ found: true, value: 2 });
  });
  it("an array index is a whole non-negative integer below the length: not 'length', not '01'", () => {
    expect(getPointer([1, 2], "/length")).toEqual({ found: false });
    expect(getPointer([1, 2], "/01")).toEqual({ found: true, value: 2 });
    expect(getPointer({ s: "abc" }, "/s/length")).toEqual({ found: false });
    expect(getPointer({ s: "abc" }, "/s/0")).toEqual({ found: false });
  });
  it("a selector matches objects only, never an array item", () => {
    const got = getPointer([[5], { 0: 5 }], "/[0=5]");
    // toEqual would take [5] for { 0: 5 }: the array-ness is checked on its own.
    expect(got).toEqual({ found: true, value: { 0: 5 } });
    expect(Array.isArray(got.value)).toBe(false);
  });
  it("a selector never matches a primitive item through its properties", () => {
    expect(getPointer(["abc", { length: 3 }], "/[length=3]")).toEqual({ found: true, value: { length: 3 } });
  });
  it("a selector skips non-object items and prefix-matches strings only", () => {
    expect(getPointer([1, null, [2], { k: 5 }, { k: "5x" }], "/[k=5]")).toEqual({ found: true, value: { k: 5 } });
    expect(getPointer([{ k: 5 }, { k: "5x" }], "/[k^=5]")).toEqual({ found: true, value: { k: "5x" } });
  });
});

describe("checkField", () => {
  const ok = (value: Json | undefined, exp: Parameters<typeof checkField>[2], found = value !== undefined) => checkField(value, found, exp);
  it.each([
    ["a literal equal", "x", "x"],
    ["a literal null", null, null],
    ["a literal object", { a: [1] }, { a: [1] }],
    ["equals", 5, { equals: 5 }],
    ["notEquals", 5, { notEquals: 6 }],
    ["notEquals alone, absent", undefined, { notEquals: 6 }],
    ["present: false, absent", undefined, { present: false }],
    ["present: true", 0, { present: true }],
    ["type string", "s", { type: "string" }],
    ["type null", null, { type: "null" }],
    ["type array", [], { type: "array" }],
    ["type object", {}, { type: "object" }],
    ["startsWith", "hello", { startsWith: "he" }],
    ["contains", "hello", { contains: "ell" }],
    ["notContains", "hello", { notContains: "xyz" }],
    ["notContains empty", "hello", { notContains: "" }],
    ["pattern (unicode)", "é1", { pattern: "^\\p{L}\\d$" }],
    ["length of a string in code points", "a😀", { length: 2 }],
    ["length of an array", [1, 2, 3], { length: 3 }],
  ] as const)("meets: %s", (_what, value, exp) => expect(ok(value as Json | undefined, exp as never)).toBeUndefined());
  it.each([
    ["a literal unequal", "y", "x", '"y", expected "x"'],
    ["a literal, absent", undefined, "x", "absent, expected \"x\""],
    ["equals", 5, { equals: 6 }, "5, expected 6"],
    ["notEquals", 6, { notEquals: 6 }, "6, expected anything else"],
    ["present: false", 1, { present: false }, "present (1)"],
    ["present: true", undefined, { present: true }, "absent"],
    ["any other form, absent", undefined, { type: "string" }, "absent"],
    ["notEquals with another check, absent", undefined, { notEquals: 6, type: "number" }, "absent"],
    ["type", "5", { type: "number" }, '"5" is not of type number'],
    ["type array is not object", [], { type: "object" }, "[] is not of type object"],
    ["type null is not object", null, { type: "object" }, "null is not of type object"],
    ["startsWith on a non-string", 5, { startsWith: "5" }, "5 is not a string"],
    ["contains on a non-string", 5, { contains: "5" }, "5 is not a string"],
    ["notContains on a non-string", 5, { notContains: "6" }, "5 is not a string"],
    ["pattern on a non-string", 5, { pattern: "5" }, "5 is not a string"],
    ["startsWith", "hello", { startsWith: "el" }, '"hello" does not start with "el"'],
    ["contains", "hello", { contains: "xyz" }, '"hello" does not contain "xyz"'],
    ["notContains", "hello", { notContains: "ll" }, '"hello" contains "ll"'],
    ["pattern", "ab", { pattern: "^a$" }, '"ab" does not match /^a$/'],
    ["length", "abc", { length: 2 }, "length 3, expected 2"],
    ["length of a number", 5, { length: 1 }, "length -1, expected 1"],
  ] as const)("breaks: %s", (_what, value, exp, why) => {
    const got = ok(value as Json | undefined, exp as never);
    expect(got).toBe(why);
  });
  it("a long value is shown cut at 160 characters", () => {
    expect(checkField("x".repeat(300), true, "y")).toBe(`${JSON.stringify("x".repeat(300)).slice(0, 160)}, expected "y"`);
  });
});

describe("deepEqual", () => {
  it.each([
    [1, 1, true],
    [1, "1", false],
    [null, null, true],
    [null, {}, false],
    [{}, null, false],
    [[], {}, false],
    [{}, [], false],
    [[1, [2]], [1, [2]], true],
    [[1, 2], [1], false],
    [[1, 2], [2, 1], false],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: 1, b: 2 }, { a: 1 }, false],
    [{ a: 1, b: 2 }, { a: 1, c: 2 }, false],
    [{ a: { b: 1 } }, { a: { b: 2 } }, false],
    [{ a: undefined } as never, { b: undefined } as never, false],
    [{}, 1, false],
    [{}, 0, false],
    [[1], [1, 2], false],
    [[1, 2], [1, 3], false],
  ] as const)("%j and %j: %s", (a, b, want) => expect(deepEqual(a as Json, b as Json)).toBe(want));
});

const step = (type: string, id = "w", runId?: string): Frame => ({
  kind: "step",
  message: "IntermediateStep",
  payload: { id, type, name: type.toLowerCase(), ...(runId ? { payload: { metadata: { provided_metadata: { workflow_run_id: runId } } } } : {}) },
  raw: `intermediate_data: ${type}`,
});
const frame = (kind: Frame["kind"], payload: Json = {}): Frame => ({ kind, message: "M", payload, raw: `${kind} frame` });
const interaction = (execution: string, id: string) => frame("interaction", { execution_id: execution, interaction_id: id });

describe("checkOrdering", () => {
  it.each([
    ["an ordered run", [step("WORKFLOW_START", "w", "run"), step("TOOL_START"), frame("answer"), step("WORKFLOW_END")], true],
    ["no workflow frames at all", [frame("answer")], true],
    ["an unfinished stream may lack the end", [step("WORKFLOW_START"), frame("answer")], false],
    ["an unfinished stream with the end not last yet", [step("WORKFLOW_START"), step("WORKFLOW_END"), frame("answer")], false],
    ["one error frame", [step("WORKFLOW_START"), frame("error"), step("WORKFLOW_END")], true],
    ["interactions of the run", [step("WORKFLOW_START", "w", "run"), interaction("run", "i1"), interaction("run", "i2")], false],
    ["interactions without a start", [interaction("e", "i1"), interaction("e", "i2")], false],
    ["an end without a start", [frame("answer"), step("WORKFLOW_END")], true],
    ["a start whose payload has no metadata", [{ ...step("WORKFLOW_START"), payload: { id: "w", type: "WORKFLOW_START", payload: {} } }, interaction("e", "i")], false],
    ["a start whose metadata has no provided_metadata", [{ ...step("WORKFLOW_START"), payload: { id: "w", type: "WORKFLOW_START", payload: { metadata: {} } } }, interaction("e", "i")], false],
    ["answer frames whose payload carries a workflow type", [step("WORKFLOW_START"), frame("answer", { type: "WORKFLOW_START" }), frame("answer", { type: "WORKFLOW_END" }), frame("answer", { type: "WORKFLOW_END" }), step("WORKFLOW_END")], true],
  ] as const)("holds: %s", (_what, frames, ended) => expect(checkOrdering([...frames], ended)).toBeUndefined());
  it.each([
    ["two starts", [step("WORKFLOW_START"), step("WORKFLOW_START")], true, "2 WORKFLOW_START frames"],
    ["two ends", [step("WORKFLOW_END"), step("WORKFLOW_END")], true, "2 WORKFLOW_END frames"],
    ["a start not first", [frame("answer"), step("WORKFLOW_START")], true, "WORKFLOW_START is not the first frame"],
    ["an end not last", [step("WORKFLOW_START"), step("WORKFLOW_END"), frame("answer")], true, "WORKFLOW_END is not the last frame"],
    ["an end with another id", [step("WORKFLOW_START", "a"), step("WORKFLOW_END", "b")], true, "WORKFLOW_END does not reuse the WORKFLOW_START id"],
    ["an end with another id, unfinished", [step("WORKFLOW_START", "a"), step("WORKFLOW_END", "b"), frame("answer")], false, "WORKFLOW_END does not reuse the WORKFLOW_START id"],
    ["two errors", [frame("error"), frame("error")], true, "2 error frames (at most one)"],
    ["interactions of two executions", [interaction("e1", "i1"), interaction("e2", "i2")], true, "interaction frames of one run carry different execution_ids"],
    ["an interaction of another run", [step("WORKFLOW_START", "w", "run"), interaction("other", "i1")], false, "interaction execution_id differs from workflow_run_id"],
    ["an interaction id reused", [interaction("e", "i"), interaction("e", "i")], true, "an interaction_id is reused within the run"],
  ] as const)("breaks: %s", (_what, frames, ended, why) => expect(checkOrdering([...frames], ended)).toBe(why));
});

describe("frame helpers", () => {
  it("lastInteraction is the last interaction frame, or none", () => {
    const a = interaction("e", "1");
    const b = interaction("e", "2");
    expect(lastInteraction([a, frame("answer"), b, frame("answer")])).toBe(b);
    expect(lastInteraction([frame("answer")])).toBeUndefined();
  });
  it("summarize names steps by type:name and other frames by kind, cut after 24 with an ellipsis", () => {
    expect(summarize([step("TOOL_START"), frame("answer")])).toBe("TOOL_START:tool_start answer");
    const many = Array.from({ length: 25 }, () => frame("answer"));
    expect(summarize(many)).toBe(`${Array(24).fill("answer").join(" ")} …`);
    expect(summarize(many.slice(0, 24))).toBe(Array(24).fill("answer").join(" "));
  });
  it("describeMatch is the match as JSON", () => expect(describeMatch({ kind: "step", type: "X" })).toBe('{"kind":"step","type":"X"}'));
});
