// The runtime's public surface. The SQLite replay store is not re-exported here so that
// better-sqlite3 stays optional: import "@agent-contracts/bindings/runtime/replay-sqlite".
export * from "./validation.js";
export * from "./all-errors.js";
export * from "./rules.js";
export * from "./secret-text.js";
export * from "./whatwg-url.js";
export * from "./strict-json.js";
export * from "./text-position.js";
export * from "./canonical-json.js";
export * from "./crypto.js";
export * from "./content-address.js";
export * from "./signing-hmac-v1.js";
export * from "./approval-token.js";
export * from "./replay-guard.js";
export * from "./audit-chain.js";
export * from "./json-value.js";
export * from "./lifecycle-runner.js";
export * from "./trust-store.js";
export * from "./interaction-registry.js";
export * from "./inbox-cursor.js";
export * from "./store-support.js";
export * from "./single-use.js";
export * from "./bookmark-store.js";
export * from "./canonical-dialects.js";
export * from "./signature-doctor.js";
export * from "./typed-signing.js";
