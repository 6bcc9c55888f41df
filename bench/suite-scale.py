#!/usr/bin/env python3
"""Suite scale: how time and memory grow with the number of files.

Writes --large (default 100,000) small graph files into a folder, and
times one cugraphrun call over --small (default 20,000) of them against
one over all of them, each as one suite, with the reports cugraphrun can
be asked for:

    cugraphrun -q --validate --junit=FILE --json=FILE FOLDER

(a suite's JUnit XML and JSON document hold every file's result).  The
reference for memory is the same command over one file.  Each call is
timed --rounds times (default 3, interleaved) and the median taken; the
peak resident memory of the process tree (the first process and its
waited-for workers, from wait4) is the largest of the rounds.

Targets (issue 25, item 5): time linear in the number of files, so the
large run takes at most 6x the small one (5x is linear); memory that
grows by at most 1 KiB a file, so the large run's peak is at most
large/1024 MiB (100 MB at 100,000 files) above the one-file run's.

--mode validate (the default, and the only one without a GPU) runs the
files with --validate.  --mode run leaves --validate out, for a GPU
machine: each file then also builds its graph and launches it once, the
verification launch (-n 0 -w 0); there, --rounds 1 keeps the whole under
ten minutes on an H100.

    suite-scale.py --cugraphrun PATH [--large N] [--small N] [--rounds N]
                   [--mode validate|run] [--keep DIR] [-j N]

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

GRAPH = """cugraphrun: 1
name: g{i}
buffers:
  x: {{type: i32, count: 4}}
nodes:
  - memset: {{buffer: x, value: {i}}}
checks:
  - {{buffer: x, expect: {i}}}
"""


def run(cmd):
    """Wall seconds and peak resident kB of cmd (with its waited-for children)."""
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.monotonic() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.stderr.write("suite-scale: %s: exit %d\n%s" % (" ".join(cmd), p.returncode,
                                                        err.decode(errors="replace")[-2000:]))
        sys.exit(2)
    return dt, ru.ru_maxrss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--large", type=int, default=100000)
    ap.add_argument("--small", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mode", choices=["validate", "run"], default="validate")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--keep", help="write the files to this folder (empty or absent)")
    args = ap.parse_args()

    top = args.keep or tempfile.mkdtemp(prefix="suite-scale.")
    try:
        small_dir, large_dir = os.path.join(top, "small"), os.path.join(top, "large")
        one_dir = os.path.join(top, "one")
        # the small folder holds the first files of the large one: links, not copies
        for d in (small_dir, large_dir, one_dir):
            os.makedirs(d, exist_ok=True)
        for i in range(args.large):
            name = "g%06d.yaml" % i
            p = os.path.join(large_dir, name)
            with open(p, "w") as f:
                f.write(GRAPH.format(i=i % 1000))
            if i < args.small:
                os.link(p, os.path.join(small_dir, name))
            if i == 0:
                os.link(p, os.path.join(one_dir, name))
        out = os.path.join(top, "out")
        os.makedirs(out, exist_ok=True)

        def cmd(d):
            c = [args.cugraphrun, "-q", "-j", str(args.j),
                 "--junit=" + os.path.join(out, "junit.xml"),
                 "--json=" + os.path.join(out, "suite.json")]
            c += ["--validate"] if args.mode == "validate" else ["-n", "0", "-w", "0"]
            return c + [d]

        times = {"one": [], "small": [], "large": []}
        peaks = {"one": 0, "small": 0, "large": 0}
        for _ in range(args.rounds):
            for key, d in (("one", one_dir), ("small", small_dir), ("large", large_dir)):
                dt, kb = run(cmd(d))
                times[key].append(dt)
                peaks[key] = max(peaks[key], kb)
        t = {k: statistics.median(v) for k, v in times.items()}
        ratio = t["large"] / t["small"]
        grow_mb = (peaks["large"] - peaks["one"]) / 1024
        limit_mb = args.large / 1024
        per_file = (peaks["large"] - peaks["one"]) * 1024 / args.large
        print("suite-scale: --%s, -j %d, --junit and --json, median of %d rounds"
              % (args.mode, args.j, args.rounds))
        print("  %7s files  %8.3f s  peak %8.1f MB" % (1, t["one"], peaks["one"] / 1024))
        print("  %7d files  %8.3f s  peak %8.1f MB  (%.1f us a file)"
              % (args.small, t["small"], peaks["small"] / 1024, t["small"] / args.small * 1e6))
        print("  %7d files  %8.3f s  peak %8.1f MB  (%.1f us a file)"
              % (args.large, t["large"], peaks["large"] / 1024, t["large"] / args.large * 1e6))
        ok_t = ratio <= 6
        ok_m = grow_mb <= limit_mb
        print("  time %d / %d files      %6.2fx  (target <= 6: %s)"
              % (args.large, args.small, ratio, "met" if ok_t else "MISSED"))
        print("  peak above one file      %6.1f MB (%.0f bytes a file; target <= %.1f MB: %s)"
              % (grow_mb, per_file, limit_mb, "met" if ok_m else "MISSED"))
        return 0 if ok_t and ok_m else 1
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
