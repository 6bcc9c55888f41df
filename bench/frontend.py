#!/usr/bin/env python3
"""Front-end benchmark: `cugraphrun --validate` against a bare libyaml scan.

    frontend.py --cugraphrun PATH --scan PATH --gen PATH [--runs N]

Generates chains of 10,000 and 100,000 empty kernels with examples/gen-chain.py
in a temporary directory (beside a stand-in kernels/empty.ptx, so that the
module check passes), then times, in the same run and interleaved, the best
wall-clock time of several runs of

    yaml_scan FILE                 libyaml's event parser and nothing else
    cugraphrun --validate FILE     load, validate, free

and measures the peak resident memory of one `cugraphrun --validate` run in
a fresh child.  It prints a table with the ratio of the two times; the
target (issue 2) is a ratio of at most 1.3 and a peak under 64 MB at
100,000 nodes.  Exit status 1 when the target is missed or a run fails.
`make bench-frontend` runs it on the build tree.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

SIZES = (10000, 100000)
TARGET_NODES = 100000
MAX_RATIO = 1.3
MAX_PEAK_MB = 64.0

# Enough of a PTX file for --validate, which never loads it.
STAND_IN_PTX = """// stand-in for examples/kernels/empty.ptx: bench/frontend.py only validates
.version 7.0
.target sm_75
.address_size 64

.visible .entry empty()
{
	ret;
}
"""

# Run a command in a fresh interpreter and print its peak RSS in KiB: the
# RUSAGE_CHILDREN maximum then covers that one command and nothing else.
PEAK_CHILD = """
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def run_once(cmd):
    """Wall-clock seconds of one run; raises when the command fails."""
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError("%s exited with %d: %s" % (" ".join(cmd), r.returncode,
                                                      r.stderr.decode(errors="replace").strip()))
    return t


def peak_mb(cmd):
    out = subprocess.run([sys.executable, "-c", PEAK_CHILD] + cmd,
                         check=True, capture_output=True, text=True).stdout.split()
    if int(out[0]) != 0:
        raise RuntimeError("%s exited with %s" % (" ".join(cmd), out[0]))
    return int(out[1]) / 1024.0


def generate(gen, n, directory):
    path = os.path.join(directory, "chain-%d.yaml" % n)
    with open(path, "w") as f:
        subprocess.run([sys.executable, gen, str(n)], stdout=f, check=True)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cugraphrun", required=True, help="the cugraphrun program")
    ap.add_argument("--scan", required=True, help="bench/yaml_scan")
    ap.add_argument("--gen", required=True, help="examples/gen-chain.py")
    ap.add_argument("--runs", type=int, default=7, help="runs of each program (best is kept)")
    args = ap.parse_args()
    cugraphrun = os.path.abspath(args.cugraphrun)
    scan = os.path.abspath(args.scan)

    failed = []
    rows = []
    with tempfile.TemporaryDirectory(prefix="cugraphrun-bench-") as tmp:
        os.mkdir(os.path.join(tmp, "kernels"))
        with open(os.path.join(tmp, "kernels", "empty.ptx"), "w") as f:
            f.write(STAND_IN_PTX)
        for n in SIZES:
            path = generate(args.gen, n, tmp)
            scan_cmd = [scan, path]
            validate_cmd = [cugraphrun, "--validate", path]
            try:
                # Warm the page cache and the programs, then interleave the
                # runs so that drift on the machine hits both alike.
                run_once(scan_cmd)
                run_once(validate_cmd)
                scan_t = validate_t = float("inf")
                for _ in range(args.runs):
                    scan_t = min(scan_t, run_once(scan_cmd))
                    validate_t = min(validate_t, run_once(validate_cmd))
                peak = peak_mb(validate_cmd)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print("frontend.py: %d nodes: %s" % (n, e), file=sys.stderr)
                failed.append("%d nodes: run failed" % n)
                continue
            rows.append((n, os.path.getsize(path), scan_t, validate_t, peak))

    print("front end: cugraphrun --validate against libyaml's event parser alone "
          "(best of %d runs, wall clock)" % args.runs)
    print("%8s %10s %9s %12s %7s %8s %9s  %s"
          % ("nodes", "file", "scan ms", "validate ms", "ratio", "peak MB", "us/node", "verdict"))
    for n, size, scan_t, validate_t, peak in rows:
        ratio = validate_t / scan_t
        verdict = ""
        if n == TARGET_NODES:
            misses = []
            if ratio > MAX_RATIO:
                misses.append("ratio > %.1f" % MAX_RATIO)
            if peak >= MAX_PEAK_MB:
                misses.append("peak >= %d MB" % MAX_PEAK_MB)
            verdict = "FAIL (%s)" % ", ".join(misses) if misses else "PASS"
            failed.extend(misses)
        print("%8d %8.1f MB %9.1f %12.1f %7.2f %8.1f %9.3f  %s"
              % (n, size / 1e6, scan_t * 1e3, validate_t * 1e3, ratio, peak,
                 validate_t * 1e6 / n, verdict))
    print("target at %d nodes: ratio <= %.1f, peak < %d MB: %s"
          % (TARGET_NODES, MAX_RATIO, MAX_PEAK_MB, "FAIL" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
