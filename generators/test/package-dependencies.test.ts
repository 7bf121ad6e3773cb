// The generated packages declare only what their emitted modules use (issue 29): package.json
// (derived from the imports, generators/targets/ts/package-dependencies.ts), pom.xml and
// Package.swift. Read from the committed generated/ folders; a dependency nothing uses fails, and
// so does a used package that is not declared.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { OutputFile } from "../model/types.js";
import { importedPackages, packageDependencies, packageOf } from "../targets/ts/package-dependencies.js";
import { REPO_ROOT } from "./fixture.js";

function filesUnder(dir: string, ending: string): OutputFile[] {
  return (readdirSync(`${REPO_ROOT}/${dir}`, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isFile() && e.name.endsWith(ending))
    .map((e) => {
      const path = `${e.parentPath}/${e.name}`;
      return { path, contents: readFileSync(path, "utf8"), sources: [] };
    });
}

/**
 * What shows that emitted Kotlin uses a Maven artifact, written by hand: an import of its
 * packages, or (a JDBC driver, found by the JDBC URL at run time) the URL scheme it serves.
 */
const KOTLIN_EVIDENCE: Record<string, { main: RegExp } | { test: RegExp }> = {
  "kotlin-stdlib": { main: /^package /m },
  "kotlinx-serialization-json": { main: /^import kotlinx\.serialization\.json\./m },
  "kotlinx-coroutines-core": { main: /^import kotlinx\.coroutines\./m },
  "lettuce-core": { main: /^import io\.lettuce\./m },
  // PostgresStores opens the jdbc:postgresql: URL its caller gives (documented at its constructor).
  postgresql: { main: /jdbc:postgresql:\/\//m },
  "sqlite-jdbc": { main: /"jdbc:sqlite:/ },
  "junit-jupiter": { test: /^import org\.junit\.jupiter\./m },
};

/** The modules Swift's toolchains ship: importing one needs no package dependency. */
const SWIFT_SYSTEM_MODULES = new Set(["Foundation", "CryptoKit", "Darwin", "Glibc", "Dispatch", "XCTest"]);

describe("package dependencies follow the emitted modules", () => {
  it("TypeScript: package.json's dependencies and optional peers are exactly the packages the emitted modules import", () => {
    const pkg = JSON.parse(readFileSync(`${REPO_ROOT}/generated/ts/package.json`, "utf8")) as Record<string, unknown>;
    const files = filesUnder("generated/ts", ".js");
    const { dependencies, peerDependencies, peerDependenciesMeta } = packageDependencies(files);
    expect({ dependencies: pkg["dependencies"], peerDependencies: pkg["peerDependencies"], peerDependenciesMeta: pkg["peerDependenciesMeta"] }).toEqual({ dependencies, peerDependencies, peerDependenciesMeta });
    // Written by hand from the runtime: hashes and formats statically, the store drivers when a store opens.
    expect(importedPackages(files)).toEqual({ required: ["@noble/hashes", "ajv-formats"], optional: ["better-sqlite3", "pg", "redis"] });
  });

  it("TypeScript: an import without a declared version range is refused", () => {
    const files: OutputFile[] = [{ path: "x.js", contents: 'import { z } from "zod/v4";\n', sources: [] }];
    expect(() => packageDependencies(files)).toThrow("generated code imports zod, which has no version range");
    expect(packageOf("@noble/hashes/sha2.js")).toBe("@noble/hashes");
    expect(packageOf("node:crypto")).toBeUndefined();
    expect(packageOf("../runtime/x.js")).toBeUndefined();
    expect(packageOf("#sha256-backend")).toBeUndefined();
  });

  it("Kotlin: every pom.xml dependency is used by the emitted sources, and each one used is declared", () => {
    const pom = readFileSync(`${REPO_ROOT}/generated/kotlin/pom.xml`, "utf8");
    const dependencies = pom.slice(pom.indexOf("<dependencies>"), pom.indexOf("</dependencies>"));
    const declared = [...dependencies.matchAll(/<artifactId>([^<]+)<\/artifactId>/g)].map((m) => m[1]!);
    expect(declared.sort()).toEqual(Object.keys(KOTLIN_EVIDENCE).sort());
    const main = filesUnder("generated/kotlin/src/main/kotlin", ".kt").map((f) => f.contents).join("\n");
    const test = filesUnder("generated/kotlin/src/test/kotlin", ".kt").map((f) => f.contents).join("\n");
    const unused = declared.filter((artifact) => {
      const evidence = KOTLIN_EVIDENCE[artifact]!;
      return "main" in evidence ? !evidence.main.test(main) : !evidence.test.test(test);
    });
    expect(unused).toEqual([]);
    // Every third-party package the main sources import belongs to a declared artifact.
    const imported = new Set([...main.matchAll(/^import ([a-z]+\.[a-z]+)\./gm)].map((m) => m[1]!));
    expect([...imported].filter((p) => !["kotlinx.serialization", "kotlinx.coroutines", "io.lettuce", "java.io", "java.nio", "java.net", "java.util", "java.sql", "javax.sql", "java.time", "java.security", "java.math", "java.text", "java.lang", "javax.crypto", "kotlin.math", "kotlin.time", "kotlin.text", "kotlin.io", "kotlin.concurrent", "kotlin.collections", "kotlin.coroutines", "kotlin.jvm", "kotlin.random", "kotlin.reflect", "kotlin.contracts", "dev.agentcontracts"].includes(p))).toEqual([]);
  });

  it("Swift: Package.swift depends on no package, and the sources import only the toolchain's modules", () => {
    const manifest = readFileSync(`${REPO_ROOT}/generated/swift/Package.swift`, "utf8");
    expect(manifest).not.toMatch(/\.package\(/);
    const imported = new Set(filesUnder("generated/swift/Sources", ".swift").flatMap((f) => [...f.contents.matchAll(/^(?:@testable )?import (\w+)/gm)].map((m) => m[1]!)));
    expect([...imported].filter((m) => !SWIFT_SYSTEM_MODULES.has(m))).toEqual([]);
  });
});
