// The TypeScript target: generated/ts, an ESM npm package named by spec/project.yaml (packages.npm).
import { COMMENT_SYNTAX, defineTarget, notJson } from "../target.js";
import { emitTypeScript } from "./emit.js";
import { readTsInputs } from "./inputs.js";
import { TS_SCHEMA_SUPPORT } from "./schema-support.js";

export const tsTarget = defineTarget({
  id: "ts",
  summary: "TypeScript package: types, precompiled validators, signing, lifecycles and the runtime",
  outDir: "generated/ts",
  owns: ["generated/ts"],
  // LICENSE is the licence's own text, which a header would alter.
  header: (path) => notJson(path) && path !== "LICENSE",
  comments: COMMENT_SYNTAX,
  schemaSupport: TS_SCHEMA_SUPPORT,
  inputs: readTsInputs,
  emit: emitTypeScript,
});
