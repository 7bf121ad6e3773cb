// What the docs show of each language binding: the names the Kotlin and Swift targets give a
// protocol, and the usage snippet on every message page.
import { pascal } from "../../emit/case.js";
import type { ProjectIdentity } from "../../model/types.js";

// Names as the Kotlin and Swift emitters write them: package <maven package>.<id without dashes>
// with an <Id>Validators object; Swift enum namespace <Id> in the project's module.
export const PROTOCOL_LANGS = (project: ProjectIdentity, id: string) => ({
  kotlinPackage: `${project.packages.maven.package}.${id.replace(/-/g, "")}`,
  kotlinValidators: `${pascal(id)}Validators`,
  swiftNamespace: pascal(id),
  swiftModule: project.packages.swift.module,
  kotlinRuntime: `${project.packages.maven.package}.runtime`,
  tsModule: `${project.packages.npm}/${id}`,
});

export function tsSnippet(name: string, module: string): string {
  return `import { parse${name}, type ${name} } from "${module}";

const result = parse${name}(jsonText); // strict JSON parse, schema, cross-field rules
if (result.ok) {
  const message: ${name} = result.value;
} else {
  for (const e of result.errors) console.error(e.instancePath, e.keyword, e.message);
}`;
}

export function kotlinSnippet(name: string, pkg: string, validators: string, runtime: string): string {
  return `import ${pkg}.${name}
import ${pkg}.${validators}
import ${runtime}.ValidationResult

// strict JSON parse, schema, cross-field rules; errors name the JSON pointer
when (val result = ${validators}.parse${name}(bytes)) {
    is ValidationResult.Valid -> { val message: ${name} = result.value }
    is ValidationResult.Invalid -> result.errors.forEach { println("\${it.instancePath} \${it.keyword}: \${it.message}") }
}`;
}

export function swiftSnippet(name: string, namespace: string, module: string): string {
  return `import ${module}

// strict JSON parse, schema, cross-field rules, then the typed read; throws an error naming the JSON pointer
let message = try ${namespace}.${name}.decode(json: data)
let canonical = try message.canonicalJSON()`;
}
