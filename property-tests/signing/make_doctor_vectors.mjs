// Joins the real implementations' signed messages with the hand-written doctor expectations into
// the language-neutral vector file the TS, Kotlin and Swift doctor tests replay.
// Run: node property-tests/signing/make_doctor_vectors.mjs
import { readFileSync, writeFileSync } from "node:fs";

const root = new URL("../..", import.meta.url).pathname;
const dir = `${root}property-tests/vectors/real-implementations/napaxi-host-and-android-sdk`;
const expectations = JSON.parse(readFileSync(`${dir}/doctor-expectations.json`, "utf8"));
const type = (kind) => (kind === "trigger" ? "AgentTriggerRequest" : "ActionProposal");
const cases = [];
const add = (source, id, name, kind, key, text) => {
  const expect = expectations[source][String(id)];
  if (expect === undefined) throw new Error(`${source} case ${id} has no expectation`);
  cases.push({ name: `${source.replace(/\.json$/, "")} #${id}: ${name}`, source, message_type: type(kind), key_utf8: key, text, expect });
};
for (const c of JSON.parse(readFileSync(`${dir}/rust-host-signed-edge-cases.json`, "utf8"))) add("rust-host-signed-edge-cases.json", c.id, c.name, c.kind, c.key, c.text);
for (const file of ["android-sdk-signed-triggers.aosp-org-json.json", "android-sdk-signed-triggers.org-json-20240303.json"]) {
  for (const v of Object.values(JSON.parse(readFileSync(`${dir}/${file}`, "utf8")))) add(file, v.case.id, v.case.name, v.case.kind, v.case.key, v.kotlin.wire);
}
// Derived cases (hand-written expectations in the same file): a real message with its first member
// written twice, which parsers that refuse duplicate keys refuse as a whole.
const FIRST_MEMBER = /^\{("(?:[^"\\]|\\.)*":(?:-?\d+|"(?:[^"\\]|\\.)*")),/;
for (const [ref, expect] of Object.entries(expectations["duplicated-first-member"])) {
  if (ref.startsWith("_")) continue;
  const [source, id] = ref.split("#");
  const original = cases.find((c) => c.source === source && c.name.startsWith(`${source.replace(/\.json$/, "")} #${id}:`));
  if (!original || !FIRST_MEMBER.test(original.text)) throw new Error(`${ref}: no such case, or its first member is not a string or an integer`);
  cases.push({ ...original, name: `${original.name} (first member duplicated)`, text: original.text.replace(FIRST_MEMBER, "{$1,$1,"), expect });
}
const out = {
  description:
    "Signature doctor vectors: run explain<message_type>Signature(text, key_utf8). expect is 'verified', or {reason, diagnoses}: the RFC 8785 refusal code and, in spec order, the divergence ids of the dialects under which the signature verifies. Messages from property-tests/vectors/real-implementations/napaxi-host-and-android-sdk (Napaxi @ 7954c2db, run unmodified); expectations hand-written there (doctor-expectations.json).",
  cases,
};
writeFileSync(`${root}spec/agent-provider/vectors/signature-doctor.json`, JSON.stringify(out, null, 1) + "\n");
console.log(`${cases.length} cases`);
