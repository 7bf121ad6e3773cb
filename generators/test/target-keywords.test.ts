// `generate` refuses a JSON Schema keyword or format that a registered target's runtime does not
// enforce, at the keyword's own line:col, naming the targets (issue 30), and reports an unknown
// keyword once, at its own line, with a did-you-mean. The expected targets per keyword are a
// hand-written table from reading each runtime: ajv (TS), JsonSchemaValidator.kt (its GROUPS:
// anything else throws when the documents load), SchemaValidator.swift (anything else is skipped).
import { describe, expect, it } from "vitest";
import { formatSpecError } from "../cli/io.js";
import { VALIDATION_KEYWORDS } from "../check/keywords.js";
import { loadModel, schemaSupportOf } from "../pipeline.js";
import { TARGETS } from "../targets/registry.js";
import { connectorFixture, type Fixture } from "./fixture.js";

const RESPONSE = "spec/agent-connector/messages/HttpJsonResponse.yaml";
const TARGET_SUPPORT = schemaSupportOf(TARGETS);

/** Keywords outside the set all three enforce: [keyword, a value 2020-12 accepts, the runtimes lacking it]. */
const OUTSIDE_COMMON: [string, string, string][] = [
  ["$dynamicRef", "'#node'", "ts, kotlin and swift runtimes"],
  ["$dynamicAnchor", "node", "ts, kotlin and swift runtimes"],
  ["contentMediaType", "application/json", "ts, kotlin and swift runtimes"],
  ["contentEncoding", "base64", "ts, kotlin and swift runtimes"],
  ["contentSchema", "{ type: object }", "ts, kotlin and swift runtimes"],
];

// Enforced by Kotlin and Swift since their validators run the JSON-Schema-Test-Suite (issue 32):
// once refused for those two, now accepted by generate.
const NOW_COMMON: [string, string][] = [
  ["exclusiveMaximum", "5"], ["exclusiveMinimum", "1"], ["multipleOf", "2"], ["prefixItems", "[{}]"],
  ["maxContains", "3"], ["minContains", "1"], ["unevaluatedItems", "true"], ["patternProperties", "{ '^x-': { type: string } }"],
  ["dependentSchemas", "{ unusedMember: { required: [sessionRef] } }"], ["unevaluatedProperties", "true"],
];

function errorsAfter(breakIt: (f: Fixture) => void): string[] {
  const fixture = connectorFixture();
  breakIt(fixture);
  const result = loadModel(fixture.root, { targets: TARGET_SUPPORT });
  return result.ok ? [] : result.errors.map(formatSpecError);
}

describe("keywords a target does not enforce", () => {
  it("the table names every validation keyword some target lacks", () => {
    const lackedBySome = VALIDATION_KEYWORDS.filter((k) => TARGET_SUPPORT.some((t) => !t.schemaSupport.keywords.includes(k)));
    expect([...lackedBySome].sort()).toEqual(OUTSIDE_COMMON.map(([k]) => k).sort());
  });
  for (const [keyword, value, lacking] of OUTSIDE_COMMON) {
    it(`${keyword}: refused at its line and column, naming the ${lacking}`, () => {
      // Line 14, column 1 of the message file: right after `type: object`.
      const errors = errorsAfter((f) => f.edit(RESPONSE, "type: object\n", `type: object\n${keyword}: ${value}\n`));
      expect(errors).toEqual([`${RESPONSE}:14:1 /${keyword.replace("~", "~0")} keyword ${keyword} is not enforced by the ${lacking}: a binding would throw on it or skip it [target-keywords]`]);
    });
  }
  for (const [keyword, value] of NOW_COMMON) {
    it(`${keyword}: enforced by every runtime, so generate accepts it`, () => {
      expect(errorsAfter((f) => f.edit(RESPONSE, "type: object\n", `type: object\n${keyword}: ${value}\n`))).toEqual([]);
    });
  }
  it("a format no runtime asserts is refused at the format, naming every runtime", () => {
    const errors = errorsAfter((f) => f.edit(RESPONSE, "    maxLength: 8192\n", "    format: email\n    maxLength: 8192\n"));
    expect(errors).toEqual([`${RESPONSE}:23:5 /properties/sessionRef/format format email is not checked by the ts, kotlin and swift runtimes: use a pattern instead [target-keywords]`]);
  });
  it("a format every runtime checks passes", () => {
    expect(errorsAfter((f) => f.edit(RESPONSE, "    maxLength: 8192\n", "    format: hostname\n    maxLength: 8192\n"))).toEqual([]);
  });
  it("without targets (list, docs), the same keyword is not refused", () => {
    const fixture = connectorFixture();
    fixture.edit(RESPONSE, "type: object\n", "type: object\ndependentSchemas: { text: { required: [text] } }\n");
    const result = loadModel(fixture.root);
    expect(result.ok ? [] : result.errors.map(formatSpecError)).toEqual([]);
  });
});

describe("unknown keywords", () => {
  it("a typo is reported once, at its own line, with the keyword meant; never in the files that $ref it", () => {
    // Sha256Hex is $ref'd by most messages of the fixture.
    const errors = errorsAfter((f) => f.edit("spec/common/types.yaml", "hexadecimal characters.\n", "hexadecimal characters.\n    maxLenght: 64\n"));
    expect(errors).toEqual(["spec/common/types.yaml:30:5 /$defs/Sha256Hex/maxLenght unknown keyword maxLenght (did you mean maxLength?) [unknown-keyword]"]);
  });
  it("a word far from every keyword gets no guess", () => {
    const errors = errorsAfter((f) => f.edit(RESPONSE, "type: object\n", "type: object\nbananas: 3\n"));
    expect(errors).toEqual([`${RESPONSE}:14:1 /bananas unknown keyword bananas [unknown-keyword]`]);
  });
  it("an unknown format, with the format meant", () => {
    const errors = errorsAfter((f) => f.edit(RESPONSE, "    maxLength: 8192\n", "    format: hostnme\n    maxLength: 8192\n"));
    expect(errors).toEqual([`${RESPONSE}:23:5 /properties/sessionRef/format unknown format hostnme (did you mean hostname?) [unknown-format]`]);
  });
});
