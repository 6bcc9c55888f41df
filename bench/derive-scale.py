#!/usr/bin/env python3
"""Derive scale: a sweep's later points against its first, as nodes grow.

Writes a chain of --nodes (default 64,000) memsets whose value is an
axis, v, in two forms:

    listed     the memsets written one by one
    generator  the same chain from one generator ({for: ..., nodes: [...]})

each as a sweep of --points (default 4) values of v and as one of a single
value, and times `cugraphrun --validate` on all four files, interleaved,
--rounds times (default 3), keeping the median.  The first point is read
and validated in full; every later one changes the value of every memset,
so it is derived from the first (model_derive.h) and validated again in
what changed: all the memsets.  That costs about what the first point
costs, so the sweep should take about --points times one point.

Target (issue 31, item 4): for both forms, the sweep at most 6x the
one-point file.  (Before: 19x listed, 165x with a generator, at 64,000
memsets: deriving a point searched its nodes linearly.)

    derive-scale.py --cugraphrun PATH [--nodes N] [--points K] [--rounds R]
                    [--keep DIR]

--keep DIR writes the four files there and leaves them (to time them by
hand, or to profile); the files alone, without timing, with --write-only.
Exit status 1 when a target is missed, 2 when a run fails.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HEAD = """cugraphrun: 1
name: derive-scale-{form}-{points}
description: {nodes} chained memsets whose value is the axis v (bench/derive-scale.py)
axes:
  v: [{values}]
buffers:
  b: {{type: u32, count: 1024}}
nodes:
  chain: true
  nodes:
"""
NODE = '    - memset: {buffer: b, value: "${v}"}\n'
GENERATOR = """    - for: {{i: {{from: 1, to: {nodes}}}}}
      nodes:
        - memset: {{buffer: b, value: "${{v}}"}}
"""
TARGET = 6.0


def write(path, form, nodes, points):
    values = ", ".join(str(k + 1) for k in range(points))
    with open(path, "w") as f:
        f.write(HEAD.format(form=form, points=points, nodes=nodes, values=values))
        if form == "listed":
            f.write(NODE * nodes)
        else:
            f.write(GENERATOR.format(nodes=nodes))


def run(cugraphrun, path):
    t = time.monotonic()
    p = subprocess.run([cugraphrun, "--validate", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    dt = time.monotonic() - t
    if p.returncode != 0:
        sys.stderr.write("derive-scale: %s: exit %d\n%s" % (
            path, p.returncode, p.stderr.decode(errors="replace")[-2000:]))
        sys.exit(2)
    return dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cugraphrun")
    ap.add_argument("--nodes", type=int, default=64000)
    ap.add_argument("--points", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--keep", help="write the files to this folder (made if absent)")
    ap.add_argument("--write-only", action="store_true", help="write the files, time nothing")
    args = ap.parse_args()
    if not args.write_only and not args.cugraphrun:
        ap.error("--cugraphrun is needed to time the files")
    if args.write_only and not args.keep:
        ap.error("--write-only needs --keep DIR")

    top = args.keep or tempfile.mkdtemp(prefix="derive-scale.")
    os.makedirs(top, exist_ok=True)
    try:
        files = {}
        for form in ("listed", "generator"):
            for points in (1, args.points):
                path = os.path.join(top, "%s-%d.yaml" % (form, points))
                write(path, form, args.nodes, points)
                files[form, points] = path
        if args.write_only:
            for path in files.values():
                print(path)
            return 0
        times = {k: [] for k in files}
        for _ in range(args.rounds):
            for k, path in files.items():
                times[k].append(run(args.cugraphrun, path))
        print("derive-scale: %d chained memsets, cugraphrun --validate, median of %d rounds"
              % (args.nodes, args.rounds))
        ok = True
        for form in ("listed", "generator"):
            one = statistics.median(times[form, 1])
            many = statistics.median(times[form, args.points])
            ratio = many / one
            met = ratio <= TARGET
            ok = ok and met
            print("  %-9s  1 point %7.3f s  %d points %7.3f s  %6.2fx  (target <= %g: %s)"
                  % (form, one, args.points, many, ratio, TARGET, "met" if met else "MISSED"))
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
