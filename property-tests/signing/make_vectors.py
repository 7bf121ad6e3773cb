#!/usr/bin/env python3
"""Writes the language-neutral vectors in spec/*/vectors/ from Python's stdlib alone.

Every expected digest, MAC, token and id below is computed here with hashlib/hmac/base64/json,
independently of the TypeScript runtime; the TS tests recompute them and must agree, and
property-tests/signing/python-oracle.test.ts re-runs this script and checks the files are
unchanged. Canonical JSON here is RFC 8785 written out by hand (es6_number lays out repr's
shortest digits by the ES6 rules, checked against the upstream ES6 number file with --es6-check;
keys are BMP-only so code point order is UTF-16 order). Run: python3 make_vectors.py [--check]
"""
import base64
import copy
import hashlib
import hmac
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUTSIDE = os.path.join(ROOT, "property-tests", "vectors")


def es6_number(v):
    """ECMAScript Number::toString (ECMA-262 6.1.6.1.20) for a finite double, exactly.

    repr() gives the shortest round-trip digits (the same digits ES6 chooses); only the layout
    differs (Python writes 1e-05 and 1e+16 where ES6 writes 0.00001 and 10000000000000000), so
    the digits and exponent are taken from repr and laid out by the ES6 rules.
    """
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("NaN and Infinity have no JSON form")
    if v == 0:
        return "0"
    sign = "-" if v < 0 else ""
    text = repr(abs(v))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # n: the decimal exponent such that value = 0.d1d2... x 10^n, counted before stripping zeros.
    n = len(whole) + int(exponent or "0") if whole != "0" else int(exponent or "0") - (len(fraction) - len(fraction.lstrip("0")))
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))


