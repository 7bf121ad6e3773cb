// No generated Kotlin file imports a symbol it never names: the pass on hand-written sources, then
// every Kotlin file the emitter writes for this repository's spec.
import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import { emitKotlin } from "./emit.js";
import { dropUnusedImports, importedName, unusedImports } from "./kotlin-imports.js";

const source = `@file:OptIn(ExperimentalSerializationApi::class)

package demo

import kotlinx.serialization.ExperimentalSerializationApi
import kotlinx.serialization.Serializable
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonElement as Element
import kotlinx.serialization.json.booleanOrNull
import kotlinx.serialization.json.*

/** Mentions JsonObject and booleanOrNull only in its KDoc. */
@Serializable
data class Demo(val value: Element)
// JsonObject in a line comment is no use either.
`;

describe("Kotlin import tracking", () => {
  it("reads the name an import brings into scope, alias included", () => {
    expect(importedName("import a.b.C")).toBe("C");
    expect(importedName("import a.b.C as D")).toBe("D");
    expect(importedName("import a.b.c")).toBe("c");
  });

  it("finds the imports the code never names, comments and KDoc aside", () => {
    expect(unusedImports(source)).toEqual(["kotlinx.serialization.json.JsonObject", "kotlinx.serialization.json.booleanOrNull"]);
  });

  it("drops them and keeps everything else, a star import included", () => {
    const kept = dropUnusedImports(source);
    expect(kept).not.toContain("import kotlinx.serialization.json.JsonObject\n");
    expect(kept).not.toContain("booleanOrNull\n@");
    expect(kept.split("\n").filter((l) => l.startsWith("import "))).toEqual([
      "import kotlinx.serialization.ExperimentalSerializationApi",
      "import kotlinx.serialization.Serializable",
      "import kotlinx.serialization.json.JsonElement as Element",
      "import kotlinx.serialization.json.*",
    ]);
    expect(kept.replace(/^import .*\n/gm, "")).toBe(source.replace(/^import .*\n/gm, ""));
  });

  it("leaves no unused import in any Kotlin file generated for the spec", () => {
    const result = loadModel(REPO_ROOT);
    if (!result.ok) throw new Error("spec has errors");
    const kotlin = emitKotlin(result.model).filter((f) => f.path.endsWith(".kt"));
    expect(kotlin.length).toBeGreaterThan(70);
    const offenders = kotlin.map((f) => ({ path: f.path, unused: unusedImports(f.contents) })).filter((f) => f.unused.length > 0);
    expect(offenders).toEqual([]);
  }, 300_000);
});
