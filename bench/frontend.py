#!/usr/bin/env python3
"""Front-end benchmark: `cugraphrun --validate` against a bare libyaml scan.

    frontend.py --cugraphrun PATH --scan PATH --gen PATH [--runs N]

Generates chains of 10,000, 100,000 and 1,000,000 kernels with
examples/gen-chain.py, without arguments, with two each (--args), and with
two each, an id on every node and an after: naming the one before
(--ids --args, in place of chain: true), in a temporary directory (beside
a stand-in kernels/empty.ptx, so that the module check passes), then
times, in the same run and interleaved, the best wall-clock time of
several runs of

    yaml_scan FILE                 libyaml's event parser and nothing else
    cugraphrun --validate FILE     load, validate, free

and measures the peak resident memory of one `cugraphrun --validate` run in
a fresh child.  It prints a table with the ratio of the two times; the
targets at 100,000 nodes are a ratio of at most 1.3 and a peak under 64 MB
for the plain chain (issue 2), at most 1.2 and under 64 MB for the chain
with arguments (issue 10), at most 1.25 and under 48 MB for the chain with
ids and afters (issue 15).  The 1,000,000-node files show that time and
memory grow linearly; they run fewer times (--big-runs), each bounded to
--limit seconds and 2 GiB of address space.  Exit status 1 when a target
is missed or a run fails.  `make bench-frontend` runs it on the build tree.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

SIZES = (10000, 100000, 1000000)
TARGET_NODES = 100000
# per shape: the gen-chain.py flags, the target ratio and the peak memory
# (MB, a bound not reached) at TARGET_NODES
SHAPES = (("chain", [], 1.3, 64.0), ("args", ["--args"], 1.2, 64.0),
          ("ids", ["--ids", "--args"], 1.25, 48.0))
BIG = 1000000
AS_LIMIT = 2 << 30

# Enough of a PTX file for --validate, which never loads it.
STAND_IN_PTX = """// stand-in for examples/kernels/empty.ptx: bench/frontend.py only validates
.version 7.0
.target sm_75
.address_size 64

.visible .entry empty()
{
	ret;
}

.visible .entry empty_args(
	.param .u64 empty_args_param_0,
	.param .u32 empty_args_param_1
)
{
	ret;
}
"""

# Run a command in a fresh interpreter and print its peak RSS in KiB: the
# RUSAGE_CHILDREN maximum then covers that one command and nothing else.
PEAK_CHILD = """
import resource, subprocess, sys
lim = int(sys.argv[1])
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (lim, lim)))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""

LIMIT_S = 120


def limit_as():
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_once(cmd):
    """Wall-clock and CPU (user + system) seconds of one run; raises when the
    command fails.  Runs are one at a time, so the children's CPU time grows
    by this one's alone."""
    c0 = children_cpu()
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=LIMIT_S, preexec_fn=limit_as)
    t = time.perf_counter() - t0
    cpu = children_cpu() - c0
    if r.returncode != 0:
        raise RuntimeError("%s exited with %d: %s" % (" ".join(cmd), r.returncode,
                                                      r.stderr.decode(errors="replace").strip()))
    return t, cpu


def peak_mb(cmd):
    out = subprocess.run([sys.executable, "-c", PEAK_CHILD, str(AS_LIMIT)] + cmd,
                         check=True, capture_output=True, text=True,
                         timeout=LIMIT_S).stdout.split()
    if int(out[0]) != 0:
        raise RuntimeError("%s exited with %s" % (" ".join(cmd), out[0]))
    return int(out[1]) / 1024.0


def generate(gen, n, directory, shape, flags):
    path = os.path.join(directory, "%s-%d.yaml" % (shape, n))
    with open(path, "w") as f:
        subprocess.run([sys.executable, gen, str(n)] + flags, stdout=f, check=True)
    return path


