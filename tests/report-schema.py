#!/usr/bin/env python3
"""report-schema.py [--schema FILE] [--quiet] FILE...

Validate cugraphrun --json outputs (single-file reports and suite
documents) against schemas/report.schema.json, read as JSON Schema draft
2020-12 and as draft-07: the schema uses only keywords that mean the same
in both, so the two must agree on every document.  Each FILE must also be
strict JSON: no NaN or Infinity literals (Python's json module would take
them; other readers do not) and no key twice in one object.  FILE "-" is
standard input.

Prints "FILE: valid" or "FILE: invalid: PATH: MESSAGE" per file (only
the invalid ones with --quiet).  Exit status: 0 when every file is valid,
1 when one is not, 2 on usage errors or a schema that is itself invalid,
77 when python3 lacks jsonschema (Debian: python3-jsonschema), saying so.

The schema is found beside the script's folder (schemas/ in the source
tree; tests/gpu/bundle.sh puts both in the GPU bundle the same way) unless
--schema names it.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("report-schema.py: SKIP: python3 has no jsonschema (Debian: python3-jsonschema): "
          "reports not validated", file=sys.stderr)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_PLACES = [os.path.join(HERE, "..", "schemas", "report.schema.json"),
                 os.path.join(HERE, "schemas", "report.schema.json")]


class NotStrict(ValueError):
    """JSON that Python reads but the report's readers need not."""


def _no_constant(name):
    raise NotStrict("%s is not JSON (a number that is not finite must be null)" % name)


def _no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise NotStrict("key %s twice in one object" % json.dumps(k))
        seen[k] = v
    return seen


def load_strict(text):
    return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)


def load_validators(path):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    out = []
    for cls in (jsonschema.Draft202012Validator, jsonschema.Draft7Validator):
        cls.check_schema(schema)
        out.append(cls(schema))
    return out


def first_error(validator, doc):
    """The most relevant error as 'PATH: MESSAGE', or None."""
    e = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if e is None:
        return None
    where = "/" + "/".join(str(p) for p in e.absolute_path)
    msg = e.message
    if len(msg) > 300:
        msg = msg[:300] + "..."
    return "%s: %s" % (where, msg)


def check(validators, text):
    """None when text is a valid report or suite document, else why not."""
    try:
        doc = load_strict(text)
    except (ValueError, NotStrict) as e:
        return "not JSON: %s" % e
    errors = [first_error(v, doc) for v in validators]
    if (errors[0] is None) != (errors[1] is None):
        return "draft 2020-12 says %s, draft-07 says %s: %s" % (
            "valid" if errors[0] is None else "invalid",
            "valid" if errors[1] is None else "invalid",
            errors[0] or errors[1])
    return errors[0]


def main(argv):
    schema = None
    quiet = False
    files = []
    args = iter(argv)
    for a in args:
        if a == "--schema":
            schema = next(args, None)
        elif a.startswith("--schema="):
            schema = a[len("--schema="):]
        elif a == "--quiet":
            quiet = True
        elif a.startswith("--") and a != "--":
            print("report-schema.py: unknown option %s" % a, file=sys.stderr)
            return 2
        else:
            files.append(a)
    if schema is None:
        schema = next((p for p in SCHEMA_PLACES if os.path.exists(p)), SCHEMA_PLACES[0])
    if not files:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        validators = load_validators(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as e:
        print("report-schema.py: %s: not a usable schema: %s" % (schema, e), file=sys.stderr)
        return 2
    bad = 0
    for path in files:
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            why = "cannot read: %s" % e
        else:
            why = check(validators, text)
        if why:
            bad += 1
            print("%s: invalid: %s" % (path, why))
        elif not quiet:
            print("%s: valid" % path)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
