// Bundle sizes: what an application ships for one job, bundled by esbuild for the browser
// (property-tests/consumers/browser/sizes.ts, whose budgets sizes.test.ts enforces), beside
// anchors doing the same job another way: ajv compiling the same schemas at run time (with
// ajv-formats) and @cfworker/json-schema interpreting them, each wrapped in JSON.parse. Bytes, not
// time: these numbers are the same on any machine.
import { loadModel } from "../../generators/pipeline.js";
import { bundle } from "../consumers/browser/bundle.js";
import { measure, parseCase, ROOT_BEFORE, ROOT_CASE, ROOT_NAMESPACE_CASE, stepCase, verifyCase, type Measured } from "../consumers/browser/sizes.js";
import { ROOT } from "./fixtures.js";
import { markdownTable, type Verdict } from "./table.js";

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function anchor(label: string, source: string): Promise<Measured> {
  const out = await bundle({ source }, { platform: "browser" });
  return { label, bytes: out.bytes, gzipBytes: out.gzipBytes };
}

export async function bundleSizesArea(): Promise<{ markdown: string; verdicts: { row: string; goal: string; verdict: Verdict }[] }> {
  const loaded = loadModel(ROOT);
  if (!loaded.ok) throw new Error("spec does not load");
  const { model } = loaded;
  const schemas = JSON.stringify([...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))]);
  const proposal = model.protocols.find((p) => p.id === "agent-provider")!.messages.find((m) => m.name === "ActionProposal")!;
  const id = JSON.stringify(proposal.id);
  const ours: Measured[] = [
    await measure(parseCase("agent-provider", "ActionProposal")),
    await measure(stepCase("agent-connector", "trust")),
    await measure(verifyCase("agent-provider", "AgentTriggerRequest")),
    await measure(ROOT_CASE),
    await measure(ROOT_NAMESPACE_CASE),
  ];
  const anchors: Measured[] = [
    await anchor(
      "anchor: JSON.parse + ajv (Ajv2020 + ajv-formats) compiling the spec's schemas at run time, ActionProposal",
      `import Ajv2020 from "ajv/dist/2020.js";\nimport addFormats from "ajv-formats";\nconst ajv = new Ajv2020({ strict: false, discriminator: true });\naddFormats(ajv);\nfor (const s of ${schemas}) ajv.addSchema(s);\nexport const run = (text) => ajv.validate(${id}, JSON.parse(text));\n`,
    ),
    await anchor(
      "anchor: JSON.parse + @cfworker/json-schema interpreting the spec's schemas, ActionProposal",
      `import { Validator } from "@cfworker/json-schema";\nconst schemas = ${schemas};\nconst v = new Validator(schemas.find((s) => s.$id === ${id}), "2020-12", true);\nfor (const s of schemas) v.addSchema(s);\nexport const run = (text) => v.validate(JSON.parse(text)).valid;\n`,
    ),
  ];
  const rows = [...ours, ...anchors].map((m) => [m.label, kb(m.bytes), kb(m.gzipBytes), m.budgetGzip === undefined ? "" : `≤ ${kb(m.budgetGzip)}`]);
  const verdicts = ours
    .filter((m) => m.budgetGzip !== undefined)
    .map((m) => ({ row: m.label, goal: `≤ ${kb(m.budgetGzip!)} gzip`, verdict: (m.gzipBytes <= m.budgetGzip! ? "met" : "missed") as Verdict }));
  const markdown =
    `## Bundle sizes\n\n` +
    `esbuild --bundle --minify --platform=browser, gzip -9, importing the package by name (its exports conditions and sideEffects: false apply). ` +
    `Before the split the root was ${kb(ROOT_BEFORE.bytes)} (${kb(ROOT_BEFORE.gzip)} gzip) bundled for Node, without the ${kb(ROOT_BEFORE.withRequiredModules.bytes - ROOT_BEFORE.bytes)} of ajv modules its validators require()d at run time; a browser bundle could not be built. ` +
    `Every message's parse, lifecycle step and signed message's verify is held to its budget by property-tests/consumers/browser/sizes.test.ts; the rows here are the issue's examples.\n\n` +
    markdownTable(["job", "minified", "gzip", "budget (gzip)"], rows) +
    "\n";
  return { markdown, verdicts };
}
