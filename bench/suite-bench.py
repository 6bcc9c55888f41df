#!/usr/bin/env python3
"""Suite benchmark: many graph files in one cugraphrun call (cugraphrun(1) SUITES).

Mode "files" (default): generates 100 small graphs (a memset, two kernels
and a copy, one check each), then times

  - one file as its own process (the median of 3),
  - the 100 files as 100 separate cugraphrun calls, one after another,
  - the 100 files as one cugraphrun call (one worker, one driver start),

all with -n 10, and prints the per-further-file cost of the one call,
(one call - one file's process) / 99, which must be at most 5 ms, and the
ratio of 100 calls to one.

Mode "gpus": 200 files whose launches keep a GPU busy for about 50 ms in
all (a spinning kernel, the verification launch and 4 timed ones), as one
call on GPU 0 against one call on GPUs 0 and 1 (--devices); the two-GPU
time must be at most 0.6 times the one-GPU time.  Needs two GPUs.

    suite-bench.py --cugraphrun PATH --ptx kernels/tk.ptx [--mode files|gpus]
                   [--files N] [--keep DIR]

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

SMALL = """cugraphrun: 1
name: small-{i}
modules:
  tk: {ptx}
buffers:
  x: {{type: i32, count: 256}}
  y: {{type: i32, count: 256}}
nodes:
  chain: true
  nodes:
    - memset: {{buffer: x, value: {i}}}
    - kernel: {{function: tk.add_n, grid: 1, block: 256, args: [x, {{i32: 256}}, {{i32: 1}}]}}
    - kernel: {{function: tk.fill, grid: 1, block: 256, args: [y, {{i32: 128}}, {{i32: 5}}]}}
    - copy: {{from: x, to: {{buffer: y, offset: 128}}, count: 128}}
checks:
  - {{buffer: x, expect: {j}}}
"""

BUSY = """cugraphrun: 1
name: busy-{i}
modules:
  tk: {ptx}
nodes:
  - kernel: {{function: tk.spin, args: [{{u64: {ns}}}]}}
"""


def wall(cmd):
    t = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.monotonic() - t
    if r.returncode != 0:
        sys.stderr.write("suite-bench: %s: exit %d\n%s" % (" ".join(cmd[:6]), r.returncode,
                                                        r.stderr[-2000:]))
        sys.exit(2)
    return dt


def mode_files(args, d):
    files = []
    for i in range(args.files):
        p = os.path.join(d, "small-%03d.yaml" % i)
        with open(p, "w") as f:
            f.write(SMALL.format(i=i, j=i + 1, ptx=os.path.abspath(args.ptx)))
        files.append(p)
    c = [args.cugraphrun, "-q", "-n", "10"]
    wall(c + [files[0]])                       # a warm JIT cache for every timing
    single = statistics.median(wall(c + [files[0]]) for _ in range(3))
    separate = sum(wall(c + [f]) for f in files)
    one = statistics.median(wall(c + [d]) for _ in range(3))
    n = len(files)
    per = (one - single) / (n - 1)
    print("suite-bench: %d small graph files, -n 10, one GPU" % n)
    print("  one file, its own process     %8.3f s" % single)
    print("  %d separate calls            %8.3f s  (%.1f ms each)" % (n, separate,
                                                                     separate / n * 1e3))
    print("  one call with %d files       %8.3f s" % (n, one))
    print("  per further file in one call  %8.2f ms  (target <= 5 ms: %s)" % (
        per * 1e3, "met" if per <= 5e-3 else "MISSED"))
    print("  separate / one call           %8.1fx" % (separate / one))
    return per <= 5e-3


def mode_gpus(args, d):
    n = args.files if args.files != 100 else 200
    launches = 1 + 4                           # verification + -n 4, no warm-up
    ns = int(50e6 / launches)
    for i in range(n):
        with open(os.path.join(d, "busy-%03d.yaml" % i), "w") as f:
            f.write(BUSY.format(i=i, ptx=os.path.abspath(args.ptx), ns=ns))
    c = [args.cugraphrun, "-q", "-n", "4", "-w", "0"]
    one = wall(c + ["--devices=0", d])
    two = wall(c + ["--devices=0,1", d])
    print("suite-bench: %d files of about 50 ms of GPU work each" % n)
    print("  one GPU   (--devices=0)       %8.3f s" % one)
    print("  two GPUs  (--devices=0,1)     %8.3f s" % two)
    print("  two / one                     %8.2f  (target <= 0.6: %s)" % (
        two / one, "met" if two / one <= 0.6 else "MISSED"))
    return two / one <= 0.6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--ptx", required=True, help="tests/gpu/kernels/tk.cu as PTX")
    ap.add_argument("--mode", choices=["files", "gpus"], default="files")
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--keep", help="write the graphs here and keep them")
    args = ap.parse_args()
    d = args.keep or tempfile.mkdtemp(prefix="suite-bench.")
    os.makedirs(d, exist_ok=True)
    try:
        ok = mode_files(args, d) if args.mode == "files" else mode_gpus(args, d)
    finally:
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
