// The Swift target without a Swift compiler: every generated and hand-written Swift file must parse
// without error nodes under tree-sitter-swift, and the emitter's output must have the promised
// shape (a type per message, a machine per lifecycle, every case file as a test resource).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { loadModel } from "../../pipeline.js";
import { REPO_ROOT } from "../../test/fixture.js";
import type { Lifecycle } from "../../model/lifecycle.js";
import { emitSwift, lifecycleTypeName } from "./emit.js";
import { readSwiftCases, readSwiftRuntime } from "./inputs.js";
import { typeName, upperCamel } from "./naming.js";

interface SyntaxNode {
  type: string;
  isMissing: boolean;
  hasError: boolean;
  startPosition: { row: number; column: number };
  children: SyntaxNode[];
}
interface SwiftParser {
  setLanguage(language: unknown): void;
  parse(source: string, previous?: unknown, options?: { bufferSize?: number }): { rootNode: SyntaxNode };
}

const require = createRequire(import.meta.url);
const TreeSitter = require("tree-sitter") as new () => SwiftParser;
const swiftLanguage = require("tree-sitter-swift") as unknown;

function parser(): SwiftParser {
  const p = new TreeSitter();
  p.setLanguage(swiftLanguage);
  return p;
}

/** Positions of ERROR and missing nodes, empty when the file parses cleanly. */
function syntaxErrors(source: string): string[] {
  const root = parser().parse(source, undefined, { bufferSize: Math.max(1 << 20, source.length * 4) }).rootNode;
  if (!root.hasError) return [];
  const found: string[] = [];
  const walk = (node: SyntaxNode): void => {
    if (node.type === "ERROR" || node.isMissing) {
      found.push(`${node.startPosition.row + 1}:${node.startPosition.column + 1} ${node.isMissing ? `missing ${node.type}` : "ERROR"}`);
      return;
    }
    node.children.forEach(walk);
  };
  walk(root);
  return found.length > 0 ? found : ["error"];
}

function swiftFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(path).isDirectory()) return name === ".build" ? [] : swiftFiles(path);
    return name.endsWith(".swift") ? [path] : [];
  });
}

describe("tree-sitter-swift syntax check", () => {
  it("flags a broken file (the check can fail)", () => {
    expect(syntaxErrors("struct A {\n  func f( {\n}\n").length).toBeGreaterThan(0);
    expect(syntaxErrors("let x = [1, 2\nlet y = 3\n").length).toBeGreaterThan(0);
    expect(syntaxErrors("struct A {\n  let b: Int\n}\n")).toEqual([]);
  });

  const files = [...swiftFiles(`${REPO_ROOT}/generators/targets/swift/runtime`), ...swiftFiles(`${REPO_ROOT}/generated/swift`), ...swiftFiles(`${REPO_ROOT}/property-tests/consumers/swift`)];
  it("finds the runtime and the generated package", () => {
    expect(files.some((f) => f.includes("/generators/targets/swift/runtime/"))).toBe(true);
    expect(files.some((f) => f.endsWith("generated/swift/Package.swift"))).toBe(true);
    expect(files.length).toBeGreaterThan(20);
  });
  for (const file of files) {
    it(`${file.slice(REPO_ROOT.length + 1)} parses without error nodes`, () => {
      expect(syntaxErrors(readFileSync(file, "utf8"))).toEqual([]);
    });
  }
});

