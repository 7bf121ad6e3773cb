// A message's x-rules as straight-line Kotlin: every pointer becomes a chain of member steps
// resolved at generation time, and every rule a call of its kind's one semantic definition in
// runtime/CrossFieldRules.kt (RuleKinds). The rules stay in the object as values too, for the
// reference evaluation (CrossFieldRules.check), which the differential test compares with this.
import type { CrossFieldRule, Message } from "../../model/types.js";
import { rulesNames, stringLiteral } from "./kotlin-names.js";

const ARRAY_INDEX = /^(0|[1-9][0-9]{0,8})$/;

/** `/a/0/b` as `value.member("a").itemOrMember(0, "0").member("b").present()` (RFC 6901 tokens). */
export function pointerCode(pointer: string, root = "value"): string {
  if (pointer === "") return `${root}.present()`;
  const steps = pointer
    .slice(1)
    .split("/")
    .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((token) => (ARRAY_INDEX.test(token) ? `.itemOrMember(${token}, ${stringLiteral(token)})` : `.member(${stringLiteral(token)})`));
  return `${root}${steps.join("")}.present()`;
}

/** The Kotlin statement that checks [rule] (the [index]th of the message) and records its error. */
export function ruleStatement(rule: CrossFieldRule, index: number): string {
  const s = stringLiteral;
  const p = (pointer: string): string => pointerCode(pointer);
  const report = (pointer: string): string => `errors += CrossFieldRules.error(rules[${index}], ${s(pointer)})`;
  const reportSuffix = (pointer: string): string => `?.let { errors += CrossFieldRules.error(rules[${index}], ${s(pointer)} + it) }`;
  switch (rule.kind) {
    case "equal":
      return `if (RuleKinds.equalBroken(${p(rule.left)}, ${p(rule.right)})) ${report(rule.left)}`;
    case "urlOriginIn":
      return `if (RuleKinds.urlOriginInBroken(${p(rule.url)}, ${p(rule.list)})) ${report(rule.url)}`;
    case "semverLte":
      return `if (RuleKinds.semverLteBroken(${p(rule.lower)}, ${p(rule.upper)})) ${report(rule.lower)}`;
    case "semverRangeIncludes":
      return `if (RuleKinds.semverRangeIncludesBroken(${p(rule.min)}, ${p(rule.max)}, ${s(rule.version)})) ${report(rule.min)}`;
    case "uniqueBy":
      return `RuleKinds.uniqueBy(${p(rule.array)}, ${s(rule.key)})${reportSuffix(rule.array)}`;
    case "lastItemEquals":
      return `RuleKinds.lastItemEquals(${p(rule.array)}, ${s(rule.key)}, ${s(rule.value)})${reportSuffix(rule.array)}`;
    case "noSecrets":
      return `RuleKinds.noSecrets(${p(rule.text)})${reportSuffix(rule.text)}`;
    case "whatwgUrl":
      return `RuleKinds.whatwgUrl(${p(rule.url)}, ${s(rule.form)})${reportSuffix(rule.url)}`;
  }
}

/** Names the template uses for a message's rule list and its compiled check. */
export function compiledRulesContext(message: Message): { rulesName: string; checkName: string; statements: { id: string; code: string }[] } {
  return {
    ...rulesNames(message.name),
    statements: message.rules.map((rule, i) => ({ id: rule.id, code: ruleStatement(rule, i) })),
  };
}
