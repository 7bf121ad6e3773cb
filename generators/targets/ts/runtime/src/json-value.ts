// The JSON data model shared by the strict parser, the canonicalizer and everything that signs or
// hashes. Objects are plain objects whose own enumerable string keys are the members.

export type JsonPrimitive = null | boolean | number | string;
export type JsonArray = JsonValue[];
export interface JsonObject {
  [key: string]: JsonValue;
}
export type JsonValue = JsonPrimitive | JsonArray | JsonObject;

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Sets a member without going through the `__proto__` setter: a key named "__proto__" in untrusted
 * input must become an ordinary member, never change the object's prototype.
 */
export function setMember(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `record` without `key`; the original is left alone. */
export function withoutMember(record: JsonObject, key: string): JsonObject {
  const copy: JsonObject = {};
  for (const name of Object.keys(record)) {
    if (name !== key) setMember(copy, name, record[name] as JsonValue);
  }
  return copy;
}
