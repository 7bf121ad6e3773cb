// A message's x-rules as straight-line Swift (`checkRules`): every pointer becomes a chain of
// member steps resolved at generation time, every rule a call of its kind's one definition in
// Runtime/Rules.swift (RuleKinds). The rules stay on the type as values (`rules`) for the
// reference evaluation, CrossFieldRules.check, which the differential test compares with this.
import type { CrossFieldRule } from "../../model/types.js";
import { stringLiteral } from "./naming.js";

const ARRAY_INDEX = /^(0|[1-9][0-9]{0,8})$/;

/** `/a/0/b` as `value["a"]?.itemOrMember(0, "0")?["b"]?.nonNull` (RFC 6901 tokens). */
export function pointerCode(pointer: string, root = "value"): string {
  if (pointer === "") return `${root}.nonNull`;
  const steps = pointer
    .slice(1)
    .split("/")
    .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((token, i) => {
      const optional = i === 0 ? "" : "?";
      return ARRAY_INDEX.test(token) ? `${optional}.itemOrMember(${token}, ${stringLiteral(token)})` : `${optional}[${stringLiteral(token)}]`;
    });
  return `${root}${steps.join("")}?.nonNull`;
}

function ruleStatement(rule: CrossFieldRule, index: number): string {
  const s = stringLiteral;
  const p = (pointer: string): string => pointerCode(pointer);
  const report = (pointer: string): string => `{ errors.append(CrossFieldRules.error(rules[${index}], at: ${s(pointer)})) }`;
  const reportSuffix = (call: string, pointer: string): string => `if let suffix = ${call} { errors.append(CrossFieldRules.error(rules[${index}], at: ${s(pointer)} + suffix)) }`;
  switch (rule.kind) {
    case "equal":
      return `if RuleKinds.equalBroken(${p(rule.left)}, ${p(rule.right)}) ${report(rule.left)}`;
    case "urlOriginIn":
      return `if RuleKinds.urlOriginInBroken(${p(rule.url)}, ${p(rule.list)}) ${report(rule.url)}`;
    case "semverLte":
      return `if RuleKinds.semverLteBroken(${p(rule.lower)}, ${p(rule.upper)}) ${report(rule.lower)}`;
    case "semverRangeIncludes":
      return `if RuleKinds.semverRangeIncludesBroken(${p(rule.min)}, ${p(rule.max)}, version: ${s(rule.version)}) ${report(rule.min)}`;
    case "uniqueBy":
      return reportSuffix(`RuleKinds.uniqueBy(${p(rule.array)}, key: ${s(rule.key)})`, rule.array);
    case "lastItemEquals":
      return reportSuffix(`RuleKinds.lastItemEquals(${p(rule.array)}, key: ${s(rule.key)}, value: ${s(rule.value)})`, rule.array);
    case "noSecrets":
      return reportSuffix(`RuleKinds.noSecrets(${p(rule.text)})`, rule.text);
    case "whatwgUrl":
      return reportSuffix(`RuleKinds.whatwgURL(${p(rule.url)}, form: ${s(rule.form)})`, rule.url);
  }
}

/** The `checkRules` member of a message type with rules; "" for one without (the default applies). */
export function compiledRulesMember(rules: readonly CrossFieldRule[], indent: string): string {
  if (rules.length === 0) return "";
  const i1 = `${indent}    `;
  const body = rules.flatMap((rule, i) => [`${i1}// ${rule.id}`, `${i1}${ruleStatement(rule, i)}`]);
  return [
    `${indent}/// The x-rules as straight-line code: the same errors as CrossFieldRules.check(value, rules).`,
    `${indent}public static func checkRules(_ value: JSONValue) -> [ValidationError] {`,
    `${i1}var errors: [ValidationError] = []`,
    ...body,
    `${i1}return errors`,
    `${indent}}`,
    "",
  ].join("\n");
}
