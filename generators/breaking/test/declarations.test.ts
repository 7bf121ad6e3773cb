// What the SECURITY findings and the WIRE findings beyond JSON Schema keywords (x-rules, protocol
// constants) say and where they point (issue 41). rules.test.ts proves each rule fires; this file
// pins each finding's message, direction and position, so a detector that reports the wrong key,
// the wrong side or the wrong place fails. Messages are written by hand from the fixture's values
// (spec-fixture.ts's S, Open and protocol.yaml); lines are counted in the fixture files as written.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareRoots } from "../compare.js";
import type { Finding } from "../finding.js";
import { baseFiles, expectWitness, M, OPEN, PROTOCOL, S, writeTree, type Files } from "./spec-fixture.js";

function compare(edit: (f: Files) => void, base: (f: Files) => void = () => {}) {
  const before = baseFiles();
  base(before);
  const after = baseFiles();
  base(after);
  edit(after);
  const oldRoot = writeTree(before);
  const newRoot = writeTree(after);
  const { findings } = compareRoots(oldRoot, newRoot);
  const text = (root: string, file: string) => readFileSync(`${root}/${file}`, "utf8");
  return { findings, before, after, oldText: (file: string) => text(oldRoot, file), newText: (file: string) => text(newRoot, file) };
}

/** 1-based line of the first line of `text` that contains `part`. */
const lineOf = (text: string, part: string) => text.split("\n").findIndex((l) => l.includes(part)) + 1;
const of = (findings: Finding[], rule: string) => findings.filter((f) => f.rule === rule);

describe("SECURITY: what changed in a declaration", () => {
  it("signing lines reordered: both line lists, name=field, in order", () => {
    const { findings, oldText, newText } = compare((f) => void f[S]["x-signature"].lines.reverse());
    const [hit, ...more] = of(findings, "SECURITY_SIGNATURE_CHANGED");
    expect(more).toEqual([]);
    expect(hit!.message).toBe("S: x-signature covered lines [sub=sub, exp=exp] -> [exp=exp, sub=sub]");
    expect(hit!.removed).toBe(false);
    expect(hit!.at).toMatchObject({ file: S, pointer: "/x-signature", line: lineOf(newText(S), '"x-signature"') });
    expect(hit!.old).toMatchObject({ file: S, pointer: "/x-signature", line: lineOf(oldText(S), '"x-signature"') });
  });
  it("a line's value other than string is written in parentheses; a line that is no object is ?", () => {
    const { findings } = compare((f) => {
      f[S]["x-signature"].lines[1].value = "sha256-hex";
      f[S]["x-signature"].lines.push("odd");
    });
    expect(of(findings, "SECURITY_SIGNATURE_CHANGED").map((f) => f.message)).toEqual(["S: x-signature covered lines [sub=sub, exp=exp] -> [sub=sub, exp=exp(sha256-hex), ?]"]);
  });
  it("lines that are not a list on one side are shown as a member change", () => {
    const { findings } = compare((f) => void (f[S]["x-signature"].lines = "sub,exp"));
    expect(of(findings, "SECURITY_SIGNATURE_CHANGED").map((f) => f.message)).toEqual(['S: x-signature lines [{"name":"sub","field":"sub","value":"string"},{"name":"exp","field":"exp","value":"string"}] -> "sub,exp"']);
  });
  it("each changed member with its old and new value, unset when absent, joined by '; '", () => {
    const { findings } = compare((f) => {
      const replay = f[S]["x-replay"];
      replay.skewSeconds = 60;
      delete replay.expiresAtField;
      replay.window = "1h";
    });
    expect(of(findings, "SECURITY_REPLAY_CHANGED").map((f) => f.message)).toEqual(['S: x-replay expiresAtField "exp" -> unset; skewSeconds 30 -> 60; window unset -> "1h"']);
  });
  it("lines unchanged while another member changes: only that member, not the lines", () => {
    const { findings } = compare((f) => void (f[S]["x-signature"].algorithmId = "a2"));
    expect(of(findings, "SECURITY_SIGNATURE_CHANGED").map((f) => f.message)).toEqual(['S: x-signature algorithmId "a1" -> "a2"']);
    const fromText = compare((f) => void (f[S]["x-signature"].algorithmId = "a2"), (f) => void (f[S]["x-signature"].lines = "sub,exp"));
    expect(of(fromText.findings, "SECURITY_SIGNATURE_CHANGED").map((f) => f.message)).toEqual(['S: x-signature algorithmId "a1" -> "a2"']);
  });
  it("a declaration that is not an object on one side: declaration changed", () => {
    const { findings } = compare((f) => void (f[S]["x-content-address"] = "sha256"));
    expect(of(findings, "SECURITY_CONTENT_ADDRESS_CHANGED").map((f) => f.message)).toEqual(["S: x-content-address declaration changed"]);
  });
  it("an unchanged declaration written with its members in another order is no finding", () => {
    const { findings } = compare((f) => void (f[S]["x-replay"] = Object.fromEntries(Object.entries(f[S]["x-replay"]).reverse())));
    expect(findings).toEqual([]);
  });
  it("a message removed with its declarations: one finding per declaration, at the old declaration", () => {
    const { findings, oldText } = compare((f) => void delete f[S]);
    const security = findings.filter((f) => f.category === "SECURITY");
    expect(security.map((f) => [f.rule, f.message, f.removed])).toEqual([
      ["SECURITY_SIGNATURE_CHANGED", "S: x-signature removed with its message", true],
      ["SECURITY_CONTENT_ADDRESS_CHANGED", "S: x-content-address removed with its message", true],
      ["SECURITY_REPLAY_CHANGED", "S: x-replay removed with its message", true],
      ["SECURITY_APPROVAL_TOKEN_CHANGED", "S: x-approval-token removed with its message", true],
    ]);
    for (const f of security) {
      const key = /x-[a-z-]+/.exec(f.message)![0];
      expect(f.at, f.rule).toEqual(f.old);
      expect(f.old, f.rule).toMatchObject({ file: S, pointer: `/${key}`, line: lineOf(oldText(S), `"${key}"`) });
    }
  });
  it("a declaration added: at the new declaration, the old position is the message", () => {
    const { findings, newText } = compare(() => {}, (f) => void delete f[S]["x-replay"]);
    expect(findings).toEqual([]);
    const added = compare((f) => void (f[S]["x-replay"] = { keyFields: ["sub"] }), (f) => void delete f[S]["x-replay"]);
    const [hit] = of(added.findings, "SECURITY_REPLAY_CHANGED");
    expect(hit).toMatchObject({ removed: false, message: "S: x-replay declaration added", at: { pointer: "/x-replay", line: lineOf(added.newText(S), '"x-replay"') }, old: { pointer: "", line: 1 } });
    void newText;
  });
});

