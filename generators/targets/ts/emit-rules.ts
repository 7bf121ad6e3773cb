// Compiles a message's x-rules into one straight-line TypeScript function for its message module: every
// pointer the rules name is resolved once, by direct member steps that share their prefixes,
// instead of being split and walked on each call as the reference evaluator (checkRules in
// runtime/rules.ts) does. What a rule kind means is not restated here: the code calls the same
// per-kind functions of runtime/rules.ts, and property-tests/runtime/compiled-rules.test.ts holds
// the compiled function to the reference evaluator's errors on random, valid and broken inputs.
import type { CrossFieldRule } from "../../model/types.js";

/** The runtime/rules.js names the compiled functions may use. */
export const COMPILED_RULE_IMPORTS = [
  "member", "ruleError", "equalBroken", "urlOriginInBroken", "semverLteBroken", "semverRangeIncludesBroken",
  "lastItemEqualsBroken", "firstRepeated", "firstFailing", "HOLDS", "ITSELF", "hasNoSecret", "isHttpsOrigin", "isHttpsEndpoint",
] as const;

export type RuleHelper = (typeof COMPILED_RULE_IMPORTS)[number];

/**
 * How the compiled code names what it uses from other modules: a runtime/rules.js helper, and the
 * error type of runtime/validation.js; the caller's file printer imports each on request.
 */
export interface RuleImports {
  helper(name: RuleHelper): string;
  errorType(): string;
}

/** Names as they are, imported by nobody: for reading the compiled code on its own. */
const IN_SCOPE: RuleImports = { helper: (name) => name, errorType: () => "ValidationError" };

/** RFC 6901 tokens of a pointer ("" is the whole value). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`x-rules: '${pointer}' is not a JSON pointer`);
  return pointer.slice(1).split("/").map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"));
}

const lit = (text: string): string => JSON.stringify(text);

/**
 * The source of `function <functionName>(value: unknown)`, returning undefined when every rule
 * holds or an array of the errors in rule order; `table` is the constant holding the rules
 * themselves (each error is built from its entry, so ids and messages come from one place).
 * `imports` names each runtime helper the code calls (and only those), so the module imports no more.
 */
export function compileRules(functionName: string, table: string, rules: readonly CrossFieldRule[], imports: RuleImports = IN_SCOPE): string {
  const use = (name: RuleHelper): string => imports.helper(name);
  const resolved = new Map<string, string>([["", "v0"]]);
  const steps: string[] = ["  const v0 = value === null ? undefined : value;"];
  // Each pointer's value, declared after its parent's: a member step per token, shared prefixes once.
  const valueOf = (pointer: string): string => {
    const known = resolved.get(pointer);
    if (known !== undefined) return known;
    const tokens = pointerTokens(pointer);
    const last = tokens[tokens.length - 1] as string;
    const parentPointer = pointer.slice(0, pointer.length - encodeToken(last).length - 1);
    const parent = valueOf(parentPointer);
    const name = `v${resolved.size}`;
    resolved.set(pointer, name);
    steps.push(`  const ${name} = ${use("member")}(${parent}, ${lit(last)});`);
    return name;
  };
  const helpers: string[] = [];
  // An item's key (`/${key}`, as the reference reads it) as a function of the item, hoisted out of the call.
  const keyReader = (key: string): string => {
    const name = `${functionName}Key${helpers.length}`;
    const body = pointerTokens(`/${key}`).reduce((inner, token) => `${use("member")}(${inner}, ${lit(token)})`, "item");
    helpers.push(`const ${name} = (item: unknown): unknown => ${body};`);
    return name;
  };
  const checks: string[] = [];
  rules.forEach((rule, i) => {
    const fail = (path: string): string => `(errors ??= []).push(${use("ruleError")}(${table}[${i}]!, ${path}));`;
    checks.push(`  // ${rule.id} (${rule.kind})`);
    switch (rule.kind) {
      case "equal":
        checks.push(`  if (${use("equalBroken")}(${valueOf(rule.left)}, ${valueOf(rule.right)})) ${fail(lit(rule.left))}`);
        break;
      case "urlOriginIn":
        checks.push(`  if (${use("urlOriginInBroken")}(${valueOf(rule.url)}, ${valueOf(rule.list)})) ${fail(lit(rule.url))}`);
        break;
      case "semverLte":
        checks.push(`  if (${use("semverLteBroken")}(${valueOf(rule.lower)}, ${valueOf(rule.upper)})) ${fail(lit(rule.lower))}`);
        break;
      case "semverRangeIncludes":
        checks.push(`  if (${use("semverRangeIncludesBroken")}(${valueOf(rule.min)}, ${valueOf(rule.max)}, ${lit(rule.version)})) ${fail(lit(rule.min))}`);
        break;
      case "lastItemEquals": {
        const items = valueOf(rule.array);
        checks.push(`  if (${use("lastItemEqualsBroken")}(${items}, ${keyReader(rule.key)}, ${lit(rule.value)})) ${fail(`${lit(`${rule.array}/`)} + ((${items} as readonly unknown[]).length - 1) + ${lit(`/${rule.key}`)}`)}`);
        break;
      }
      case "uniqueBy":
        checks.push(`  { const i = ${use("firstRepeated")}(${valueOf(rule.array)}, ${keyReader(rule.key)}); if (i >= 0) ${fail(`${lit(`${rule.array}/`)} + i + ${lit(`/${rule.key}`)}`)} }`);
        break;
      case "noSecrets":
      case "whatwgUrl": {
        const pointer = rule.kind === "noSecrets" ? rule.text : rule.url;
        const ok = use(rule.kind === "noSecrets" ? "hasNoSecret" : rule.form === "origin" ? "isHttpsOrigin" : "isHttpsEndpoint");
        checks.push(`  { const f = ${use("firstFailing")}(${valueOf(pointer)}, ${ok}); if (f !== ${use("HOLDS")}) ${fail(`f === ${use("ITSELF")} ? ${lit(pointer)} : ${lit(`${pointer}/`)} + f`)} }`);
        break;
      }
      default:
        throw new Error(`x-rules: no compiled form for rule kind '${(rule as { kind: string }).kind}'`);
    }
  });
  const errorType = imports.errorType();
  return [...helpers, `function ${functionName}(value: unknown): ${errorType}[] | undefined {`, ...steps, `  let errors: ${errorType}[] | undefined;`, ...checks, "  return errors;", "}"].join("\n");
}

function encodeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
