// Validation: the generated validators (generated schema checks + cross-field rules) vs ajv
// compiling the same spec schemas at run time vs @cfworker/json-schema interpreting them.
import { Validator } from "@cfworker/json-schema";
import { agentConnector, agentProvider, agentService } from "../../generated/ts/index.js";
import * as connectorSchemas from "../../generated/ts/agent-connector/validators.js";
import * as providerSchemas from "../../generated/ts/agent-provider/validators.js";
import * as serviceSchemas from "../../generated/ts/agent-service/validators.js";
import type { JsonSchema } from "../../generators/model/types.js";
import { createSchemaCompiler } from "../../generators/model/schema-compiler.js";
import { loadModel } from "../../generators/pipeline.js";
import { connectorPackage, invalidConnectorPackage, invalidProposal, invalidWorkflowRequest, proposal, ROOT, workflowRequest } from "./fixtures.js";
import { measure, type MeasureOptions } from "./measure.js";
import type { AreaTable, CaseRow } from "./table.js";

const OURS = "generated";
const SCHEMA_ONLY = "generated schema fn only";
const AJV = "ajv (run-time compile)";
const CFWORKER = "@cfworker/json-schema";

export async function validationArea(options: MeasureOptions): Promise<AreaTable> {
  const loaded = loadModel(ROOT);
  if (!loaded.ok) throw new Error(`spec does not load: ${loaded.errors.map((e) => e.message).join("; ")}`);
  const { model } = loaded;
  const schemas: JsonSchema[] = [...model.shared.map((s) => s.schema), ...model.protocols.flatMap((p) => p.messages.map((m) => m.schema))];
  // The same construction the generator uses for its standalone code, without codegen.
  const ajv = createSchemaCompiler(schemas);
  const schemaOf = (protocol: string, name: string): JsonSchema => {
    const message = model.protocols.find((p) => p.id === protocol)?.messages.find((m) => m.name === name);
    if (message === undefined) throw new Error(`no message ${protocol}/${name}`);
    return message.schema;
  };
  const cfworker = (protocol: string, name: string): Validator => {
    // @cfworker/json-schema writes its bookkeeping into the schemas it is given: copies, since the
    // model's are frozen (the root is one of the copies: it refuses a second schema with its $id).
    const copies = schemas.map((schema) => structuredClone(schema));
    const root = copies[schemas.indexOf(schemaOf(protocol, name))]!;
    const validator = new Validator(root as object, "2020-12", true);
    for (const schema of copies) validator.addSchema(schema as object);
    return validator;
  };
  const ajvFor = (protocol: string, name: string) => {
    const id = schemaOf(protocol, name)["$id"];
    const validate = typeof id === "string" ? ajv.getSchema(id) : undefined;
    if (validate === undefined) throw new Error(`ajv has no schema ${String(id)}`);
    return validate;
  };

  // Issue 36's goal is 1x ajv for messages without cross-field rules; ConnectorPackage's nine rules
  // do work ajv does not (URL, SemVer, secret text), so its goal is 0.8x.
  const cases: { label: string; protocol: string; name: string; ours: (v: unknown) => { ok: boolean }; schemaOnly: (v: unknown) => unknown; valid: unknown; invalid: unknown; ajvGoal?: number }[] = [
    { label: "ActionProposal", protocol: "agent-provider", name: "ActionProposal", ours: agentProvider.validateActionProposal, schemaOnly: providerSchemas.checkActionProposal, valid: proposal, invalid: invalidProposal },
    { label: "WorkflowRequest", protocol: "agent-service", name: "WorkflowRequest", ours: agentService.validateWorkflowRequest, schemaOnly: serviceSchemas.checkWorkflowRequest, valid: workflowRequest, invalid: invalidWorkflowRequest },
    { label: "ConnectorPackage", protocol: "agent-connector", name: "ConnectorPackage", ours: agentConnector.validateConnectorPackage, schemaOnly: connectorSchemas.checkConnectorPackage, valid: connectorPackage, invalid: invalidConnectorPackage, ajvGoal: 0.8 },
  ];
  const rows: CaseRow[] = [];
  for (const c of cases) {
    const ajvValidate = ajvFor(c.protocol, c.name);
    const cf = cfworker(c.protocol, c.name);
    for (const [kind, value, expected] of [["valid", c.valid, true], ["invalid", c.invalid, false]] as const) {
      // All three must agree, or the comparison is meaningless.
      const got = { [OURS]: c.ours(value).ok, [SCHEMA_ONLY]: c.schemaOnly(value) === undefined, [AJV]: ajvValidate(value) as boolean, [CFWORKER]: cf.validate(value).valid };
      for (const [impl, ok] of Object.entries(got)) if (ok !== expected) throw new Error(`${impl} says ${c.label} ${kind} is ${ok ? "valid" : "invalid"}`);
      const series = await measure(
        [
          { impl: OURS, fn: () => c.ours(value) },
          { impl: SCHEMA_ONLY, fn: () => c.schemaOnly(value) },
          { impl: AJV, fn: () => ajvValidate(value) },
          { impl: CFWORKER, fn: () => cf.validate(value) },
        ],
        options,
      );
      rows.push({ label: `${c.label} (${kind}, ${JSON.stringify(value).length} B)`, series, ...(c.ajvGoal !== undefined ? { ratioGoals: { [AJV]: c.ajvGoal } } : {}) });
    }
  }
  return {
    title: "Validation",
    ours: OURS,
    impls: [OURS, SCHEMA_ONLY, AJV, CFWORKER],
    ratios: [
      { anchor: AJV, kind: "speedup", goal: 1.0 },
      { subject: SCHEMA_ONLY, anchor: AJV, kind: "speedup" },
      { anchor: CFWORKER, kind: "speedup" },
    ],
    rows,
    notes: [
      "`generated` is `validateX` from generated/ts: the schema checks this project generates (generators/targets/ts/emit-schema-code.ts: one function per subschema, ajv's first error), then the cross-field rules compiled to straight-line code (x-rules; WorkflowRequest has 1, ConnectorPackage 9: URL, SemVer, equality and secret-text checks ajv does not make). " +
        "`generated schema fn only` is `checkX` alone (generated/ts/<protocol>/validators.js), for the like-for-like comparison with ajv. " +
        "`ajv (run-time compile)` is generators/model/schema-compiler.ts without codegen over the same spec schemas (discriminator on, x- keywords as annotations), returning ajv's boolean. " +
        "`@cfworker/json-schema` is `new Validator(schema, \"2020-12\", shortCircuit=true)` with every spec schema added. All three first-error only; all three agree on every input.",
    ],
  };
}
