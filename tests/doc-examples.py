#!/usr/bin/env python3
"""doc-examples.py TOP CUGRAPHRUN: every example in the manual and the README
is a file, or is extracted and run (the way jq tests its manual).

Each literal block of man/cugraphrun.1 and man/cugraphrun.5 (.Bd -literal)
and each fenced block of README.md carries a marker just above it that says
what it is, and what is checked:

  man:     .\\" example: KIND [ARG]      (then, for a fragment, .\\" | LINE ...)
  README:  <!-- example: KIND [ARG] -->  (or with | LINE ... lines before -->)

  file PATH    the block is the whole of PATH (an example in examples/)
  part PATH    the block's lines stand in PATH, one after the other
  yaml         the block is a whole graph file: cugraphrun --validate accepts
               it, run beside examples/ (kernels/, cuda/ and data/ resolve)
  fragment     a part of a graph file: the | lines are the rest of the file,
               the line '@' where the block goes (at its indentation); the
               whole is validated as for yaml
  shell        command lines: every cugraphrun in them takes only options of
               --help, names only example files that exist, and when it only
               validates or describes files that exist, it is run and must
               succeed
  output       what a program prints; with ARG, a YAML file: cugraphrun
               --validate ARG (run in its folder) must print exactly the
               block's lines that do not start with '$ '
  keys DEF     a list of JSON report keys: each key listed is one of the
               schema's (schemas/report.schema.json), and each property of
               its $defs/DEF is listed
  synopsis     the form of a construct, its parts in capitals: no file

An unmarked block fails: a new example is a test from the start.  Examples
that load kernel files make has not built (no nvcc) are skipped, saying so.
Prints ok/FAIL/skip lines and a summary; exit 0, or 1 on any failure.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

top, prog = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
passes = fails = skips = 0


def ok(what):
    global passes
    passes += 1
    print("ok: " + what)


def fail(what):
    global fails
    fails += 1
    print("FAIL: " + what)


def skip(what):
    global skips
    skips += 1
    print("skip: " + what)


MAN_ESCAPES = {"e": "\\", "&": "", "-": "-", "(dq": '"', "(aq": "'", "(ga": "`",
               "(ti": "~", "(ha": "^"}


def unescape(line):
    """A line of an mdoc literal block as it reads; None for an unknown escape."""
    out, i = [], 0
    while i < len(line):
        c = line[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        for esc, text in MAN_ESCAPES.items():
            if line.startswith(esc, i + 1):
                out.append(text)
                i += 1 + len(esc)
                break
        else:
            return None
    return "".join(out)


def dedent(lines):
    ind = min((len(l) - len(l.lstrip(" ")) for l in lines if l.strip()), default=0)
    return [l[ind:] for l in lines]


def man_blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith(".Bd -literal"):
            i += 1
            continue
        start = i
        j = i - 1
        marks = []
        while j >= 0 and lines[j].startswith('.\\" '):
            marks.insert(0, lines[j][4:])
            j -= 1
        body = []
        i += 1
        while i < len(lines) and lines[i] != ".Ed":
            body.append(lines[i])
            i += 1
        text = [unescape(l) for l in body]
        where = "%s:%d" % (os.path.relpath(path, top), start + 1)
        if any(t is None for t in text):
            fail("%s: an escape this test cannot read" % where)
            continue
        yield where, marks, text


def readme_blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        marks = []
        j = i - 1
        if j >= 0 and lines[j].startswith("<!-- example:") and lines[j].endswith("-->"):
            marks = [lines[j][5:-3].strip()]
        elif j >= 0 and lines[j] == "-->":
            k = j - 1
            while k >= 0 and not lines[k].startswith("<!-- example:"):
                k -= 1
            if k >= 0:
                marks = [lines[k][5:].strip()] + lines[k + 1:j]
        body = []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        yield "%s:%d" % (os.path.relpath(path, top), start + 1), marks, body


def option_names():
    out = subprocess.run([prog, "--help"], stdout=subprocess.PIPE, text=True).stdout
    longs = set(re.findall(r"--([a-z][a-z-]*)", out))
    shorts = set(re.findall(r"(?:^|\s)-([A-Za-z]),", out))
    return longs, shorts


LONGS, SHORTS = option_names()
TMP = tempfile.mkdtemp(prefix="doc-examples.")
EX = os.path.join(TMP, "ex")
os.mkdir(EX)
for d in ("kernels", "cuda", "data"):
    os.symlink(os.path.join(top, "examples", d), os.path.join(EX, d))


def missing_kernels(text):
    names = set(re.findall(r"kernels/[A-Za-z0-9_.-]+\.(?:ptx|cubin|fatbin)", text))
    return sorted(n for n in names if not os.path.exists(os.path.join(top, "examples", n)))


def validate(where, text):
    gone = missing_kernels(text)
    if gone:
        skip("%s: kernel file(s) not built: %s (nvcc needed)" % (where, " ".join(gone)))
        return
    path = os.path.join(EX, "doc.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    p = subprocess.run([prog, "--validate", "doc.yaml"], cwd=EX, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode == 0 and not p.stderr:
        ok("%s: validates" % where)
    else:
        fail("%s: cugraphrun --validate exits %d:\n%s\n  --- the file:\n%s" % (
            where, p.returncode, p.stderr.rstrip(), text.rstrip()))


def check_file(where, path, block, whole):
    full = os.path.join(top, path)
    if not os.path.exists(full):
        fail("%s: no %s" % (where, path))
        return
    flines = open(full, encoding="utf-8").read().rstrip("\n").split("\n")
    want = dedent(block)
    while want and not want[-1].strip():
        want.pop()
    if whole:
        if want == flines:
            ok("%s: is %s" % (where, path))
        else:
            fail("%s: differs from %s" % (where, path))
        return
    n = len(want)
    for s in range(len(flines) - n + 1):
        first = flines[s]
        ind = first[:len(first) - len(first.lstrip(" "))] if want[0].strip() else ""
        if all((w.strip() == "" and f.strip() == "") or f == ind + w
               for w, f in zip(want, flines[s:s + n])):
            ok("%s: stands in %s" % (where, path))
            return
    fail("%s: its lines do not stand in %s" % (where, path))


def check_fragment(where, wrapper, block):
    body = dedent(block)
    out = []
    found = False
    for w in wrapper:
        if not w.startswith("|"):
            fail("%s: fragment line without '|': %s" % (where, w))
            return
        w = w[2:] if w.startswith("| ") else w[1:]
        if w.strip() == "@":
            # the wrapper's lines keep their own indentation; '@' gives the block's
            ind = w[:len(w) - len(w.lstrip(" "))]
            out += [(ind + l) if l.strip() else "" for l in body]
            found = True
        else:
            out.append(w)
    if not found:
        fail("%s: fragment without an '@' line" % where)
        return
    validate(where, "\n".join(out) + "\n")


def cugraphrun_commands(lines):
    """The cugraphrun commands in shell lines, each as its words."""
    joined, cur = [], ""
    for l in lines:
        l = l.rstrip()
        if l.startswith("$ "):
            l = l[2:]
        if l.endswith("\\"):
            cur += l[:-1] + " "
            continue
        joined.append(cur + l)
        cur = ""
    if cur:
        joined.append(cur)
    for l in joined:
        m = re.search(r"(?:^|[\s;&|(])((?:build/)?cugraphrun)\s", l)
        if not m:
            continue
        cmd = l[m.start(1):]
        cmd = re.split(r"\s(?:\||>|;|&&)\s?|\s>\S", cmd)[0]
        try:
            yield shlex.split(cmd)
        except ValueError:
            yield None


def check_shell(where, block):
    n = 0
    for words in cugraphrun_commands(block):
        n += 1
        if words is None:
            fail("%s: a command this test cannot split" % where)
            continue
        bad, files = [], []
        args = words[1:]
        i = 0
        while i < len(args):
            a = args[i]
            if a.startswith("--"):
                name = a[2:].split("=")[0]
                if name not in LONGS:
                    bad.append(a)
            elif a.startswith("-") and len(a) > 1:
                for c in a[1:]:
                    if c not in SHORTS:
                        bad.append("-" + c)
                if a[-1] in "njd" and a[1:].isalpha():
                    i += 1          # its value
            else:
                files.append(a)
            i += 1
        if bad:
            fail("%s: %s: options not in --help: %s" % (where, " ".join(words), " ".join(bad)))
            continue
        gone = [f for f in files if f.startswith("examples/") and
                not os.path.exists(os.path.join(top, f))]
        if gone:
            fail("%s: %s: no %s" % (where, " ".join(words), " ".join(gone)))
            continue
        front_end = any(a == "--validate" or a == "--describe=-" for a in args) and \
            all(os.path.exists(os.path.join(top, f)) for f in files) and files
        if front_end:
            if any(missing_kernels(open(os.path.join(top, f)).read()) for f in files):
                skip("%s: %s: kernel files not built" % (where, " ".join(words)))
                continue
            p = subprocess.run([prog] + args, cwd=top, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                fail("%s: %s exits %d: %s" % (where, " ".join(words), p.returncode,
                                              p.stderr.strip()))
                continue
            ok("%s: %s runs" % (where, " ".join(words)))
        else:
            ok("%s: %s takes known options" % (where, " ".join(words)))
    if n == 0:
        ok("%s: shell, no cugraphrun in it" % where)


def check_output(where, arg, block):
    if not arg:
        ok("%s: output, shown as an illustration" % where)
        return
    path = os.path.join(top, arg)
    gone = [k for k in re.findall(r"[A-Za-z0-9_./-]+\.(?:ptx|cubin|fatbin)", open(path).read())
            if not os.path.exists(os.path.join(os.path.dirname(path), k))]
    if gone:
        skip("%s: kernel file(s) not built: %s (nvcc needed)" % (where, " ".join(gone)))
        return
    p = subprocess.run([prog, "--validate", os.path.basename(path)], cwd=os.path.dirname(path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    want = [l for l in block if not l.startswith("$ ")]
    got = p.stderr.rstrip("\n").split("\n")
    if got == want:
        ok("%s: is what cugraphrun --validate %s prints" % (where, arg))
    else:
        fail("%s: cugraphrun --validate %s prints:\n%s" % (where, arg, p.stderr))


def schema_properties():
    s = json.load(open(os.path.join(top, "schemas", "report.schema.json")))
    names = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.get("properties", {}).items():
                names.add(k)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(s)
    return s, names


SCHEMA, PROPS = schema_properties()


def check_keys(where, defname, block):
    listed = set()
    for l in block:
        # a key starts a line indented a little; its explanation's lines are indented more
        m = re.match(r"( *)([a-z_]+(?:, [a-z_]+)*)(?: |$)", l)
        if m and len(m.group(1)) < 10:
            listed.update(m.group(2).split(", "))
    unknown = sorted(k for k in listed if k not in PROPS)
    d = SCHEMA["$defs"].get(defname)
    if d is None:
        fail("%s: no $defs/%s in the schema" % (where, defname))
        return
    left_out = sorted(k for k in d["properties"] if k not in listed)
    if unknown or left_out:
        fail("%s: keys not in the schema: %s; keys of $defs/%s not listed: %s" % (
            where, unknown, defname, left_out))
    else:
        ok("%s: the keys of $defs/%s" % (where, defname))


def check(where, marks, block):
    # other comments may stand in the group above the block: the marker is one of them
    at = next((i for i, m in enumerate(marks) if m.startswith("example:")), None)
    if at is not None:
        marks = marks[at:]
    if not marks or not marks[0].startswith("example:"):
        fail("%s: a block with no '.\\\" example:' (or <!-- example: -->) marker above it"
             % where)
        return
    words = marks[0][len("example:"):].split()
    kind, arg = (words + [""])[0], " ".join(words[1:])
    if kind == "file":
        check_file(where, arg, block, True)
    elif kind == "part":
        check_file(where, arg, block, False)
    elif kind == "yaml":
        validate(where, "\n".join(dedent(block)) + "\n")
    elif kind == "fragment":
        check_fragment(where, marks[1:], block)
    elif kind == "shell":
        check_shell(where, block)
    elif kind == "output":
        check_output(where, arg, block)
    elif kind == "keys":
        check_keys(where, arg, block)
    elif kind == "synopsis":
        ok("%s: synopsis, the form of a construct" % where)
    else:
        fail("%s: unknown example kind '%s'" % (where, kind))


for page in ("man/cugraphrun.1", "man/cugraphrun.5"):
    for where, marks, block in man_blocks(os.path.join(top, page)):
        check(where, marks, block)
for where, marks, block in readme_blocks(os.path.join(top, "README.md")):
    check(where, marks, block)

subprocess.run(["rm", "-rf", TMP])
print("doc examples: %d passed, %d failed, %d skipped" % (passes, fails, skips))
sys.exit(1 if fails else 0)
