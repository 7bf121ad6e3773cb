// The Swift target: model -> the files of generated/swift, a SwiftPM package with no outside
// dependencies. Pure: the hand-written runtime and the shared case files are read by the pipeline
// and passed in; paths are relative to generated/swift.
import type { Lifecycle } from "../../model/lifecycle.js";
import type { Model, OutputFile } from "../../model/types.js";
import { upperCamel } from "./naming.js";
import { ProtocolTypes } from "./types.js";
import { render, SOURCES, TESTS, tidy } from "./emit-support.js";
import { swiftDoctorFiles } from "./emit-doctor.js";
import { renderMessages } from "./emit-messages.js";
import { renderConstants } from "./emit-constants.js";
import { renderLifecycles } from "./emit-lifecycles.js";
import { renderSigning } from "./emit-signing.js";
import { renderSchemas, swiftSchemaDocuments } from "./emit-schemas.js";
import { generateSwiftValidators } from "./emit-validators.js";
import { emitTests, type Catalog } from "./emit-tests.js";

export { lifecycleTypeName } from "./emit-lifecycles.js";

/** A hand-written runtime file (generators/targets/swift/runtime/<name>). */
export interface SwiftRuntimeSource {
  name: string;
  text: string;
  /** Where it comes from when not generators/targets/swift/runtime/<name> (a file made from outside data). */
  source?: string;
}

/** A language-neutral case file, copied as a test resource (path under Tests/AgentContractsTests/Resources). */
export interface SharedCaseFile {
  path: string;
  /** Where it comes from, relative to the repository root. */
  source: string;
  text: string;
}

export function emitSwift(model: Model, runtime: readonly SwiftRuntimeSource[], cases: readonly SharedCaseFile[]): OutputFile[] {
  const files: OutputFile[] = [];
  const catalog: Catalog = [];
  const { validators, patterns } = generateSwiftValidators(swiftSchemaDocuments(model));
  const validatorOf = new Map(validators.map((v) => [v.uri, v.enumName]));
  for (const protocol of model.protocols) {
    const namespace = upperCamel(protocol.id);
    const types = new ProtocolTypes(model, protocol);
    const messages = protocol.messages.map((m) => ({ name: m.name, type: types.declareMessage(m.name) }));
    catalog.push({ protocol, namespace, messages, types });
    const sources = [...model.shared.map((s) => s.location.file), ...protocol.messages.map((m) => m.location.file)].sort();
    files.push({ path: `${SOURCES}/${namespace}/${namespace}Messages.swift`, contents: tidy(renderMessages(protocol, namespace, types, validatorOf)), sources });
    files.push({ path: `${SOURCES}/${namespace}/${namespace}Constants.swift`, contents: renderConstants(protocol, namespace), sources: [protocol.location.file] });
    const lifecycles = protocol.lifecycles as Lifecycle[];
    if (lifecycles.length > 0) {
      files.push({ path: `${SOURCES}/${namespace}/${namespace}Lifecycles.swift`, contents: renderLifecycles(namespace, lifecycles), sources: lifecycles.map((l) => l.location.file) });
    }
    const signing = renderSigning(protocol, namespace, types);
    if (signing !== undefined) files.push({ path: `${SOURCES}/${namespace}/${namespace}Signing.swift`, contents: signing.text, sources: signing.sources });
    files.push(...swiftDoctorFiles(protocol, namespace, SOURCES, TESTS, cases));
  }
  files.push({ path: `${SOURCES}/Schemas.swift`, contents: renderSchemas(model), sources: model.sourceFiles });
  for (const validator of validators) files.push({ path: `${SOURCES}/Validators/${validator.enumName}.swift`, contents: validator.text, sources: model.sourceFiles });
  files.push({ path: `${SOURCES}/Validators/SchemaPatterns.swift`, contents: patterns, sources: model.sourceFiles });
  for (const source of [...runtime].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    files.push({ path: `${SOURCES}/Runtime/${source.name}`, contents: source.text, sources: [source.source ?? `generators/targets/swift/runtime/${source.name}`] });
  }
  const { package: packageName, module } = model.project.packages.swift;
  files.push({ path: "Package.swift", contents: render("Package.swift", { package: packageName, module }), sources: ["spec/project.yaml"] });
  // The project version (spec/project.yaml). Not `enum <module>`: a type named like its module hides the module name from qualified lookups.
  files.push({ path: `${SOURCES}/Version.swift`, contents: `/// The ${model.project.name} release these bindings belong to (spec/project.yaml).\npublic enum ${module}Package {\n    public static let version = ${JSON.stringify(model.version)}\n}\n`, sources: ["spec/project.yaml"] });
  files.push({
    path: "README.md",
    contents: render("README.md", { package: packageName, module, version: model.version, messageCount: catalog.reduce((n, c) => n + c.messages.length, 0), lifecycleCount: model.protocols.reduce((n, p) => n + p.lifecycles.length, 0) }),
    sources: [],
  });
  files.push(...emitTests(model, catalog, cases));
  return files;
}
