// Copies the Kotlin runtime into generated/kotlin until the pipeline emits Kotlin itself (then
// pipeline.ts places emitKotlinRuntime's files under generated/kotlin and this script goes).
// Run from the repository root: npx tsx generators/kotlin/copy-runtime.ts
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { withHeader } from "../write/write-outputs.js";
import { KOTLIN_RUNTIME_DIR, emitKotlinRuntime, readKotlinRuntime } from "./emit-runtime.js";

const root = process.cwd();
const target = `${root}/generated/kotlin/${KOTLIN_RUNTIME_DIR}`;
const files = emitKotlinRuntime(readKotlinRuntime(root));
mkdirSync(target, { recursive: true });

const wanted = new Set<string>();
for (const file of files) {
  const full = `${root}/generated/kotlin/${file.path}`;
  const text = withHeader({ ...file, path: `generated/kotlin/${file.path}`, header: true });
  wanted.add(full);
  if (existsSync(full) && readFileSync(full, "utf8") === text) continue;
  writeFileSync(full, text);
  console.log(`wrote generated/kotlin/${file.path}`);
}
// A runtime file removed from generators/kotlin/runtime must not linger in the generated project.
for (const name of readdirSync(target)) {
  if (!wanted.has(`${target}/${name}`)) {
    rmSync(`${target}/${name}`);
    console.log(`removed generated/kotlin/${KOTLIN_RUNTIME_DIR}/${name}`);
  }
}
