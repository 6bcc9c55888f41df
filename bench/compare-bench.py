#!/usr/bin/env python3
"""--compare on a GPU: do its verdicts say what happened?

Targets (issue 22, item 8):

  examples   every example run once as the base (--json), then rerun
             --reruns times (default 20) against it with --compare:
             no SLOWER and no FASTER at all, and SAME in at least 80% of
             all the comparisons (every point of a sweep counts); the
             UNCERTAIN ones are printed per example.
  slower     a graph of one kernel spinning on %globaltimer for --spin-us
             (default 50 us), run as the base, then with its spin 15%
             longer in the same file, compared: SLOWER in at least 19 of
             20 reruns (each rerun a fresh base and a fresh compared run).
  faster     the same with its spin halved: FASTER in at least 19 of 20.

Each target prints PASS or FAIL; the exit status is 1 when one fails, 2
when a run fails outright.  Run it from the GPU bundle (make gpu-bundle):

    export LD_LIBRARY_PATH=$PWD/.gpu/lib
    python3 .gpu/bench/compare-bench.py --cugraphrun .gpu/bin/cugraphrun \\
        --examples .gpu/examples --ptx .gpu/kernels/tk.ptx

--keep DIR keeps the reports (DIR must be empty or absent).
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

SPIN = """cugraphrun: 1
name: compare-spin
modules:
  tk: {ptx}
nodes:
  - kernel: {{function: tk.spin, args: [{{u64: {ns}}}]}}
"""


def run(cmd, ok=(0, 4)):
    """Run cugraphrun; its exit status, or exit 2 when it is none of ok."""
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode not in ok:
        sys.stderr.write("compare-bench: %s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                                            r.stderr[-2000:]))
        sys.exit(2)
    return r.returncode


def verdicts(path):
    """The verdicts of a --json report's comparison, one per match; None without one."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        report = json.load(f)
    cmp = report.get("comparison")
    if cmp is None:
        return None
    return [e["verdict"] for e in cmp["entries"]]


def gpu_count():
    """The GPUs this machine shows (nvidia-smi -L), within CUDA_VISIBLE_DEVICES."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    except OSError:
        return 1
    n = sum(1 for line in out.splitlines() if line.startswith("GPU "))
    vis = os.environ.get("CUDA_VISIBLE_DEVICES")
    if vis is not None:
        n = min(n, len([v for v in vis.split(",") if v.strip()]))
    return n


def gpus_needed(path):
    """An example's '#@ gpus: N' (as tests/gpu/run.sh reads it), else 1."""
    with open(path) as f:
        for line in f:
            if line.startswith("#@ gpus:"):
                return int(line.split(":", 1)[1])
    return 1


def examples(args, work):
    """Every example against its first run: counts of each verdict, per example."""
    results = {}
    have = gpu_count()
    for path in sorted(glob.glob(os.path.join(args.examples, "*.yaml"))):
        name = os.path.basename(path)[:-5]
        if gpus_needed(path) > have:
            print("  %-28s skipped: needs %d GPUs, this machine has %d" % (
                name, gpus_needed(path), have))
            continue
        base = os.path.join(work, name + ".base.json")
        extra = ["-n", str(args.repeat)] if args.repeat else []
        # an example that skips itself or expects a failed check still reports
        run([args.cugraphrun, "-q", "--json=" + base] + extra + [path], ok=(0, 1))
        counts = {"same": 0, "faster": 0, "slower": 0, "uncertain": 0}
        for k in range(args.reruns):
            out = os.path.join(work, "%s.%d.json" % (name, k))
            run([args.cugraphrun, "-q", "--compare=" + base, "--json=" + out] + extra + [path],
                ok=(0, 1, 4))
            v = verdicts(out)
            if v is None:
                break
            for x in v:
                counts[x] += 1
        if sum(counts.values()) == 0:
            print("  %-28s no timed launches compared (skipped or no samples)" % name)
            continue
        results[name] = counts
        print("  %-28s same %3d  faster %2d  slower %2d  uncertain %2d" % (
            name, counts["same"], counts["faster"], counts["slower"], counts["uncertain"]))
    total = {k: sum(c[k] for c in results.values()) for k in ("same", "faster", "slower",
                                                              "uncertain")}
    n = sum(total.values())
    same = total["same"] / n if n else 0
    ok = n > 0 and total["slower"] == 0 and total["faster"] == 0 and same >= 0.8
    print("examples: %d comparisons over %d examples: %d same (%.1f%%), %d faster, %d slower, "
          "%d uncertain (target: no slower, no faster, same >= 80%%): %s" % (
              n, len(results), total["same"], 100 * same, total["faster"], total["slower"],
              total["uncertain"], "PASS" if ok else "FAIL"))
    return ok


def spin(args, work, factor, want, label):
    """Base at --spin-us, compared with the spin times factor: want in >= 19 of the reruns."""
    ns = int(args.spin_us * 1000)
    path = os.path.join(work, "spin.yaml")
    ptx = os.path.abspath(args.ptx)
    got = {"same": 0, "faster": 0, "slower": 0, "uncertain": 0}
    extra = ["-n", str(args.repeat)] if args.repeat else []
    for k in range(args.reruns):
        base = os.path.join(work, "spin-%s.%d.base.json" % (label, k))
        out = os.path.join(work, "spin-%s.%d.json" % (label, k))
        # the same file, its spin changed between the two runs
        with open(path, "w") as f:
            f.write(SPIN.format(ptx=ptx, ns=ns))
        run([args.cugraphrun, "-q", "--json=" + base] + extra + [path])
        with open(path, "w") as f:
            f.write(SPIN.format(ptx=ptx, ns=int(ns * factor)))
        run([args.cugraphrun, "-q", "--compare=" + base, "--json=" + out] + extra + [path])
        for x in verdicts(out) or []:
            got[x] += 1
    need = args.reruns - 1 if args.reruns >= 20 else args.reruns
    ok = got[want] >= need
    print("%s: spin %g us x %g: %d of %d %s (same %d, faster %d, slower %d, uncertain %d; "
          "target: at least %d): %s" % (label, args.spin_us, factor, got[want], args.reruns,
                                        want.upper(), got["same"], got["faster"],
                                        got["slower"], got["uncertain"], need,
                                        "PASS" if ok else "FAIL"))
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cugraphrun", required=True)
    p.add_argument("--examples", required=True, help="the examples folder")
    p.add_argument("--ptx", required=True, help="tests/gpu/kernels compiled: tk.ptx")
    p.add_argument("--reruns", type=int, default=20)
    p.add_argument("--repeat", type=int, default=0, help="-n for every run (default: the file's)")
    p.add_argument("--spin-us", type=float, default=50)
    p.add_argument("--keep", help="keep the reports in this folder")
    p.add_argument("--only", choices=["examples", "slower", "faster"], action="append")
    args = p.parse_args()
    if args.keep:
        if os.path.exists(args.keep) and os.listdir(args.keep):
            sys.exit("compare-bench: --keep %s is not empty" % args.keep)
        os.makedirs(args.keep, exist_ok=True)
        work = args.keep
    else:
        work = tempfile.mkdtemp(prefix="compare-bench.")
    todo = args.only or ["examples", "slower", "faster"]
    ok = True
    try:
        if "examples" in todo:
            ok &= examples(args, work)
        if "slower" in todo:
            ok &= spin(args, work, 1.15, "slower", "slower")
        if "faster" in todo:
            ok &= spin(args, work, 0.5, "faster", "faster")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("compare-bench: %s" % ("PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