def main():
    global LIMIT_S
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cugraphrun", required=True, help="the cugraphrun program")
    ap.add_argument("--scan", required=True, help="bench/yaml_scan")
    ap.add_argument("--gen", required=True, help="examples/gen-chain.py")
    ap.add_argument("--runs", type=int, default=31, help="runs of each program (best is kept)")
    ap.add_argument("--big-runs", type=int, default=3,
                    help="runs at 1,000,000 nodes (best is kept)")
    ap.add_argument("--limit", type=int, default=120,
                    help="seconds allowed to one run (default 120)")
    ap.add_argument("--sizes", default=",".join(str(n) for n in SIZES),
                    help="node counts, comma-separated")
    args = ap.parse_args()
    LIMIT_S = args.limit
    cugraphrun = os.path.abspath(args.cugraphrun)
    scan = os.path.abspath(args.scan)
    sizes = [int(x) for x in args.sizes.split(",")]

    failed = []
    rows = []
    with tempfile.TemporaryDirectory(prefix="cugraphrun-bench-") as tmp:
        os.mkdir(os.path.join(tmp, "kernels"))
        with open(os.path.join(tmp, "kernels", "empty.ptx"), "w") as f:
            f.write(STAND_IN_PTX)
        for shape, flags, _, _ in SHAPES:
            for n in sizes:
                path = generate(args.gen, n, tmp, shape, flags)
                size = os.path.getsize(path)
                scan_cmd = [scan, path]
                validate_cmd = [cugraphrun, "--validate", path]
                runs = args.big_runs if n >= BIG else args.runs
                try:
                    # Warm the page cache and the programs, then interleave the
                    # runs so that drift on the machine hits both alike.
                    run_once(scan_cmd)
                    run_once(validate_cmd)
                    scan_t = validate_t = scan_c = validate_c = float("inf")
                    for _ in range(runs):
                        t, c = run_once(scan_cmd)
                        scan_t, scan_c = min(scan_t, t), min(scan_c, c)
                        t, c = run_once(validate_cmd)
                        validate_t, validate_c = min(validate_t, t), min(validate_c, c)
                    peak = peak_mb(validate_cmd)
                except (RuntimeError, subprocess.CalledProcessError,
                        subprocess.TimeoutExpired) as e:
                    print("frontend.py: %s %d nodes: %s" % (shape, n, e), file=sys.stderr)
                    failed.append("%s %d nodes: run failed" % (shape, n))
                    continue
                finally:
                    if n >= BIG:
                        os.remove(path)
                rows.append((shape, n, size, scan_t, validate_t, validate_c / scan_c, peak))

    print("front end: cugraphrun --validate against libyaml's event parser alone "
          "(best of %d runs, %d at %d nodes; ratio: wall clock, the target; cpu: user + "
          "system time)" % (args.runs, args.big_runs, BIG))
    print("%-6s %8s %9s %9s %12s %7s %6s %8s %9s  %s"
          % ("file", "nodes", "size", "scan ms", "validate ms", "ratio", "cpu", "peak MB",
             "us/node", "verdict"))
    for shape, n, size, scan_t, validate_t, cpu_ratio, peak in rows:
        ratio = validate_t / scan_t
        verdict = ""
        if n == TARGET_NODES:
            max_ratio, max_peak = dict((s, (r, p)) for s, _, r, p in SHAPES)[shape]
            misses = []
            if ratio > max_ratio:
                misses.append("ratio > %g" % max_ratio)
            if peak >= max_peak:
                misses.append("peak >= %g MB" % max_peak)
            verdict = "FAIL (%s)" % ", ".join(misses) if misses else "PASS"
            failed.extend("%s: %s" % (shape, m) for m in misses)
        print("%-6s %8d %6.1f MB %9.1f %12.1f %7.3f %6.3f %8.1f %9.3f  %s"
              % (shape, n, size / 1e6, scan_t * 1e3, validate_t * 1e3, ratio, cpu_ratio,
                 peak, validate_t * 1e6 / n, verdict))
    print("targets at %d nodes: %s: %s"
          % (TARGET_NODES, ", ".join("%s ratio <= %g and peak < %g MB" % (s, r, p)
                                     for s, _, r, p in SHAPES),
             "FAIL (%s)" % "; ".join(failed) if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
