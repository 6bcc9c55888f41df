#!/usr/bin/env python3
"""Write a libFuzzer dictionary for cugraphrun's format from its JSON Schema.

Every property name becomes "NAME:" (a key) and every enum or const string
value becomes a token, together with YAML's own punctuation and tags.
Usage: gen-dict.py SCHEMA.json > load_fuzz.dict
"""
import json
import sys


def walk(node, keys, values):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                keys.update(v.keys())
            elif k == "enum" and isinstance(v, list):
                values.update(x for x in v if isinstance(x, (str, int, float)) and not isinstance(x, bool))
            elif k == "const" and isinstance(v, (str, int, float)) and not isinstance(v, bool):
                values.add(v)
            elif k == "pattern" and isinstance(v, str):
                continue
            walk(v, keys, values)
    elif isinstance(node, list):
        for v in node:
            walk(v, keys, values)


def quote(s):
    out = []
    for ch in s.encode("utf-8"):
        if ch in (0x22, 0x5c) or ch < 0x20 or ch > 0x7e:
            out.append("\\x%02x" % ch)
        else:
            out.append(chr(ch))
    return '"' + "".join(out) + '"'


YAML_TOKENS = [
    "---", "...", ": ", "- ", "? ", "{", "}", "[", "]", ", ", "&a ", "*a",
    "<<: ", "!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "!!binary ",
    "!!map ", "!!seq ", "!custom ", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n",
    "|\n", ">-\n", "'", "\"", "\\u0000", "\\x00", "\n  ", "# ", "~", "null",
    "true", "false", ".inf", "-.inf", ".nan", "0x", "0o", "1e308", "-1",
    "18446744073709551616", "9223372036854775807", "\ufeff", "\r\n",
]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    keys, values = set(), set()
    walk(schema, keys, values)
    print("# Generated from %s by tests/fuzz/gen-dict.py; do not edit."
          % sys.argv[1].rsplit("/", 1)[-1])
    for k in sorted(keys):
        print(quote(k + ": "))
    for v in sorted(values, key=str):
        print(quote(str(v)))
    for t in YAML_TOKENS:
        print(quote(t))


if __name__ == "__main__":
    main()
