#!/usr/bin/env python3
"""Independent verdicts on the fuzz corpus (property-tests/fuzz/corpus/*.json) and the spec's
hmac-sha256-v1 vectors: Python's json module (strict UTF-8, duplicate names refused through
object_pairs_hook, NaN/Infinity refused through parse_constant) for the bytes, and the jsonschema
package (Draft 2020-12, every spec schema registered by $id, formats checked) for the messages.
No code of this project decides a verdict. Writes verdicts.json beside this file.

    python3 property-tests/oracle-vectors/fuzz-corpus/make-verdicts.py
"""
import base64
import json
import pathlib
import platform
import sys
from importlib.metadata import version

import yaml
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = pathlib.Path(__file__).resolve().parents[3]
OUT = pathlib.Path(__file__).with_name("verdicts.json")


class SpecLoader(yaml.SafeLoader):
    """YAML 1.2-ish: no timestamp resolution, so a date in an example stays a string."""


SpecLoader.yaml_implicit_resolvers = {k: [r for r in v if r[0] != "tag:yaml.org,2002:timestamp"] for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def load_schema(path):
    text = path.read_text("utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.load(text, Loader=SpecLoader)


class Duplicate(ValueError):
    pass


def no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise Duplicate(f"duplicate name {k!r}")
        seen[k] = v
    return seen


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse(data):
    """("ok", value) or ("error", reason) under Python's json with duplicates and constants refused."""
    try:
        text = data.decode("utf-8")  # strict: invalid, overlong and surrogate-encoding bytes fail
    except UnicodeDecodeError as e:
        return "error", f"utf-8: {e.reason}"
    try:
        return "ok", json.loads(text, object_pairs_hook=no_duplicates, parse_constant=refuse_constant)
    except RecursionError:
        return "error", "recursion limit"
    except ValueError as e:
        return "error", str(e).split(":")[0]


def pointer(path):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def main():
    schemas = {}
    files = sorted(ROOT.glob("spec/common/*.yaml")) + sorted(ROOT.glob("spec/common/*.json")) + sorted(ROOT.glob("spec/*/messages/*.yaml"))
    for f in files:
        s = load_schema(f)
        if isinstance(s, dict) and "$id" in s:
            schemas[s["$id"]] = (f, s)
    registry = Registry().with_resources([(i, Resource.from_contents(s, default_specification=DRAFT202012)) for i, (_, s) in schemas.items()])
    by_message = {}
    for i, (f, s) in schemas.items():
        if f.parent.name == "messages":
            by_message[(f.parent.parent.name, f.stem)] = Draft202012Validator(s, registry=registry, format_checker=FormatChecker())

    def validate(protocol, message, value):
        errors = sorted(by_message[(protocol, message)].iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
        if not errors:
            return {"schema": "valid"}
        return {"schema": "invalid", "errors": sorted({f"{pointer(e.absolute_path)} {e.validator}" for e in errors})[:20]}

    cases = []
    for name in ["strict-json", "validators", "reproducers"]:
        corpus = json.loads((ROOT / f"property-tests/fuzz/corpus/{name}.json").read_text("utf-8"))
        for c in corpus["cases"]:
            verdict, value = parse(base64.b64decode(c["b64"]))
            out = {"file": name, "name": c["name"], "parse": verdict}
            if verdict == "error":
                out["reason"] = value
            elif c["kind"] == "validate":
                out.update(validate(c["protocol"], c["message"], value))
            cases.append(out)
    vectors = json.loads((ROOT / "spec/agent-provider/vectors/hmac-sha256-v1.json").read_text("utf-8"))
    for c in vectors["cases"]:
        cases.append({"file": "hmac-sha256-v1", "name": c["name"], "parse": "ok", **validate("agent-provider", c["message_type"], c["message"])})
    about = {
        "python": platform.python_version(),
        "jsonschema": version("jsonschema"),
        "formats": "FormatChecker() with rfc3987 " + version("rfc3987") + " (uri) and fqdn " + version("fqdn") + " (hostname) installed",
        "made by": "property-tests/oracle-vectors/fuzz-corpus/make-verdicts.py",
    }
    lines = [json.dumps(c, ensure_ascii=True, separators=(",", ":")) for c in cases]
    OUT.write_text('{\n  "about": ' + json.dumps(about, ensure_ascii=True) + ',\n  "cases": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n", "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(cases)} verdicts", file=sys.stderr)


if __name__ == "__main__":
    main()
