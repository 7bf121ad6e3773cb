// The interoperability page's canonicalization entries: bytes per platform for each JSON
// divergence, and the doctor's report on a real signed message. Expected bytes are the README
// table of the real implementations (../shared/vectors/real-implementations/README.md).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../generators/load/load-spec.js";
import { buildModel } from "../../generators/model/build.js";
import { dialectViews } from "../../generators/targets/docs/dialect-view.js";

const REPO = new URL("../..", import.meta.url).pathname;

describe("interop page: bytes per platform and the doctor's report", () => {
  const model = buildModel(loadSpec(REPO).spec);
  const protocol = model.protocols.find((p) => p.id === "agent-provider")!;
  const vectors = { "signature-doctor.json": JSON.parse(readFileSync(`${REPO}spec/agent-provider/vectors/signature-doctor.json`, "utf8")), "hmac-sha256-v1.json": JSON.parse(readFileSync(`${REPO}spec/agent-provider/vectors/hmac-sha256-v1.json`, "utf8")) };
  const views = dialectViews(protocol, vectors);
  const text = (id: string): string => (views.get(id) ?? "").replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

  it("1e21: serde_json 1.0.154 1e+21, 1.0.140 1e21, AOSP 1.0E21, org.json 20240303 1E+21, RFC 8785 1e+21", () => {
    const t = text("canonical-json-exponent-format");
    for (const bytes of ['{"x":1e+21}', '{"x":1e21}', '{"x":1.0E21}', '{"x":1E+21}']) expect(t).toContain(bytes);
    expect(t).toContain("diagnosis: canonical-json-dialect-org-json-20240303");
  });
  it("-0: serde_json -0.0, AOSP 0 (as a long) or -0.0 (as a double), RFC 8785 0", () => {
    const t = text("canonical-json-negative-zero");
    expect(t).toMatch(/RFC 8785 \(this project\)\s+\{"x":0\}/);
    expect(t).toMatch(/serde_json 1\.0\.154\s+\{"x":-0\.0\}/);
    expect(t).toMatch(/AOSP org\.json\s+\{"x":0\}\s+or\s+\{"x":-0\.0\}/);
  });
  it("slash: AOSP and iOS write a\\/b, org.json 20240303 and the Rust host a/b", () => {
    const t = text("canonical-json-slash-escaping");
    expect(t).toMatch(/AOSP org\.json\s+\{"u":"https:\\\/\\\/example\.com\\\/a"\}/);
    expect(t).toMatch(/org\.json 20240303\s+\{"u":"https:\/\/example\.com\/a"\}/);
    expect(t).toContain("diagnosis: canonical-json-dialect-aosp-org-json");
  });
  it("org.json 20240303 escapes </, C1 controls and U+2000-U+20FF", () => {
    expect(text("canonical-json-org-json-escapes")).toContain('<\\/script>\\u0085 a\\u200db');
  });
  it("large integers: RFC 8785 refuses with number-not-exact; the doctor names the Rust host", () => {
    const t = text("canonical-json-large-integers");
    expect(t).toContain("refused: number-not-exact");
    expect(t).toContain("diagnosis: canonical-json-dialect-serde-json");
  });
  it("a trigger without payload: the doctor names the Rust host (hashed null)", () => {
    expect(text("trigger-payload-null")).toContain("not verified under RFC 8785: covered-field-missing");
    expect(text("trigger-payload-null")).toContain("diagnosis: canonical-json-dialect-serde-json");
  });
});