def jcs(value):
    """RFC 8785: sorted keys (UTF-16 order equals code point order for BMP keys), ES6 numbers."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        if abs(value) > 2 ** 53:
            raise ValueError("integer outside the I-JSON range")
        return str(value)
    if isinstance(value, float):
        return es6_number(value)
    if isinstance(value, dict):
        if any(ord(c) > 0xFFFF for k in value for c in k):
            raise ValueError("non-BMP keys sort differently by code point")
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + jcs(value[k]) for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(jcs(x) for x in value) + "]"
    raise ValueError("not a JSON value: " + type(value).__name__)


def es6_check(path):
    """Compares es6_number with an upstream ES6 number file (`<hex bits>,<expected>` lines)."""
    import gzip
    import struct
    count = 0
    with (gzip.open(path, "rt", encoding="ascii") if path.endswith(".gz") else open(path, encoding="ascii")) as f:
        for line in f:
            bits, expected = line.rstrip("\n").split(",")
            value = struct.unpack(">d", bytes.fromhex(bits.rjust(16, "0")))[0]
            if value != value or value in (float("inf"), float("-inf")):
                continue
            got = es6_number(value)
            if got != expected:
                print("mismatch %s: %s != %s" % (bits, got, expected))
                sys.exit(1)
            count += 1
    print("ok %d" % count)


def b64std_nopad(data):
    return base64.b64encode(data).decode("ascii").rstrip("=")


def b64url_nopad(data):
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------- strict JSON (common)

def strict_json_cases():
    def case(name, data, error=None):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        entry = {"name": name, "input_hex": data.hex()}
        entry["expect"] = "valid" if error is None else error
        return entry

    return [
        case("plain object", '{"a":1,"b":[true,false,null],"c":"x"}'),
        case("whitespace everywhere", ' \t\r\n{ "a" : [ 1 , 2 ] }\n'),
        case("escaped surrogate pair", '"\\ud83d\\ude02"'),
        case("raw astral character", '"\U0001F602"'),
        case("largest exact integer", "9007199254740992"),
        case("exact big integer 2^60", "1152921504606846976"),
        case("big number with exponent is a double", "1e30"),
        case("member named __proto__", '{"__proto__":{"x":1}}'),
        case("escaped and raw key differ only in escaping", '{"a":1,"\\u0062":2}'),
        case("empty input", "", "unexpected-end"),
        case("byte order mark", b"\xef\xbb\xbf{}", "bom"),
        case("invalid UTF-8 continuation", b'"\xc3\x28"', "invalid-utf8"),
        case("overlong UTF-8", b'"\xc0\xaf"', "invalid-utf8"),
        case("UTF-8 encoded surrogate", b'"\xed\xa0\x80"', "invalid-utf8"),
        case("truncated UTF-8", b'"\xe2\x82', "invalid-utf8"),
        case("duplicate key", '{"a":1,"a":2}', "duplicate-key"),
        case("duplicate key through escape", '{"a":1,"\\u0061":2}', "duplicate-key"),
        case("nested duplicate key", '{"x":{"k":1,"k":1}}', "duplicate-key"),
        case("escaped lone high surrogate", '"\\ud800"', "lone-surrogate"),
        case("escaped lone low surrogate", '"\\udc00"', "lone-surrogate"),
        case("escaped reversed pair", '"\\ude02\\ud83d"', "lone-surrogate"),
        case("high surrogate then letter", '"\\ud800A"', "lone-surrogate"),
        case("NaN", "NaN", "non-json-literal"),
        case("Infinity", "[Infinity]", "non-json-literal"),
        case("negative Infinity", "-Infinity", "non-json-literal"),
        case("single quotes", "{'a':1}", "unexpected-character"),
        case("overflow to infinity", "1e400", "number-out-of-range"),
        case("negative overflow", "-1.8e308", "number-out-of-range"),
        case("inexact integer 2^53+1", "9007199254740993", "number-not-exact"),
        case("inexact negative integer", "-9007199254740993", "number-not-exact"),
        case("leading zero", "01", "invalid-number"),
        case("bare minus", "-", "invalid-number"),
        case("fraction without digits", "1.", "invalid-number"),
        case("exponent without digits", "1e", "invalid-number"),
        case("plus sign", "+1", "non-json-literal"),
        case("hex number", "0x10", "trailing-data"),
        case("trailing garbage", '{"a":1}x', "trailing-data"),
        case("two documents", "{} {}", "trailing-data"),
        case("trailing comma in array", "[1,]", "unexpected-character"),
        case("trailing comma in object", '{"a":1,}', "unexpected-character"),
        case("unterminated string", '"abc', "unexpected-end"),
        case("unterminated array", "[1,2", "unexpected-end"),
        case("raw control character in string", '"a\x01b"', "invalid-string"),
        case("raw newline in string", '"a\nb"', "invalid-string"),
        case("invalid escape", '"\\x41"', "invalid-string"),
        case("short unicode escape", '"\\u12"', "invalid-string"),
        case("unquoted key", "{a:1}", "unexpected-character"),
        case("comment", "[1 /* c */]", "unexpected-character"),
        case("nesting 65 deep (limit 64)", "[" * 65 + "]" * 65, "too-deep"),
        case("nesting 64 deep", "[" * 64 + "]" * 64),
    ]


# ---------------------------------------------------------------- hmac-sha256-v1 (agent-provider)

def line(name, field, value="string", default=None):
    entry = {"name": name, "field": field, "value": value}
    if default is not None:
        entry["default"] = default
    return entry


def hmac_declarations():
    common = {
        "scheme": "hmac-sha256-v1",
        "algorithmId": "hmac-sha256-v1",
        "algorithmField": "signature_algorithm",
        "signatureField": "signature",
        "lineSeparator": "\n",
        "key": {"source": "install-binding", "field": "host_shared_secret", "encoding": "utf8"},
        "signatureEncoding": "base64-std-nopad",
    }
    digest = "sha256-jcs-base64-std-nopad"
    proposal = dict(common, lines=[
        line("request_id", "request_id"), line("provider_id", "provider_id"), line("agent_id", "agent_id"),
        line("action_id", "action_id"), line("tool_name", "tool_name"),
        line("arguments_sha256", "arguments", digest),
        line("created_at", "created_at"), line("expires_at", "expires_at"), line("nonce", "nonce"),
        line("idempotency_key", "idempotency_key"), line("risk", "risk"),
        line("confirmation_policy", "confirmation_policy"), line("host_instance_id", "host_instance_id"),
    ])
    trigger = dict(common, lines=[
        line("request_id", "request_id"), line("provider_id", "provider_id"), line("agent_id", "agent_id"),
        line("message", "message"), line("source", "source", default=""), line("event_type", "event_type", default=""),
        line("payload_sha256", "payload", digest),
        line("created_at", "created_at"), line("expires_at", "expires_at"), line("nonce", "nonce"),
        line("idempotency_key", "idempotency_key"), line("host_instance_id", "host_instance_id"),
    ])
    return {"ActionProposal": proposal, "AgentTriggerRequest": trigger}


def signing_input(declaration, message):
    out = []
    for ln in declaration["lines"]:
        value = message.get(ln["field"], ln.get("default"))
        if ln["value"] == "string":
            out.append(f'{ln["name"]}={value}')
        else:
            out.append(f'{ln["name"]}={b64std_nopad(hashlib.sha256(jcs(value).encode()).digest())}')
    return declaration["lineSeparator"].join(out)


def mac(declaration, message, key):
    return b64std_nopad(hmac.new(key.encode(), signing_input(declaration, message).encode(), hashlib.sha256).digest())


def hmac_cases(declarations):
    with open(os.path.join(OUTSIDE, "agent-provider", "computed_signature_vectors.json")) as f:
        outside = json.load(f)["vectors"]
    base = {v["name"]: v for v in outside}
    cases = []
    for v in outside:
        kind = "ActionProposal" if v["kind"] == "proposal" else "AgentTriggerRequest"
        must_fail = v["name"] in ("divergence_slash_escaped", "divergence_integral_double_rust")
        cases.append({
            "name": v["name"], "message_type": kind, "key_utf8": v["secret_utf8"],
            "message": v["signed_object"], "expected_signature": v["expected_signature"],
            "expect": "signature-mismatch" if must_fail else "valid",
            "source": "property-tests/vectors/agent-provider/computed_signature_vectors.json",
        })
        if not must_fail:
            # The outside signing input must equal ours byte for byte.
            assert signing_input(declarations[kind], v["signed_object"]) == v["signing_input"], v["name"]

    def derived(name, from_name, mutate, expect, resign=False, key=None):
        v = base[from_name]
        kind = "ActionProposal" if v["kind"] == "proposal" else "AgentTriggerRequest"
        message = copy.deepcopy(v["signed_object"])
        mutate(message)
        k = key or v["secret_utf8"]
        entry = {"name": name, "message_type": kind, "key_utf8": k}
        if resign:
            message["signature"] = mac(declarations[kind], message, k)
            entry["expected_signing_input"] = signing_input(declarations[kind], message)
            entry["expected_signature"] = message["signature"]
        entry["message"] = message
        entry["expect"] = expect
        cases.append(entry)

    p, t = "ios_provider_sdk_proposal", "rust_core_trigger_accept"
    derived("proposal: covered field request_id changed", p, lambda m: m.update(request_id="request-2"), "signature-mismatch")
    derived("proposal: covered field risk changed", p, lambda m: m.update(risk="low"), "signature-mismatch")
    derived("proposal: hashed arguments changed", p, lambda m: m["arguments"].update(amount=13), "signature-mismatch")
    derived("proposal: arguments key order changed only", p, lambda m: m.update(arguments={"merchant": "Coffee", "amount": 12.5}), "valid")
    derived("proposal: uncovered user_intent_summary changed", p, lambda m: m.update(user_intent_summary="pay for coffee"), "valid")
    derived("proposal: uncovered callback changed", p, lambda m: m.update(callback={"type": "x"}), "valid")
    derived("proposal: wrong key", p, lambda m: None, "signature-mismatch", key="secret-2")
    derived("proposal: algorithm id changed", p, lambda m: m.update(signature_algorithm="hmac-sha256-v2"), "algorithm-mismatch")
    derived("proposal: unsigned", p, lambda m: (m.pop("signature"), m.pop("signature_algorithm")), "unsigned")
    derived("proposal: signature with base64 padding", p, lambda m: m.update(signature=m["signature"] + "="), "signature-encoding")
    derived("proposal: signature in base64url", p, lambda m: m.update(signature=b64url_nopad(base64.b64decode(m["signature"] + "="))), "signature-encoding")
    derived("proposal: signature in hex", p, lambda m: m.update(signature=base64.b64decode(m["signature"] + "=").hex()), "signature-encoding")
    derived("proposal: covered host_instance_id missing", p, lambda m: m.pop("host_instance_id"), "covered-field-missing")
    derived("proposal: covered nonce not a string", p, lambda m: m.update(nonce=7), "covered-field-not-string")
    derived("proposal: null arguments signed", p, lambda m: m.update(arguments=None), "valid", resign=True)
    derived("proposal: unicode and slash in arguments", p, lambda m: m.update(arguments={"note": "Zoë ✓ a/b", "n": [1, 2]}), "valid", resign=True)
    derived("proposal: newline in a covered value", p, lambda m: m.update(tool_name="a\nb"), "valid", resign=True)
    derived("trigger: covered message changed", t, lambda m: m.update(message="Desk button pressed!"), "signature-mismatch")
    derived("trigger: hashed payload changed", t, lambda m: m.update(payload={"button": "door"}), "signature-mismatch")
    derived("trigger: uncovered protocol_version changed", t, lambda m: m.update(protocol_version=3), "valid")
    derived("trigger: absent source and event_type sign as empty", t, lambda m: (m.pop("source"), m.pop("event_type")), "valid", resign=True)
    derived("trigger: empty payload object", t, lambda m: m.update(payload={}), "valid", resign=True)
    derived("trigger: hashed payload missing", t, lambda m: m.pop("payload"), "covered-field-missing")
    return cases


# ---------------------------------------------------------------- approval token (agent-service)

def mint(claims, secret):
    payload_b64 = b64url_nopad(jcs(claims).encode("utf-8"))
    sig = hmac.new(secret.encode(), payload_b64.encode("ascii"), hashlib.sha256).digest()
    return f"{payload_b64}.{b64url_nopad(sig)}"


def approval_cases():
    with open(os.path.join(OUTSIDE, "agent-service", "approval_token_python_minted.json")) as f:
        outside = json.load(f)
    secret = outside["secret_utf8"]
    claims = outside["decoded_claims"]
    exp = claims["exp"]
    token = outside["token"]
    bindings = outside["expected_bindings_for_verify"]
    assert mint(claims, secret) == token
    cases = []

    def add(name, tok, now, expect, binds=None, sec=None):
        entry = {"name": name, "secret_utf8": secret if sec is None else sec, "token": tok, "now_unix_seconds": now, "expect": expect}
        if binds is not None:
            entry["bindings"] = binds
        cases.append(entry)

    def claims_with(**changes):
        c = dict(claims)
        c.update(changes)
        return c

    add("python-minted token, clock ten minutes before exp", token, exp - 600, "valid", bindings)
    add("python-minted token, exp == now passes", token, exp, "valid", bindings)
    add("python-minted token, one second after exp", token, exp + 1, "expired", bindings)
    add("python-minted token, lifetime 1800 + 60 accepted", token, exp - 1860, "valid")
    add("python-minted token, lifetime 1800 + 61 refused", token, exp - 1861, "lifetime-exceeded")
    add("python-minted token, wrong secret", token, exp - 60, "signature-invalid", sec="another-secret-of-at-least-24-chars")
    # The secret is checked before the token (x-approval-token minSecretBytes: 32; hmac-sha256-v1's key-missing).
    add("empty secret refused before the token is read", token, exp - 60, "key-missing", sec="")
    add("31-byte secret refused (minSecretBytes 32)", token, exp - 60, "key-too-short", sec="k" * 31)
    add("no dot", token.replace(".", ""), exp - 60, "invalid-format")
    add("signature with padding", token + "=", exp - 60, "signature-not-base64url")
    # A token whose MAC has '-' or '_' in base64url, re-encoded in the standard alphabet.
    n = 0
    while True:
        url_token = mint(claims_with(nonce=f"nonce-{n}"), secret)
        if any(ch in url_token.split(".")[1] for ch in "-_"):
            break
        n += 1
    payload_part, sig_part = url_token.split(".")
    std_sig = base64.b64encode(base64.urlsafe_b64decode(sig_part + "=")).decode().rstrip("=")
    add("signature in the standard base64 alphabet", payload_part + "." + std_sig, exp - 60, "signature-not-base64url")
    add("signature of another payload", mint(claims_with(resource_id="TKT-1002"), secret).split(".")[0] + "." + token.split(".")[1], exp - 60, "signature-invalid")
    bad_payload = "not*base64"
    add("payload not base64url (MAC valid)", bad_payload + "." + b64url_nopad(hmac.new(secret.encode(), bad_payload.encode(), hashlib.sha256).digest()), exp - 60, "payload-not-base64url")
    not_json = b64url_nopad(b"{not json")
    add("payload not JSON (MAC valid)", not_json + "." + b64url_nopad(hmac.new(secret.encode(), not_json.encode(), hashlib.sha256).digest()), exp - 60, "payload-invalid")
    c = dict(claims)
    del c["nonce"]
    add("claims without nonce", mint(c, secret), exp - 60, "payload-invalid")
    add("version 2", mint(claims_with(v=2), secret), exp - 60, "version-unsupported")
    add("bound to another resource", mint(claims_with(resource_id="TKT-1002"), secret), exp - 60, "not-bound-to-action", bindings)
    add("bound to another request", mint(claims_with(request_id="22222222-2222-4222-8222-222222222222"), secret), exp - 60, "not-bound-to-request", bindings)
    add("payload digest does not match", mint(claims_with(payload={"note": "edited"}), secret), exp - 60, "payload-digest-mismatch", bindings)
    add("issued against another choice", mint(claims_with(expected_choice="low"), secret), exp - 60, "expected-choice-mismatch", bindings)
    add("blank nonce", mint(claims_with(nonce=" "), secret), exp - 60, "missing-identity", bindings)
    empty = claims_with(payload={}, payload_sha256=sha256_hex(b"{}"))
    assert empty["payload_sha256"] == "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    add("empty payload signs an empty object", mint(empty, secret), exp - 60, "valid", bindings)
    return {"secret_note": "test secrets only", "cases": cases}


# ---------------------------------------------------------------- content ids and audit chain (agent-connector)

def content_id(prefix, id_field, record):
    body = {k: v for k, v in record.items() if k != id_field}
    return prefix + sha256_hex(jcs(body).encode("utf-8"))


AUDIT = {"idField": "eventId", "prefix": "connector-audit-", "previousField": "previousEventId",
         "sequenceField": "sequence", "genesisPrevious": ""}


def connector_cases():
    decls = {
        "ConnectorManifest": {"idField": "manifestId", "prefix": "connector-manifest-", "digest": "sha256-hex",
                              "covers": "record-without-id", "maxCanonicalBytes": 262144, "canonicalInput": True},
        "ConnectorPackage": {"idField": "packageId", "prefix": "connector-package-", "digest": "sha256-hex",
                             "covers": "record-without-id", "maxCanonicalBytes": 524288, "canonicalInput": True},
    }
    folder = os.path.join(OUTSIDE, "agent-connector", "generated", "valid")
    with open(os.path.join(folder, "EXPECTED.json")) as f:
        expected = json.load(f)
    records = []
    for name in sorted(expected):
        with open(os.path.join(folder, name), "rb") as f:
            raw = f.read()
        record = json.loads(raw)
        kind = "ConnectorPackage" if name.endswith(".package.json") else "ConnectorManifest"
        d = decls[kind]
        computed = content_id(d["prefix"], d["idField"], record)
        assert computed == record[d["idField"]] == expected[name].get("packageId" if kind == "ConnectorPackage" else "manifestId")
        assert jcs(record).encode() == raw
        records.append({"name": name, "message_type": kind, "record": record, "expected_id": computed,
                        "source": "property-tests/vectors/agent-connector/generated/valid/" + name})
    # A synthetic record with non-ASCII text, an empty-string key and nested arrays.
    synthetic = {"recordType": "example", "schemaVersion": 1, "title": "Zoë ✓ — </script>", "": [1, [2, {"b": None, "a": True}]]}
    records.append({"name": "synthetic non-ASCII record", "message_type": "ConnectorManifest",
                    "record": dict(synthetic, manifestId=content_id("connector-manifest-", "manifestId", synthetic)),
                    "expected_id": content_id("connector-manifest-", "manifestId", synthetic)})
    return {"declarations": decls, "cases": records}


def audit_cases():
    with open(os.path.join(OUTSIDE, "agent-connector", "generated", "audit", "lifecycle.audit.jsonl")) as f:
        entries = [json.loads(l) for l in f.read().split("\n") if l]
    previous = ""
    for i, e in enumerate(entries):
        assert e["sequence"] == i + 1 and e["previousEventId"] == previous
        assert content_id("connector-audit-", "eventId", e) == e["eventId"]
        previous = e["eventId"]
    head = {"sequence": len(entries), "eventId": previous}
    cases = [{"name": "upstream lifecycle log", "entries": entries, "head": head, "expect": "valid"}]

    def mutated(name, fn, expect, new_head=None):
        es = copy.deepcopy(entries)
        es = fn(es) or es
        cases.append({"name": name, "entries": es, "head": new_head or head, "expect": expect})

    def rehash_from(es, start):
        prev = es[start - 1]["eventId"] if start > 0 else ""
        for i in range(start, len(es)):
            es[i]["sequence"] = i + 1
            es[i]["previousEventId"] = prev
            es[i]["eventId"] = content_id("connector-audit-", "eventId", es[i])
            prev = es[i]["eventId"]
        return es

    mutated("edited timestamp", lambda es: es[2].update(timestamp="2026-08-10T00:00:09.000Z"), "event-id-mismatch")
    mutated("swapped entries 2 and 3", lambda es: [es[0], es[2], es[1]] + es[3:], "sequence-mismatch")
    mutated("deleted middle entry", lambda es: es[:2] + es[3:], "sequence-mismatch")
    mutated("deleted middle entry, later sequences renumbered", lambda es: [dict(e, sequence=i + 1) for i, e in enumerate(es[:2] + es[3:])], "previous-mismatch")
    mutated("inserted duplicate entry", lambda es: es[:2] + [es[1]] + es[2:], "sequence-mismatch")
    mutated("non-empty genesis link", lambda es: es[0].update(previousEventId="x"), "previous-mismatch")
    mutated("edited and whole chain rehashed", lambda es: rehash_from([es[0], dict(es[1], action="revoked")] + es[2:], 1), "head-mismatch")
    cases.append({"name": "last entry deleted", "entries": entries[:-1], "head": head, "expect": "head-mismatch"})
    cases.append({"name": "last two entries deleted", "entries": entries[:-2], "head": head, "expect": "head-mismatch"})
    cases.append({"name": "all entries deleted", "entries": [], "head": head, "expect": "head-mismatch"})
    cases.append({"name": "entry appended after the head", "entries": rehash_from(copy.deepcopy(entries) + [dict(entries[-1], action="removed")], len(entries)), "head": head, "expect": "head-mismatch"})
    return {"declaration": AUDIT, "cases": cases}


def outputs():
    declarations = hmac_declarations()
    return {
        "spec/common/vectors/strict-json.json": {
            "description": "Strict JSON parsing of untrusted bytes (RFC 8259 + I-JSON RFC 7493). input_hex is the exact bytes; expect is 'valid' or the error code every runtime must report. Default limits: 4 MiB, nesting depth 64.",
            "limits": {"maxBytes": 4194304, "maxDepth": 64},
            "cases": strict_json_cases(),
        },
        "spec/agent-provider/vectors/hmac-sha256-v1.json": {
            "description": "hmac-sha256-v1 for ActionProposal and AgentTriggerRequest: verify `message` with key_utf8 under the declaration for message_type; expect is 'valid' or the error code. Expected signatures come from property-tests/vectors or from Python hmac (property-tests/signing/make_vectors.py).",
            "declarations": declarations,
            "replay": {
                "ActionProposal": {"keyFields": ["request_id"], "scopeFields": ["provider_id", "host_instance_id"],
                                   "expiresAtField": "expires_at", "notBeforeField": "created_at", "skewSeconds": 60, "maxLifetimeSeconds": 86400},
                "AgentTriggerRequest": {"keyFields": ["request_id"], "scopeFields": ["provider_id", "host_instance_id"],
                                        "expiresAtField": "expires_at", "notBeforeField": "created_at", "skewSeconds": 60, "maxLifetimeSeconds": 86400},
            },
            "cases": hmac_cases(declarations),
        },
        "spec/agent-service/vectors/approval-token.json": dict(
            description="Approval tokens: decode `token` with secret_utf8 at now_unix_seconds (and check `bindings` when present); expect is 'valid' or the error code, in the reference verifier's order.",
            declaration={"version": 1, "maxLifetimeSeconds": 1800, "clockSkewSeconds": 60, "minTtlSeconds": 60, "maxTtlSeconds": 1800, "defaultTtlSeconds": 600, "minSecretBytes": 32},
            replay={"keyFields": ["nonce"], "scopeFields": [], "expiresAtField": "exp", "timeFormat": "unix-seconds", "skewSeconds": 60, "maxLifetimeSeconds": 1800},
            **approval_cases(),
        ),
        "spec/agent-connector/vectors/content-ids.json": dict(
            description="Content addresses: expected_id = prefix + hex(SHA-256(JCS(record without idField))). Records from the reference implementation's output (see source) and one synthetic record.",
            **connector_cases(),
        ),
        "spec/agent-connector/vectors/audit-chain.json": dict(
            description="Connector audit chains: verify `entries` against the separately stored `head`; expect is 'valid' or the first error code.",
            **audit_cases(),
        ),
    }


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--es6-check":
        es6_check(sys.argv[2])
        return
    check = "--check" in sys.argv
    stale = []
    for rel, content in outputs().items():
        path = os.path.join(ROOT, rel)
        text = json.dumps(content, indent=2, ensure_ascii=False) + "\n"
        if check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("stale: " + ", ".join(stale))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