describe("emitSwift", () => {
  const result = loadModel(REPO_ROOT);
  if (!result.ok) throw new Error("spec has errors");
  const model = result.model;
  const runtime = readSwiftRuntime(REPO_ROOT);
  const cases = readSwiftCases(REPO_ROOT, model);
  const files = emitSwift(model, runtime, cases);
  const byPath = new Map(files.map((f) => [f.path, f.contents]));

  it("is pure: the same inputs give the same files", () => {
    const again = emitSwift(model, runtime, cases);
    expect(again.map((f) => [f.path, f.contents])).toEqual(files.map((f) => [f.path, f.contents]));
  });

  it("writes a SwiftPM package with no outside dependencies", () => {
    const manifest = byPath.get("Package.swift")!;
    expect(manifest.split("\n")[0]).toBe("// swift-tools-version:5.9");
    expect(manifest).not.toMatch(/\.package\(/);
    expect(manifest).toContain('resources: [.copy("Resources")]');
    for (const f of files) expect(f.path).not.toMatch(/^\/|\.\./);
  });

  it("copies every runtime file into Sources/AgentContracts/Runtime", () => {
    for (const source of runtime) expect(byPath.get(`Sources/AgentContracts/Runtime/${source.name}`)).toBe(source.text);
  });

  it("declares a ContractMessage type for every message", () => {
    for (const protocol of model.protocols) {
      const text = byPath.get(`Sources/AgentContracts/${upperCamel(protocol.id)}/${upperCamel(protocol.id)}Messages.swift`)!;
      for (const message of protocol.messages) {
        expect(text, message.name).toMatch(new RegExp(`public (struct|enum) ${typeName(message.name)}: (String, |RawRepresentable, Hashable, )?ContractMessage`));
        expect(text).toContain(`public static let schemaID = "${message.id}"`);
      }
    }
  });

  it("refuses unknown members exactly where the schema is closed", () => {
    const text = byPath.get("Sources/AgentContracts/AgentProvider/AgentProviderMessages.swift")!;
    const proposal = text.slice(text.indexOf("public struct ActionProposal"), text.indexOf("public func encode", text.indexOf("public struct ActionProposal")));
    expect(proposal).toContain("ContractCoding.rejectUnknownKeys(decoder");
    expect(proposal).toContain('case requestID = "request_id"');
    expect(proposal).toContain("public var hostInstanceID: String?");
    expect(proposal).toContain("public var requestID: String\n");
  });

  it("makes discriminated unions enums with associated values", () => {
    const text = byPath.get("Sources/AgentContracts/AgentProvider/AgentProviderMessages.swift")!;
    expect(text).toMatch(/public enum InstallBinding: ContractMessage, Equatable \{[\s\S]*case android\(AndroidInstallBinding\)/);
    expect(text).toContain('case .string("android"):');
  });

  it("emits a machine per lifecycle with the spec's transitions", () => {
    for (const protocol of model.protocols) {
      const lifecycles = protocol.lifecycles as Lifecycle[];
      if (lifecycles.length === 0) continue;
      const text = byPath.get(`Sources/AgentContracts/${upperCamel(protocol.id)}/${upperCamel(protocol.id)}Lifecycles.swift`)!;
      for (const l of lifecycles) {
        expect(text).toContain(`public enum ${lifecycleTypeName(l)}: LifecycleMachine {`);
        const start = text.indexOf(`public enum ${lifecycleTypeName(l)}:`);
        const body = text.slice(start, text.indexOf("\n    }\n", start));
        expect(body.match(/ Transition\(from:/g)?.length ?? 0).toBe(l.transitions.length);
      }
    }
  });

  it("names a lifecycle's parts as Kotlin does: State, Event, Guard, Effect, mutuallyExclusive", () => {
    const parts = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => m[1]!);
    for (const protocol of model.protocols) {
      for (const l of protocol.lifecycles as Lifecycle[]) {
        const swift = byPath.get(`Sources/AgentContracts/${upperCamel(protocol.id)}/${upperCamel(protocol.id)}Lifecycles.swift`)!;
        const start = swift.indexOf(`public enum ${lifecycleTypeName(l)}:`);
        const body = swift.slice(start, swift.indexOf("\n    }\n", start));
        const kotlinFile = `${REPO_ROOT}/generated/kotlin/src/main/kotlin/dev/agentcontracts/${protocol.id.replace(/-/g, "")}/lifecycles/${lifecycleTypeName(l)}.kt`;
        const kotlin = readFileSync(kotlinFile, "utf8");
        expect(parts(body, /public enum (\w+): /g).slice(1)).toEqual(parts(kotlin, /enum class (\w+)\(/g));
        expect(parts(body, /public static let (mutuallyExclusive)\b/g)).toEqual(parts(kotlin, /val (mutuallyExclusive)\b/g));
        expect(body).not.toMatch(/\bCondition\b/);
        expect(parts(body, /\.(holds|not)\(/g).length).toBe(l.transitions.reduce((n, t) => n + t.guards.length, 0));
      }
    }
  });

  it("binds every signing declaration", () => {
    const signing = files.filter((f) => f.path.endsWith("Signing.swift") && f.path.startsWith("Sources/")).map((f) => f.contents).join("\n");
    for (const protocol of model.protocols) {
      for (const m of protocol.messages) {
        if (m.signature) expect(signing).toContain(`extension ${upperCamel(protocol.id)}.${typeName(m.name)} {\n    /// How ${m.name} is signed`);
        if (m.replay) expect(signing).toMatch(new RegExp(`extension ${upperCamel(protocol.id)}\\.${typeName(m.name)} \\{[\\s\\S]*?replayDeclaration = ReplayDeclaration`));
        if (m.contentAddress) expect(signing).toContain(`prefix: "${m.contentAddress.prefix}"`);
        if (m.approvalToken) expect(signing).toContain("tokenDeclaration = ApprovalTokenDeclaration(version:");
      }
    }
  });

  it("ships every shared case file and every message's examples as test resources", () => {
    // The generator's strict JSON and JCS vectors are the shared-case drivers' (property-tests/drivers), not resources;
    // the fuzz corpus comes only as this spec's own messages' hostile inputs (CompiledRulesTests).
    expect(cases.filter((c) => c.path.startsWith("common/") || (c.path.startsWith("fuzz/") && c.path !== "fuzz/validators.json"))).toEqual([]);
    const lifecycleCount = model.protocols.reduce((n, p) => n + p.lifecycles.length, 0);
    expect(cases.filter((c) => c.path.endsWith(".paths.json")).length).toBe(lifecycleCount);
    for (const c of cases) expect(byPath.get(`Tests/AgentContractsTests/Resources/${c.path}`)).toBe(c.text);
    for (const protocol of model.protocols) {
      const examples = JSON.parse(byPath.get(`Tests/AgentContractsTests/Resources/examples/${protocol.id}.json`)!) as { messages: { message: string; valid: unknown[]; invalid: unknown[] }[] };
      expect(examples.messages.map((m) => m.message)).toEqual(protocol.messages.map((m) => m.name));
      for (const m of examples.messages) expect(m.valid.length + m.invalid.length).toBeGreaterThan(0);
    }
    const tests = byPath.get("Tests/AgentContractsTests/ExampleTests.swift")!;
    for (const protocol of model.protocols) for (const m of protocol.messages) expect(tests).toContain(`"${protocol.id}/${m.name}": `);
  });

  it("reads every shared case file in some Swift test, and covers open and closed enums", () => {
    const tests = files.filter((f) => /^Tests\/AgentContractsTests\/[^/]+\.swift$/.test(f.path)).map((f) => f.contents).join("\n");
    // A file is named by a test, or lies in a folder a test names (and lists, or reads by name).
    const folders = (path: string): string[] => path.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"));
    for (const c of cases) {
      const named = tests.includes(`"${c.path}"`) || folders(c.path).some((f) => tests.includes(`"${f}"`) || tests.includes(`"${f}/`));
      expect(named, c.path).toBe(true);
    }
    for (const protocol of model.protocols) expect(tests).toContain(`"examples/${protocol.id}.json"`);
    const enums = byPath.get("Tests/AgentContractsTests/EnumTests.swift")!;
    expect(enums).toContain("try checkClosed(AgentService.ChatMessage.Role.self");
    expect(enums).toContain("try checkOpen(AgentProvider.AgentInstallResult.Status.self");
    expect(enums).toContain("func testMessageWithAnUnknownValueRoundTrips()");
  });

  it("escapes schema text safely inside raw string literals", () => {
    const schemas = byPath.get("Sources/AgentContracts/Schemas.swift")!;
    const documents = model.shared.length + model.protocols.reduce((n, p) => n + p.messages.length, 0);
    expect(schemas.match(/^ {8}#+"\{/gm)?.length).toBe(documents);
  });
});
