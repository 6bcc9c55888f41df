#!/usr/bin/env python3
"""Does a slow or fast mode of a graph's launches last a process, or an
allocation (fresh buffers and a fresh instantiation inside one process)?

For each example below: P fresh processes (cugraphrun FILE, one each, the
files interleaved), and one suite process that runs P hard-linked copies
of the file (each copy loaded, allocated, built and instantiated afresh,
in the one driver context of the suite's worker).  It prints each way's
per-run medians and their range, and the medians of five chunks of the
first processes' launches (does a mode settle within a run?).  When the
allocations of one process spread as widely as processes do, a fresh
allocation removes the mode; when they spread less, the mode lasts the
process, and only a fresh process samples it.  Run from the GPU bundle:

    export LD_LIBRARY_PATH=$PWD/.gpu/lib
    python3 .gpu/bench/mode-lifetime.py .gpu OUT_DIR [P]
"""
import json
import os
import statistics as st
import subprocess
import sys

D, OUT = sys.argv[1], sys.argv[2]
P = int(sys.argv[3]) if len(sys.argv) > 3 else 10
C = os.path.join(D, "bin/cugraphrun")
EX = os.path.join(D, "examples")
FILES = [f for f in ["stencil", "while-countdown", "kernel-args", "saxpy", "switch",
                     "cooperative", "if-else"] if os.path.exists(os.path.join(EX, f + ".yaml"))]
ARGS = ["-q", "-w", "20", "-n", "200"]


def median_of(rep):
    s = sorted((rep.get("launch") or {}).get("samples_s") or [])
    return st.median(s) * 1e6 if s else None


res = {f: {"proc": [], "alloc": [], "chunks": []} for f in FILES}
for i in range(P):               # interleaved: every file once per round
    for f in FILES:
        out = os.path.join(OUT, "m.json")
        subprocess.run([C] + ARGS + ["--json=" + out, os.path.join(EX, f + ".yaml")],
                       capture_output=True)
        rep = json.load(open(out))
        res[f]["proc"].append(median_of(rep))
        s = (rep.get("launch") or {}).get("samples_s") or []
        k = len(s) // 5
        res[f]["chunks"].append([round(st.median(s[j * k:(j + 1) * k]) * 1e6, 2)
                                 for j in range(5)] if k else [])
for f in FILES:
    links = []
    for i in range(P):
        p = os.path.join(EX, "%s.cp%d.yaml" % (f, i))
        if not os.path.exists(p):
            os.link(os.path.join(EX, f + ".yaml"), p)
        links.append(p)
    out = os.path.join(OUT, "s.json")
    subprocess.run([C] + ARGS + ["-j", "1", "--json=" + out] + links, capture_output=True)
    doc = json.load(open(out))
    res[f]["alloc"] = [median_of(x["report"]) for x in doc["files"] if x.get("report")]
    for p in links:
        os.unlink(p)
json.dump(res, open(os.path.join(OUT, "mode-lifetime.json"), "w"))


def spread(v):
    v = [x for x in v if x]
    if not v:
        return "none"
    return "%.2f-%.2f us (%.1f%%)" % (min(v), max(v), 100 * (max(v) - min(v)) / min(v))


for f in FILES:
    print(f)
    print("  processes   ", spread(res[f]["proc"]))
    print("  allocations ", spread(res[f]["alloc"]))
    print("  chunks of the first processes", res[f]["chunks"][:3])
