#!/usr/bin/env python3
"""Source modules: whole-process wall time of a first (uncached) run, a
cached run, and the same graph from a prebuilt cubin.

Takes an example whose kernels come from a .cu module (default
examples/saxpy.yaml, module k: kernels/saxpy.cu), writes a copy of it
beside the original whose module is a cubin built from the same source
with nvcc -cubin -arch=sm_XY (or --cubin), and runs, interleaved, ROUNDS
times each:

  first    cugraphrun with an empty cache folder (NVRTC compiles, the
           entry is written)
  cached   cugraphrun with the cache filled (no NVRTC at all)
  cubin    cugraphrun on the cubin copy

each as its own process, timing fork to exit.  Prints the median of each
and the ratios; the target is cached within 5% of cubin (ratio <= 1.05).
Exit 1 when it is missed.

    nvrtc-cache.py --cugraphrun PATH [--yaml examples/saxpy.yaml]
                   [--module k] [--nvcc nvcc] [--arch sm_90] [--rounds 15]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def wall(cmd, env):
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    dt = time.monotonic() - t
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return dt, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--yaml", default="examples/saxpy.yaml")
    ap.add_argument("--module", default="k")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--cubin", help="a prebuilt cubin of the module's source")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--args", default="-q -n 20 -w 2",
                    help="cugraphrun options for every run (default: %(default)s)")
    a = ap.parse_args()

    text = open(a.yaml).read()
    m = re.search(r"^(\s+%s:\s*)(\S+\.cu)\b(.*)$" % re.escape(a.module), text, re.M)
    if not m:
        sys.exit("%s: no module '%s: FILE.cu' line" % (a.yaml, a.module))
    ydir = os.path.dirname(os.path.abspath(a.yaml))
    src = os.path.join(ydir, m.group(2))
    tmp = tempfile.mkdtemp(prefix="nvrtc-bench.")
    copy = os.path.join(ydir, ".bench-cubin-" + os.path.basename(a.yaml))
    try:
        cubin = a.cubin
        if not cubin:
            cubin = os.path.join(tmp, "module.cubin")
            subprocess.run([a.nvcc, "-cubin", "-arch=" + a.arch, "-o", cubin, src], check=True)
        with open(copy, "w") as f:
            f.write(text[:m.start(2)] + os.path.abspath(cubin) + text[m.end(2):])
        args = a.args.split()
        base = dict(os.environ)
        warm = dict(base, XDG_CACHE_HOME=os.path.join(tmp, "warm"))
        # fill the warm cache; check that its second run is a hit
        wall([a.cugraphrun] + args + [a.yaml], warm)
        _, out = wall([a.cugraphrun, "-n", "1", "-w", "0", a.yaml], warm)
        if "compile cached" not in out:
            sys.exit("the second run did not hit the cache:\n" + out)
        first, cached, cub = [], [], []
        for r in range(a.rounds):
            cold = dict(base, XDG_CACHE_HOME=os.path.join(tmp, "cold%d" % r))
            first.append(wall([a.cugraphrun] + args + [a.yaml], cold)[0])
            cached.append(wall([a.cugraphrun] + args + [a.yaml], warm)[0])
            cub.append(wall([a.cugraphrun] + args + [copy], base)[0])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if os.path.exists(copy):
            os.unlink(copy)

    f, c, b = (statistics.median(x) for x in (first, cached, cub))
    print("%s (module %s: %s), %d rounds, cugraphrun %s" %
          (a.yaml, a.module, m.group(2), a.rounds, " ".join(args)))
    for name, v, xs in (("first run (NVRTC)", f, first), ("cached run", c, cached),
                        ("cubin run", b, cub)):
        print("  %-18s median %7.1f ms  (min %.1f, max %.1f)" %
              (name, v * 1e3, min(xs) * 1e3, max(xs) * 1e3))
    print("  first / cubin  = %.3f" % (f / b))
    print("  cached / cubin = %.3f  (target <= 1.05: %s)" %
          (c / b, "met" if c / b <= 1.05 else "MISSED"))
    return 0 if c / b <= 1.05 else 1


if __name__ == "__main__":
    sys.exit(main())
