// The one ajv the check stage validates spec files with: every spec/meta schema added once, so
// messages, protocol files and lifecycles are all checked by the same instance and options.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonValue } from "../model/types.js";

export const META_IDS = {
  message: "https://agent-contracts.dev/meta/message.schema.json",
  protocol: "https://agent-contracts.dev/meta/protocol.schema.json",
  lifecycle: "https://agent-contracts.dev/meta/lifecycle.schema.json",
  project: "https://agent-contracts.dev/meta/project.schema.json",
} as const;

export function createMetaAjv(metaSchemas: readonly JsonValue[]): Ajv2020 {
  const meta = new Ajv2020({ allErrors: true, strict: false });
  for (const schema of metaSchemas) meta.addSchema(schema as object);
  return meta;
}