describe("SECURITY: the approval token's claim set", () => {
  it("a claim added: old and new sets, sorted, optional claims marked ?, at /properties", () => {
    const { findings, oldText, newText } = compare((f) => void (f[S].properties.aud = { type: "string" }));
    const hit = of(findings, "SECURITY_APPROVAL_TOKEN_CHANGED");
    expect(hit.map((f) => f.message)).toEqual(["S: approval-token claim set [exp, sig?, sub] -> [aud?, exp, sig?, sub]"]);
    expect(hit[0]!.at).toMatchObject({ pointer: "/properties", line: lineOf(newText(S), '"properties"') });
    expect(hit[0]!.old).toMatchObject({ pointer: "/properties", line: lineOf(oldText(S), '"properties"') });
  });
  it("a claim made required drops its ?", () => {
    const { findings } = compare((f) => void f[S].required.push("sig"));
    expect(of(findings, "SECURITY_APPROVAL_TOKEN_CHANGED").map((f) => f.message)).toEqual(["S: approval-token claim set [exp, sig?, sub] -> [exp, sig, sub]"]);
  });
  it("no properties or required list at all is the empty set", () => {
    const { findings } = compare((f) => {
      delete f[S].properties;
      delete f[S].required;
    });
    expect(of(findings, "SECURITY_APPROVAL_TOKEN_CHANGED").map((f) => f.message)).toEqual(["S: approval-token claim set [exp, sig?, sub] -> []"]);
  });
  it("a token added while the claims change: the declaration added, no claim-set finding (there was no old token to compare)", () => {
    const { findings } = compare((f) => {
      f[S]["x-approval-token"] = { version: 1 };
      f[S].properties.aud = { type: "string" };
    }, (f) => void delete f[S]["x-approval-token"]);
    expect(of(findings, "SECURITY_APPROVAL_TOKEN_CHANGED").map((f) => f.message)).toEqual(["S: x-approval-token declaration added"]);
  });
  it("claims changed on a message without a token, or whose token is dropped, are no claim-set finding", () => {
    const without = compare((f) => void (f[S].properties.aud = { type: "string" }), (f) => void delete f[S]["x-approval-token"]);
    expect(of(without.findings, "SECURITY_APPROVAL_TOKEN_CHANGED")).toEqual([]);
    const dropped = compare((f) => {
      delete f[S]["x-approval-token"];
      f[S].properties.aud = { type: "string" };
    });
    expect(of(dropped.findings, "SECURITY_APPROVAL_TOKEN_CHANGED").map((f) => f.message)).toEqual(["S: x-approval-token declaration removed"]);
  });
});

