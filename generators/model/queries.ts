// Questions about the model that more than one emitter asks.
import type { JsonSchema, Message, Protocol } from "./types.js";

/** Top-level properties that $ref another content-addressed message: their ids are part of validity. */
export function nestedContentAddressed(message: Message, protocol: Protocol): { property: string; message: Message }[] {
  const props = (message.schema["properties"] ?? {}) as JsonSchema;
  const out: { property: string; message: Message }[] = [];
  for (const [property, schema] of Object.entries(props)) {
    const ref = schema && typeof schema === "object" && !Array.isArray(schema) ? schema["$ref"] : undefined;
    if (typeof ref !== "string" || ref.startsWith("#")) continue;
    const target = protocol.messages.find((m) => m.id === new URL(ref, message.id).href);
    if (target?.contentAddress) out.push({ property, message: target });
  }
  return out;
}
