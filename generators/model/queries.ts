// Questions about the model that more than one emitter asks.
import type { Divergence, JsonSchema, JsonValue, Message, Protocol } from "./types.js";

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

/** The message's own divergences and those recorded on nested schemas ($defs, properties). */
export function messageDivergences(m: Message): Divergence[] {
  const out: Divergence[] = [...m.divergences];
  const seen = new Set(out.map((d) => d.id));
  const walk = (node: JsonValue | undefined, isRoot: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, false));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-divergences" && !isRoot && Array.isArray(value)) {
        for (const d of value) if (isObject(d) && typeof d.id === "string" && !seen.has(d.id)) {
          seen.add(d.id);
          out.push(d as unknown as Divergence);
        }
      } else if (key !== "examples" && key !== "x-invalid-examples") walk(value, false);
    }
  };
  walk(m.schema, true);
  return out;
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
