#!/usr/bin/env python3
"""Expansion: the memory a sweep takes against what its points expand to.

    expansion.py --cugraphrun PATH --sweep-eval PATH [--keep DIR]

Writes sweeps whose every point is read in full (each node's id holds the
axis) at the edge of the budget (cugraphrun(5), Axes: 1,000,000 nodes,
32,000,000 YAML events and 256 MiB of text for all points together), of
nodes of several shapes: empty nodes, a chain of kernels with two
arguments, memsets, kernels of 64 arguments, nodes with an after list of
100 names.  For each it reads the budget's counts with bench/sweep_eval
(one round) and the peak resident memory of `cugraphrun --validate` in a
fresh child, and holds the peak against the bound the man page states:
512 bytes a node, 48 a YAML event and one a byte of text, plus 16 MiB
for the program itself.  Exit status 1 when a sweep passes its bound.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

BOUND_NODE, BOUND_EVENT, BOUND_TEXT, BASE = 512, 48, 1, 16 << 20

PTX = """.version 7.0
.target sm_75
.address_size 64

.visible .entry empty_args(
\t.param .u64 empty_args_param_0,
\t.param .u32 empty_args_param_1
)
{
\tret;
}

.visible .entry args64(
%s
)
{
\tret;
}
""" % ",\n".join("\t.param .u32 args64_param_%d" % k for k in range(64))

HEAD = "cugraphrun: 1\naxes: {n: {from: 1, to: %d}}\nmodules: {k: kernels/k.ptx}\n" \
       "buffers: {x: {type: f32, count: 65536}}\n"
ARGS64 = ", ".join("{i32: %d}" % k for k in range(64))
AFTER = ", ".join("b%d" % k for k in range(100))
SWEEPS = {
    "empty": HEAD % 100 + "nodes:\n  - for: {i: {from: 1, to: 10000}}\n"
    "    nodes: [{id: \"k${i}_${n}\", empty: {}}]\n",
    "kernel": HEAD % 100 + "nodes:\n  chain: true\n  nodes:\n"
    "    - for: {i: {from: 1, to: 10000}}\n      nodes:\n        - id: \"k${i}_${n}\"\n"
    "          kernel: {function: k.empty_args, grid: 256, block: 256,\n"
    "                   args: [{buffer: x, offset: 16}, {i32: -12345}]}\n",
    "memset": HEAD % 100 + "nodes:\n  chain: true\n  nodes:\n"
    "    - for: {i: {from: 1, to: 10000}}\n      nodes:\n        - id: \"m${i}_${n}\"\n"
    "          memset: {buffer: x, value: 1, offset: 16, count: 4}\n",
    "args64": HEAD % 10 + "nodes:\n  - for: {i: {from: 1, to: 11000}}\n    nodes:\n"
    "      - id: \"k${i}_${n}\"\n        kernel: {function: k.args64, args: [%s]}\n" % ARGS64,
    "after100": HEAD % 100 + "nodes:\n" +
    "".join("  - {id: b%d, empty: {}}\n" % k for k in range(100)) +
    "  - for: {i: {from: 1, to: 2800}}\n    nodes:\n"
    "      - {id: \"k${i}_${n}\", empty: {}, after: [%s]}\n" % AFTER,
}

PEAK_CHILD = """
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--sweep-eval", required=True)
    ap.add_argument("--keep", help="write the sweeps to this folder and leave them")
    args = ap.parse_args()
    top = args.keep or tempfile.mkdtemp(prefix="expansion.")
    os.makedirs(os.path.join(top, "kernels"), exist_ok=True)
    with open(os.path.join(top, "kernels", "k.ptx"), "w") as f:
        f.write(PTX)
    ok = True
    try:
        print("%-9s %9s %11s %11s %9s %9s %6s" % ("sweep", "nodes", "events", "text",
                                                 "peak MB", "bound MB", "share"))
        for name, text in SWEEPS.items():
            path = os.path.join(top, name + ".yaml")
            with open(path, "w") as f:
                f.write(text)
            out = subprocess.run([args.sweep_eval, path, "1"], capture_output=True, text=True)
            m = re.search(r"expanded to (\d+) nodes, (\d+) YAML events, (\d+) bytes", out.stdout)
            if out.returncode != 0 or not m:
                sys.stderr.write("expansion: %s: %s%s" % (name, out.stdout, out.stderr))
                return 2
            nodes, events, tbytes = (int(g) for g in m.groups())
            p = subprocess.run([sys.executable, "-c", PEAK_CHILD, args.cugraphrun, "--validate",
                                path], capture_output=True, text=True)
            rc, kb = (int(x) for x in p.stdout.split())
            if rc != 0:
                sys.stderr.write("expansion: %s: cugraphrun exit %d\n" % (name, rc))
                return 2
            peak = kb * 1024
            bound = BOUND_NODE * nodes + BOUND_EVENT * events + BOUND_TEXT * tbytes + BASE
            ok = ok and peak <= bound
            print("%-9s %9d %11d %11d %9.1f %9.1f %5.0f%%" % (name, nodes, events, tbytes,
                                                           peak / 1e6, bound / 1e6,
                                                           100.0 * peak / bound))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
