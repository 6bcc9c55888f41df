#!/usr/bin/env python3
"""GPU benchmark: cugraphrun against a hand-written driver-API program.

For chains and fans of 1, 100 and 10,000 empty-kernel nodes, runs
cugraphrun (--json) and bench/gpu_ref on the same graph, interleaved, and
prints one table: the median launch time of each, their ratio (target:
within 2%), and cugraphrun's load+build (reading the YAML, loading the
module, building the graph) beside the reference's (loading the module,
building the graph).

    gpu-bench.py --cugraphrun PATH --ref PATH --gen examples/gen-chain.py
                 --ptx examples/kernels/empty.ptx [--repeat 1000] [--rounds 3]

Exit status 1 when cugraphrun's median launch is more than 2% slower than
the reference's (ratio > 1.02).  A fan's launch time varies from process to
process by far more than 2% for both programs (the spread is printed), so
its rows compare medians over several rounds.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def run_cugraphrun(exe, path, repeat, warmup):
    out = subprocess.run([exe, "-q", "--json", "-n", str(repeat), "-w", str(warmup), path],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    ph = r["phases"]
    return r["launch"]["median_s"], ph["load_s"] + ph["build_s"]


def run_ref(exe, shape, n, ptx, repeat, warmup):
    out = subprocess.run([exe, shape, str(n), ptx, str(repeat), str(warmup)],
                         check=True, capture_output=True, text=True).stdout
    kv = dict(f.split("=") for f in out.split())
    return float(kv["median_s"]), float(kv["load_s"]) + float(kv["build_s"])


def fmt_us(s):
    return f"{s * 1e6:9.2f} us"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--ptx", required=True)
    ap.add_argument("--repeat", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--sizes", default="1,100,10000")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="cgr-bench-")
    os.makedirs(os.path.join(tmp, "kernels"))
    shutil.copy(a.ptx, os.path.join(tmp, "kernels", "empty.ptx"))
    rows, ok = [], True
    for shape in ("chain", "fan"):
        for n in (int(s) for s in a.sizes.split(",")):
            path = os.path.join(tmp, f"{shape}-{n}.yaml")
            args = [sys.executable, a.gen, str(n)] + (["--fan"] if shape == "fan" else [])
            with open(path, "w") as f:
                subprocess.run(args, check=True, stdout=f)
            cg_med, cg_build, ref_med, ref_build = [], [], [], []
            for _ in range(a.rounds):  # interleaved, so drift hits both alike
                m, b = run_ref(a.ref, shape, n, a.ptx, a.repeat, a.warmup)
                ref_med.append(m)
                ref_build.append(b)
                m, b = run_cugraphrun(a.cugraphrun, path, a.repeat, a.warmup)
                cg_med.append(m)
                cg_build.append(b)
            cm, rm = statistics.median(cg_med), statistics.median(ref_med)
            cb, rb = statistics.median(cg_build), statistics.median(ref_build)
            ratio = cm / rm
            # cugraphrun adds nothing to a launch: the bound is on overhead.
            good = ratio <= 1.02
            ok &= good
            rows.append((shape, n, cm, rm, ratio, good, cb, rb, cb / rb,
                         (min(cg_med), max(cg_med), min(ref_med), max(ref_med))))
    shutil.rmtree(tmp)

    print(f"{'graph':>6} {'nodes':>6} | {'cugraphrun':>12} {'reference':>12} {'ratio':>7} {'<=1.02':>6} |"
          f" {'cgr load+build':>15} {'ref load+build':>15} {'ratio':>7}")
    for shape, n, cm, rm, ratio, good, cb, rb, br, _ in rows:
        print(f"{shape:>6} {n:>6} | {fmt_us(cm):>12} {fmt_us(rm):>12} {ratio:7.3f} {'yes' if good else 'NO':>6} |"
              f" {cb * 1e3:12.3f} ms {rb * 1e3:12.3f} ms {br:7.1f}")
    # A fan's launch time varies from process to process (the driver spreads
    # independent nodes differently each time), so say how much.
    print("spread of the rounds' medians (cugraphrun; reference):")
    for shape, n, *_, (c0, c1, r0, r1) in rows:
        print(f"{shape:>6} {n:>6}   {c0 * 1e6:.2f}-{c1 * 1e6:.2f} us; {r0 * 1e6:.2f}-{r1 * 1e6:.2f} us")
    print(f"median launch over {a.repeat} launches x {a.rounds} interleaved rounds "
          f"(median of the rounds' medians); {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
