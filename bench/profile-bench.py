#!/usr/bin/env python3
"""GPU benchmark: what --profile costs, and that it costs the timed launches nothing.

For chains of 1, 100 and 10,000 empty-kernel nodes and a fan of 100, runs
cugraphrun plain and with --profile, interleaved, and prints per graph:

  - the median of the timed launches without --profile and with it (the
    timed launches run before CUPTI is attached: they must agree within 2%,
    ratio with/without);
  - the median of the profiled launches (CUPTI attached) against the plain
    median: what profiling costs a launch.

    profile-bench.py --cugraphrun PATH --gen examples/gen-chain.py
                     --ptx examples/kernels/empty.ptx [--repeat 200] [--rounds 5]

Each ratio comes with a 95% bootstrap interval (the runs of either kind
resampled).  A ratio within 2% prints "yes"; one outside 2% whose interval
holds 1.0 prints "spread": the medians of single processes spread too
widely (a fan's, by the driver's placement of its branches) for this many
runs to resolve 2%, and nothing shows a difference; one outside 2% whose
interval excludes 1.0 prints "NO".  Exit status 1 when any graph prints NO.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile


# Extra rounds for the graphs whose launch time varies from process to process.
ROUNDS_FACTOR = {("fan", 100): 15, ("fan", 10): 5, ("chain", 1): 20}


def run(exe, path, repeat, warmup, profile):
    args = [exe, "-q", "--json", "-n", str(repeat), "-w", str(warmup)]
    if profile:
        args.append("--profile=%d" % profile)
    out = subprocess.run(args + [path], check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    prof = r.get("profile")
    return r["launch"]["median_s"], prof["median_s"] if prof else None


def ratio_interval(plain, with_p, n=2000):
    """95% bootstrap interval of median(with_p) / median(plain)."""
    rng = random.Random(1)
    rs = sorted(statistics.median(rng.choices(with_p, k=len(with_p))) /
                statistics.median(rng.choices(plain, k=len(plain))) for _ in range(n))
    return rs[int(0.025 * n)], rs[int(0.975 * n) - 1]


def pin(spec):
    """Pin this process, and so every run, to a few CPUs: a short graph's
    launch is as fast as the CPU that queues it, and a run placed on another
    core (or moved between cores) differs from the next by more than the
    2% this benchmark looks for.  Returns the CPUs, or None."""
    if spec == "none":
        return None
    have = sorted(os.sched_getaffinity(0))
    cpus = have[-2:] if spec == "auto" else [int(c) for c in spec.split(",")]
    os.sched_setaffinity(0, cpus)
    return cpus


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--ptx", required=True)
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--profile", type=int, default=20)
    ap.add_argument("--graphs", default="chain:1,chain:100,chain:10000,fan:10,fan:100")
    ap.add_argument("--dump", help="write every run's medians to this JSON file")
    ap.add_argument("--cpus", default="auto",
                    help="CPUs every run is pinned to: a list (2,3), 'auto' (the last "
                         "two this process may use) or 'none'")
    a = ap.parse_args()
    cpus = pin(a.cpus)

    tmp = tempfile.mkdtemp(prefix="cgr-pbench-")
    os.makedirs(os.path.join(tmp, "kernels"))
    shutil.copy(a.ptx, os.path.join(tmp, "kernels", "empty.ptx"))
    rows, ok, dump = [], True, {}
    for g in a.graphs.split(","):
        shape, n = g.split(":")
        path = os.path.join(tmp, f"{shape}-{n}.yaml")
        args = [sys.executable, a.gen, n] + (["--fan"] if shape == "fan" else [])
        with open(path, "w") as f:
            subprocess.run(args, check=True, stdout=f)
        plain, with_p, profiled = [], [], []
        # A fan's launch time varies from process to process by up to 40%
        # (the driver spreads its branches differently on each
        # instantiation: 82 to 122 us on the H100), a one-node chain's by
        # 20% even when pinned (2.9 to 3.6 us): both need many processes for
        # the median of their medians to settle.
        for k in range(a.rounds * ROUNDS_FACTOR.get((shape, int(n)), 1)):
            # interleaved, so drift hits both alike, each going first every other round
            for prof in ((0, a.profile) if k % 2 == 0 else (a.profile, 0)):
                m, pm = run(a.cugraphrun, path, a.repeat, a.warmup, prof)
                if prof:
                    with_p.append(m)
                    profiled.append(pm)
                else:
                    plain.append(m)
        dump[g] = {"plain": plain, "with_profile": with_p, "profiled": profiled}
        pm_, wm, prm = (statistics.median(x) for x in (plain, with_p, profiled))
        ratio = wm / pm_
        lo_r, hi_r = ratio_interval(plain, with_p)
        verdict = ("yes" if abs(ratio - 1) <= 0.02 else
                   "spread" if lo_r <= 1 <= hi_r else "NO")
        ok &= verdict != "NO"
        rows.append((shape, int(n), pm_, wm, ratio, lo_r, hi_r, verdict, prm, prm / pm_,
                     len(plain), min(plain + with_p), max(plain + with_p)))
    shutil.rmtree(tmp)
    if a.dump:
        with open(a.dump, "w") as f:
            json.dump(dump, f)

    print(f"{'graph':>6} {'nodes':>6} | {'plain':>12} {'with --profile':>14} {'ratio':>7} "
          f"{'95% interval':>13} {'<=2%':>6} | {'profiled (CUPTI)':>16} {'cost':>7} | "
          f"{'runs':>4} {'process medians':>19}")
    for shape, n, pm_, wm, ratio, lo_r, hi_r, verdict, prm, cost, runs, lo, hi in rows:
        print(f"{shape:>6} {n:>6} | {pm_ * 1e6:9.2f} us {wm * 1e6:11.2f} us {ratio:7.3f} "
              f"{lo_r:6.3f}-{hi_r:.3f} {verdict:>6} | {prm * 1e6:13.2f} us {cost:7.2f} | "
              f"{runs:>4} {lo * 1e6:8.2f} - {hi * 1e6:.2f} us")
    print(f"timed launches: {a.repeat} per run; the median of the runs' medians, over "
          f"'runs' interleaved runs of each; process medians: the range of the runs' medians; "
          f"profiled: {a.profile} launches per run; "
          f"runs pinned to CPUs {','.join(map(str, cpus)) if cpus else '(none)'}; "
          f"{'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