describe("WIRE: x-rules", () => {
  const rule = { id: "name-is-kind", kind: "equal", left: "/name", right: "/kind", message: "name must equal kind" };
  const withRule = (f: Files) => void (f[M]["x-rules"] = [rule]);
  it("a rule added: new readers reject old instances, at the new rule, the old position the list", () => {
    const { findings, before, after } = compare(withRule);
    const [hit, ...more] = of(findings, "WIRE_RULE_CHANGED");
    expect(more).toEqual([]);
    expect(hit).toMatchObject({ message: "M: x-rules name-is-kind added: new readers reject old instances that break it", direction: "old-writer-new-reader", removed: false, at: { file: M, pointer: "/x-rules/0" }, old: { file: M, pointer: "/x-rules" } });
    expectWitness(hit!, before, after);
  });
  it("a rule removed: old readers reject new instances, removed, at the old rule", () => {
    const { findings, before, after } = compare((f) => void delete f[M]["x-rules"], withRule);
    const [hit, ...more] = of(findings, "WIRE_RULE_CHANGED");
    expect(more).toEqual([]);
    expect(hit).toMatchObject({ message: "M: x-rules name-is-kind removed: old readers reject new instances that break it", direction: "new-writer-old-reader", removed: true, at: { pointer: "/x-rules" }, old: { pointer: "/x-rules/0" } });
    expectWitness(hit!, before, after);
  });
  it("a rule changed: either side, at both rules' own indexes", () => {
    const first = { id: "a-first", kind: "noSecrets", text: "/name", message: "no secrets in name" };
    // Old: name equals kind; new: name equals fixed. {kind a, name a} is refused by the new version only.
    const moved = { instance: { kind: "a", name: "a", fixed: "v1" }, error: { rule: "name-is-kind" } };
    const { findings, before, after } = compare((f) => {
      f[M]["x-rules"] = [first, { ...rule, right: "/fixed" }];
      f[M]["x-invalid-examples"] = [moved];
    }, (f) => void (f[M]["x-rules"] = [rule, first]));
    const hit = of(findings, "WIRE_RULE_CHANGED");
    expect(hit.map((f) => [f.message, f.direction, f.at.pointer, f.old?.pointer, f.removed])).toEqual([["M: x-rules name-is-kind changed: the two versions refuse different instances", "either", "/x-rules/1", "/x-rules/0", false]]);
    expectWitness(hit[0]!, before, after);
  });
  it("without witnesses, a rule added to a message that had no x-rules is the only x-rules finding", () => {
    const before = baseFiles();
    const after = baseFiles();
    withRule(after);
    const { findings } = compareRoots(writeTree(before), writeTree(after), { witnesses: false });
    expect(of(findings, "WIRE_RULE_CHANGED").map((f) => f.message)).toEqual(["M: x-rules name-is-kind added: new readers reject old instances that break it"]);
  });
  it("a rule added to a message without examples: a witness is synthesized from the schema", () => {
    const { findings, before, after } = compare(withRule, (f) => void delete f[M].examples);
    const hit = of(findings, "WIRE_RULE_CHANGED");
    expect(hit.map((f) => f.message)).toEqual(["M: x-rules name-is-kind added: new readers reject old instances that break it"]);
    expectWitness(hit[0]!, before, after);
  });
  it("a rule changed where only the spec's invalid example shows it: that example is the witness", () => {
    // Open declares only a: no instance built from its schema has b, so b-is-a always holds, and
    // no string built for a carries a secret: only the example does.
    const secret = { a: "Bearer abcdefgh" };
    const { findings } = compare((f) => {
      f[OPEN]["x-rules"] = [{ id: "b-is-a", kind: "noSecrets", text: "/a", message: "a carries no secret" }];
      f[OPEN]["x-invalid-examples"] = [{ instance: secret, error: { rule: "b-is-a" } }];
    });
    expect(of(findings, "WIRE_RULE_CHANGED").map((f) => [f.message, f.witness])).toEqual([["Open: x-rules b-is-a changed: the two versions refuse different instances", { instance: secret, acceptedBy: "old" }]]);
  });
  it("a rule no instance can break (a field equal to itself) is no finding: the change shows only with a witness", () => {
    const { findings } = compare((f) => void f[OPEN]["x-rules"].push({ id: "a-is-a", kind: "equal", left: "/a", right: "/a", message: "a is a" }));
    expect(of(findings, "WIRE_RULE_CHANGED")).toEqual([]);
  });
  it("only the invalid examples that name the rule are tried first; entries without an error, or no objects, are skipped", () => {
    const other = { kind: "b", name: "yy" };
    const named = { kind: "b", name: "zz" };
    const { findings } = compare((f) => {
      withRule(f);
      f[M]["x-invalid-examples"] = ["not an example", { instance: other }, { instance: other, error: "free text" }, { instance: other, error: { rule: "another-rule" } }, { instance: named, error: { rule: "name-is-kind" } }];
    });
    expect(of(findings, "WIRE_RULE_CHANGED")[0]!.witness).toEqual({ instance: named, acceptedBy: "old" });
  });
  it("the spec's own invalid example that names a rule is the witness a new rule is shown with", () => {
    // {kind: "a", name: "b"} breaks name-is-kind; the schema's own examples satisfy it.
    const invalid = { kind: "b", name: "zz" };
    const { findings } = compare((f) => {
      withRule(f);
      f[M]["x-invalid-examples"] = [{ instance: invalid, error: { rule: "name-is-kind" } }];
    });
    expect(of(findings, "WIRE_RULE_CHANGED")[0]!.witness).toEqual({ instance: invalid, acceptedBy: "old" });
  });
});

