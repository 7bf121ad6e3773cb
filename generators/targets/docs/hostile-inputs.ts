// The hostile-input page: one row per input class of the security review (issue 15), with the
// limit, the typed error, and the time and memory bound. A hand-written table: the limits are the
// runtimes' defaults (imported, so the page cannot drift from the code) and the error codes are
// the strict parser's and the validators' own; property-tests/fuzz/corpus holds an input of each
// class with the verdict every language must give.
import { DEFAULT_MAX_JSON_BYTES, DEFAULT_MAX_JSON_DEPTH } from "../../../generated/ts/runtime/strict-json.js";
import { DEFAULT_LIMITS as KIT } from "../../conformance/failures.js";
import { MAX_SHARED_INTEGER } from "../../emit/number-literal.js";
import { MAX_SPEC_DEPTH, MAX_SPEC_FILE_BYTES, MAX_SPEC_FILES, MAX_SPEC_TOTAL_BYTES } from "../../load/spec-limits.mjs";

export interface HostileInputRow {
  inputClass: string;
  limit: string;
  errorCode: string;
  time: string;
  memory: string;
}

const MIB_BYTES = 1024 * 1024;
const MIB = DEFAULT_MAX_JSON_BYTES / MIB_BYTES;

export const HOSTILE_INPUT_ROWS: readonly HostileInputRow[] = [
  { inputClass: "Malformed JSON", limit: "RFC 8259 grammar only: no comments, trailing commas, NaN/Infinity, leading zeros or trailing data", errorCode: "unexpected-character, unexpected-end, invalid-number, invalid-string, non-json-literal, trailing-data (keyword json)", time: "one pass, linear in the input", memory: "the parsed value; input at most the size limit" },
  { inputClass: "Byte order mark", limit: "refused at offset 0", errorCode: "bom", time: "constant", memory: "none" },
  { inputClass: "Invalid UTF-8", limit: "overlong forms, encoded surrogates, truncated and stray bytes refused", errorCode: "invalid-utf8", time: "linear", memory: "none beyond the input" },
  { inputClass: "Surrogates", limit: "a lone or reversed \\uD800-\\uDFFF escape is refused; pairs decode", errorCode: "lone-surrogate", time: "linear", memory: "none beyond the value" },
  { inputClass: "Duplicate keys", limit: "refused after escapes are decoded (\"a\" and \"\\u0061\" are the same key)", errorCode: "duplicate-key", time: "linear (one hash set per object)", memory: "linear in the object's keys" },
  { inputClass: "Huge numbers", limit: "a number beyond the double range or not exactly a double (2^53 + 1) is refused; every integer field is bounded to 2^53 - 1 by the schema (lint integer-range)", errorCode: "number-out-of-range, number-not-exact; maximum", time: "linear in the digits", memory: "constant per number" },
  { inputClass: "Deep nesting", limit: `depth ${DEFAULT_MAX_JSON_DEPTH}`, errorCode: "too-deep", time: "linear; stops at the limit", memory: `bounded by depth ${DEFAULT_MAX_JSON_DEPTH}, not by the input` },
  { inputClass: "Long strings and patterns", limit: "maxLength runs before every other keyword; every pattern is linear-time (lint linear-regex, recheck)", errorCode: "maxLength, then pattern / not", time: "linear in the string", memory: "constant beyond the string" },
  { inputClass: "50 MB inputs", limit: `${MIB} MiB per document (StrictJsonLimits.maxBytes), checked before parsing`, errorCode: "too-large", time: "constant: refused before it is parsed", memory: "the bytes already read" },
  { inputClass: "Replay flooding", limit: "maxLifetimeSeconds per x-replay message; a per-scope quota in every store", errorCode: "lifetime-exceeded, capacity-exceeded", time: "constant per message", memory: "bounded by the store's maxEntries" },
  // The conformance kit against a hostile server under test (property-tests/conformance/hostile.test.ts).
  { inputClass: "Hostile servers: silence", limit: `--timeout ${KIT.timeoutMs} ms before the response head (connect included) and between body chunks`, errorCode: "idle-timeout", time: `at most the timeout per gap, the case deadline overall`, memory: "the request only" },
  { inputClass: "Hostile servers: trickle, endless comments or [DONE] frames, long waits", limit: `--deadline ${KIT.deadlineMs} ms per case, all steps and waits included`, errorCode: "deadline-exceeded", time: "the case deadline", memory: `at most --max-body-bytes` },
  { inputClass: "Hostile servers: endless or oversized body or event stream", limit: `--max-body-bytes ${KIT.maxBodyBytes / MIB_BYTES} MiB per request, counted as bytes arrive`, errorCode: "body-too-large", time: "stops at the cap (within the deadline)", memory: `at most ${KIT.maxBodyBytes / MIB_BYTES} MiB per request` },
  { inputClass: "Hostile servers: unterminated or oversized SSE block", limit: `--max-event-bytes ${KIT.maxEventBytes / MIB_BYTES} MiB (UTF-8) per event`, errorCode: "sse-event-too-large", time: "linear in the bytes (only new text is scanned)", memory: `at most ${KIT.maxEventBytes / MIB_BYTES} MiB kept between chunks` },
  { inputClass: "Hostile servers: wrong status or header, then an endless body", limit: "the first failed expectation ends the case; the socket is closed on every exit path", errorCode: "expectation-failed", time: "immediate", memory: "what arrived before the close" },
  { inputClass: "Hostile servers: refused or reset connection", limit: "—", errorCode: "connection-error", time: "at most the timeout", memory: "—" },
  { inputClass: "Hostile servers: credentials echoed back", limit: "the --key-file key, Bearer/Basic values, Authorization, Proxy-Authorization, Cookie and Set-Cookie values", errorCode: "[redacted] in failure lines", time: "—", memory: "—" },
  // A spec project received from someone else (issue 31): generate, docs, list and breaking read it.
  { inputClass: "Spec project: symbolic link where generate writes (generated/ts/evil -> /some/dir, generated/ts/README.md -> ~/.bashrc)", limit: "no link inside an owned folder (generated/ts, generated/kotlin, generated/swift) or on the way to any output, found with lstat before anything is written or removed; every write and removal checked to resolve inside the output folder (realpath); a changed file is replaced, never written through", errorCode: "output-link, outside-output-root (exit 1, nothing written or removed)", time: "one lstat per entry of the owned folders", memory: "the list of paths" },
  { inputClass: "Spec project: symbolic link leaving spec/ (spec/common/leak.yaml -> ~/.kube/config)", limit: "never read through; a link to a file inside spec/ is read resolved", errorCode: "spec-link (exit 1; the error names the link and its target)", time: "one lstat and realpath per path component", memory: "none" },
  { inputClass: "Spec project: oversize spec file", limit: `${MAX_SPEC_FILE_BYTES / MIB_BYTES} MiB per file, from stat before it is read`, errorCode: "spec-file-too-large", time: "constant: refused before it is read (a sparse 300 MiB file: 0.3 ms, measured)", memory: "none (RSS +0.3 MiB, measured)" },
  { inputClass: "Spec project: many or large files together", limit: `${MAX_SPEC_FILES} files and ${MAX_SPEC_TOTAL_BYTES / MIB_BYTES} MiB per load, counted before each read`, errorCode: "spec-too-many-files, spec-total-too-large", time: "stops at the limit", memory: `at most ${MAX_SPEC_TOTAL_BYTES / MIB_BYTES} MiB of text` },
  { inputClass: "Spec project: a pipe or device named like a spec file", limit: "only regular files are read", errorCode: "spec-file-type", time: "constant", memory: "none" },
  { inputClass: "Spec project: deep nesting (YAML or JSON)", limit: `depth ${MAX_SPEC_DEPTH}, measured on the syntax tree before the document is built (100 000 nested "- " crashed the YAML library)`, errorCode: "spec-too-deep", time: "linear in the file", memory: "the syntax tree of one file (at most the file limit)" },
  { inputClass: "Spec project: numbers at the edges (2^63, 2^53 + 1, 1e300)", limit: `every number exactly a double as written, integers within +-${MAX_SHARED_INTEGER} (2^53 - 1): TypeScript number, Kotlin Int/Long/Double and Swift Int/Double all hold it; constants are written as exact literals`, errorCode: "number-exact", time: "constant per number", memory: "none" },
  { inputClass: "Spec project: x-rules pointer with escaped names (/c*~1d)", limit: "RFC 6901: ~1 is /, ~0 is ~; any other ~ is not a pointer", errorCode: "rule-pointers", time: "linear in the pointer", memory: "none" },
  { inputClass: "Conformance case files: CR/LF or control characters in a path or header (\"/x\\r\\nHost: elsewhere\")", limit: "the case schema allows no space or control character in a path, a token as header name and no control character but tab in a value; a request the HTTP client still refuses is that case's failure, the other cases run and the summary is printed", errorCode: "pattern (load error, exit 2); request-error (the case)", time: "constant", memory: "none" },
  { inputClass: "Conformance case files: size, count, nesting", limit: `the spec file limits, per suite: ${MAX_SPEC_FILE_BYTES / MIB_BYTES} MiB per file, ${MAX_SPEC_FILES} files, ${MAX_SPEC_TOTAL_BYTES / MIB_BYTES} MiB together, depth ${MAX_SPEC_DEPTH}`, errorCode: "spec-file-too-large, spec-too-many-files, spec-total-too-large, spec-too-deep (exit 2)", time: "refused before reading", memory: "none" },
  { inputClass: "Kotlin validator: a $ref naming no loaded schema", limit: "every $ref resolved when the schemas are loaded", errorCode: "IllegalArgumentException at load (never an IllegalStateException at validation)", time: "once per $ref", memory: "none" },
  { inputClass: "CLI input from a pipe or file (500 MB, /dev/zero)", limit: `${MIB} MiB, read in pieces`, errorCode: "too-large (exit 1)", time: "stops reading one byte past the limit", memory: "the limit plus Node's baseline" },
];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function hostileInputsHtml(): string {
  const head = "<tr><th>Input class</th><th>Limit</th><th>Error code</th><th>Time bound</th><th>Memory bound</th></tr>";
  const rows = HOSTILE_INPUT_ROWS.map((r) => `<tr><td>${esc(r.inputClass)}</td><td>${esc(r.limit)}</td><td><code>${esc(r.errorCode)}</code></td><td>${esc(r.time)}</td><td>${esc(r.memory)}</td></tr>`).join("\n");
  return `<table class="hostile-inputs">\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
}
