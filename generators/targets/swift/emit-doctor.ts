// The Swift signature doctor surface: per signed message `explainSignature(_:key:)`, bound to the
// message's declaration and the protocol's recorded dialects (generators/model/dialects.ts), and
// a test that replays the protocol's signature-doctor vectors. Kept out of emit.ts on purpose.
import { canonicalizationDialects } from "../../model/dialects.js";
import type { OutputFile, Protocol } from "../../model/types.js";
import { rawStringLiteral, stringLiteral } from "./naming.js";
import type { SharedCaseFile } from "./emit.js";

/**
 * The doctor extension of every protocol with a signed message, and its test wherever the
 * protocol's spec has signature-doctor vectors (`spec/<protocol>/vectors/signature-doctor.json`).
 */
export function swiftDoctorFiles(protocol: Protocol, namespace: string, sources: string, tests: string, cases: readonly SharedCaseFile[]): OutputFile[] {
  const signed = protocol.messages.filter((m) => m.signature !== undefined);
  if (signed.length === 0) return [];
  const files = [...new Set([protocol.location.file, ...signed.map((m) => m.location.file)])].sort();
  const out = [
    "import Foundation",
    "",
    `extension ${namespace} {`,
    "    /// The recorded platform JSON writers (divergences with a canonicalization entry): what the signature doctor tries.",
    `    public static let canonicalizationDialects: [CanonicalizationDialect] = (try? CanonicalizationDialect.list(fromJSON: ${rawStringLiteral(JSON.stringify(canonicalizationDialects(protocol)))})) ?? []`,
    "}",
    "",
  ];
  for (const m of signed) {
    out.push(
      `extension ${namespace}.${m.name} {`,
      "    /// Verifies the received text and, when that fails, names each recorded dialect whose bytes the signature matches (never acceptance).",
      "    public static func explainSignature(_ text: String, key: [UInt8]) -> SignatureExplanation {",
      `        SignatureDoctor.explain(signatureDeclaration, dialects: ${namespace}.canonicalizationDialects, text: text, key: key)`,
      "    }",
      "}",
      "",
    );
  }
  const result: OutputFile[] = [{ path: `${sources}/${namespace}/${namespace}SignatureDoctor.swift`, contents: out.join("\n"), sources: files }];
  const vector = `${protocol.id}/vectors/signature-doctor.json`;
  const vectorFile = cases.find((c) => c.path === vector);
  if (vectorFile !== undefined) {
    // The count the file has now: a resource that lost cases fails the test instead of passing on fewer.
    const count = (JSON.parse(vectorFile.text) as { cases: unknown[] }).cases.length;
    const dispatch = signed.map((m) => `            case ${stringLiteral(m.name)}: result = ${namespace}.${m.name}.explainSignature(c.text("text"), key: utf8(c.text("key_utf8")))`).join("\n");
    result.push({
      path: `${tests}/${namespace}SignatureDoctorTests.swift`,
      sources: ["generators/targets/swift/emit-doctor.ts", `spec/${vector}`],
      contents: `import Foundation
import XCTest
@testable import AgentContracts

/// The signature doctor on the protocol's recorded signed messages: the same verdicts as the
/// TypeScript and Kotlin doctors from the same vector file.
final class ${namespace}SignatureDoctorTests: XCTestCase {
    func testRealSignedMessages() throws {
        let cases = try SharedCases.cases("${vector}")
        XCTAssertEqual(cases.count, ${count})
        for c in cases {
            let result: SignatureExplanation
            switch c.text("message_type") {
${dispatch}
            default: XCTFail("unknown message type"); continue
            }
            let actual = result.verified ? "verified" : "\\(result.reasonCode ?? "") \\(result.diagnoses.map(\\.divergence))"
            var wanted = c.text("expect")
            if let expect = c["expect"]?.objectValue {
                wanted = "\\(expect.text("reason")) \\((expect["diagnoses"]?.arrayValue ?? []).compactMap { $0.stringValue })"
            }
            XCTAssertEqual(actual, wanted, c.text("name"))
        }
    }

    func testNotJSONIsRefusedWithItsCode() {
        XCTAssertEqual(${namespace}.${signed[0]!.name}.explainSignature("{\\"a\\":", key: utf8("k")).reasonCode, "unexpected-end")
        for bad in ["", "{", "[1,]", "\\"\\\\x\\"", "01", "{\\"a\\" 1}", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)] {
            XCTAssertNil(CanonicalDialects.parseLexical(bad), bad)
        }
    }

    func testJavaNumberWriters() {
        XCTAssertEqual([12, -0.0, 1e-6, 1e21, 0.001, 1e7].map(CanonicalDialects.javaDoubleToString), ["12.0", "-0.0", "1.0E-6", "1.0E21", "0.001", "1.0E7"])
        XCTAssertEqual(["0.000001", "1e21", "12.0", "1e-7", "1.5e3"].map(CanonicalDialects.javaBigDecimalToString), ["0.000001", "1E+21", "12.0", "1E-7", "1.5E+3"])
    }
}
`,
    });
  }
  return result;
}
