// What the docs show of each language binding: the names the Kotlin and Swift targets give a
// protocol, and the usage snippet on every message page.
import { pascal } from "../../emit/case.js";

// Names as the Kotlin and Swift emitters write them: package dev.agentcontracts.<id without
// dashes> with an <Id>Validators object; Swift enum namespace <Id> in module AgentContracts.
export const PROTOCOL_LANGS = (id: string) => ({
  kotlinPackage: `dev.agentcontracts.${id.replace(/-/g, "")}`,
  kotlinValidators: `${pascal(id)}Validators`,
  swiftNamespace: pascal(id),
  tsModule: `@agent-contracts/bindings/${id}`,
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

export function kotlinSnippet(name: string, pkg: string, validators: string): string {
  return `import ${pkg}.${name}
import ${pkg}.${validators}
import dev.agentcontracts.runtime.ValidationResult

// strict JSON parse, schema, cross-field rules; errors name the JSON pointer
when (val result = ${validators}.parse${name}(bytes)) {
    is ValidationResult.Valid -> { val message: ${name} = result.value }
    is ValidationResult.Invalid -> result.errors.forEach { println("\${it.instancePath} \${it.keyword}: \${it.message}") }
}`;
}

export function swiftSnippet(name: string, namespace: string): string {
  return `import AgentContracts

// strict JSON parse, schema, cross-field rules, then Codable; throws an error naming the JSON pointer
let message = try ${namespace}.${name}.decode(json: data)
let canonical = try message.canonicalJSON()`;
}