describe("WIRE: protocol constants", () => {
  it("a changed value: both values, either side, the old value is the witness, at both values' lines", () => {
    const { findings, oldText, newText } = compare((f) => void (f[PROTOCOL].constants[0].items[1].value = "b2"));
    const [hit, ...more] = of(findings, "WIRE_CONSTANT_CHANGED");
    expect(more).toEqual([]);
    expect(hit).toMatchObject({ message: 'constant p g.B changed from "b" to "b2": peers on the two versions send and expect different values', direction: "either", witness: { instance: "b", acceptedBy: "old" } });
    expect(hit!.at).toMatchObject({ file: PROTOCOL, pointer: "/constants/0/items/1/value", line: lineOf(newText(PROTOCOL), '"b2"') });
    expect(hit!.old).toMatchObject({ file: PROTOCOL, pointer: "/constants/0/items/1/value", line: lineOf(oldText(PROTOCOL), '"value": "b"') });
  });
  it("a constant moved to another index with its value is no change; one whose old value was unset has no witness", () => {
    expect(of(compare((f) => void f[PROTOCOL].constants[0].items.reverse()).findings, "WIRE_CONSTANT_CHANGED")).toEqual([]);
    const { findings } = compare((f) => void (f[PROTOCOL].constants[0].items[0].value = "a"), (f) => void delete f[PROTOCOL].constants[0].items[0].value);
    const [hit] = of(findings, "WIRE_CONSTANT_CHANGED");
    expect(hit!.message).toBe('constant p g.A changed from undefined to "a": peers on the two versions send and expect different values');
    expect(hit!.witness ?? null).toBeNull();
  });
  it("constants are told apart by group: the same name in two groups is two constants", () => {
    const { findings } = compare((f) => void (f[PROTOCOL].constants[1].items[0].value = "z"), (f) => void f[PROTOCOL].constants.push({ group: "h", items: [{ name: "A", value: "a" }] }));
    expect(of(findings, "WIRE_CONSTANT_CHANGED").map((f) => [f.message.split(":")[0], f.at.pointer])).toEqual([['constant p h.A changed from "a" to "z"', "/constants/1/items/0/value"]]);
  });
  it("a constant removed is SOURCE_CONSTANT_REMOVED only; a protocol without constants has none", () => {
    const { findings } = compare((f) => void f[PROTOCOL].constants[0].items.pop());
    expect(findings.map((f) => f.rule)).toEqual(["SOURCE_CONSTANT_REMOVED"]);
    expect(compare((f) => void (f[PROTOCOL].title = "P2"), (f) => void delete f[PROTOCOL].constants).findings).toEqual([]);
  });
  it("items that are null or not objects are skipped", () => {
    const odd = (f: Files) => void f[PROTOCOL].constants[0].items.push(null, "x");
    expect(compare((f) => void (f[PROTOCOL].constants[0].items[1].value = "b2"), odd).findings.map((f) => f.rule)).toEqual(["WIRE_CONSTANT_CHANGED"]);
  });
  it("groups and items that are not objects, or a group without items, hold no constants", () => {
    const { findings } = compare((f) => void (f[PROTOCOL].constants = [{ group: "g", items: [{ name: "A", value: "a" }, { name: "B", value: "b" }] }, "not a group", { group: "x" }]));
    expect(of(findings, "WIRE_CONSTANT_CHANGED")).toEqual([]);
  });
});
