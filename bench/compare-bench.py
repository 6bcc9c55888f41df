#!/usr/bin/env python3
"""--compare on a GPU: what its verdicts are worth (issue 32's targets).

The process is the unit of sampling (cugraphrun(1), COMPARING), so the
bench records many processes once and forms its comparisons afterwards,
with the tool's own stored-report comparison, without the GPU:

  record   (GPU) every example and four spin files, the files of a round
           in fresh worker processes, ROUNDS rounds (--processes=ROUNDS):
           one report, DIR/record.json; then the spin files alone for
           SPIN_ROUNDS more rounds (DIR/spins.json); then the cost: the
           examples' suite run once as today (--single: another build's
           cugraphrun, as it was before processes; default this one with
           --processes=1) and compared with --compare at the defaults
           (4 processes a file), three times each, interleaved.
  judge    (no GPU) from DIR:
           A/A: cugraphrun --self-check over the examples' processes
           (every point of the sweeps; disjoint groups of 13 + 4 a point,
           so that one odd process taints one comparison of its point):
           at most 1 SLOWER or FASTER per 1,000, SAME at least 95%,
           UNCERTAIN at most 5%, each with its reason; files whose
           processes hold fewer than 10 launches apart.
           Detection: one base of 13 processes of the 50 us spin; trials
           of 4 fresh processes each of the spin 15% longer (SLOWER in at
           least 99 of 100, never SAME), 5% longer with
           --compare-threshold=2 (SLOWER in at least 80 of 100, for a
           graph whose processes spread 1% or less) and halved (FASTER in
           at least 99 of 100), each trial through cugraphrun --compare
           of two stored reports.
           Cost: the compared suite's wall time over today's single run,
           at most 4.
  run      record, then judge.

Run it from the GPU bundle (make gpu-bundle):

    export LD_LIBRARY_PATH=$PWD/.gpu/lib
    python3 .gpu/bench/compare-bench.py record --cugraphrun .gpu/bin/cugraphrun \\
        --examples .gpu/examples --ptx .gpu/kernels/tk.ptx --dir results/cmp
    python3 bench/compare-bench.py judge --cugraphrun build/cugraphrun --dir results/cmp

Each target prints PASS or FAIL (or the count it reached and the 95% upper
bound of the false rate when fewer comparisons were possible); the exit
status is 1 when one fails, 2 when a run fails outright.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time

SPIN = """cugraphrun: 1
name: {name}
modules:
  tk: {ptx}
nodes:
  - kernel: {{function: tk.spin, args: [{{u64: {ns}}}]}}
"""
SPINS = [("spin", 1.0), ("spin-15", 1.15), ("spin-5", 1.05), ("spin-half", 0.5)]
BASE, NEW = 13, 4


def run(cmd, ok=(0, 1, 4)):
    """Run cugraphrun; its wall time, or exit 2 when its status is none of ok."""
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode not in ok:
        sys.stderr.write("compare-bench: %s: exit %d\n%s%s" % (
            " ".join(cmd), r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
        sys.exit(2)
    return time.monotonic() - t0, r


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    except OSError:
        return 1
    return max(1, sum(1 for line in out.splitlines() if line.startswith("GPU ")))


def examples_of(folder):
    """The examples this machine can run: those that say '#@ gpus: N' need N GPUs."""
    have, out = gpu_count(), []
    for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
        need = 1
        with open(path) as f:
            for line in f:
                if line.startswith("#@ gpus:"):
                    need = int(line.split(":", 1)[1])
        if need <= have:
            out.append(path)
    return out


def write_spins(work, ptx, us):
    os.makedirs(os.path.join(work, "spins"), exist_ok=True)
    paths = []
    for name, factor in SPINS:
        path = os.path.join(work, "spins", name + ".yaml")
        with open(path, "w") as f:
            f.write(SPIN.format(name=name, ptx=os.path.abspath(ptx), ns=int(us * 1000 * factor)))
        paths.append(path)
    return paths


def record(args):
    work = args.dir
    os.makedirs(work, exist_ok=True)
    ex = examples_of(args.examples)
    spins = write_spins(work, args.ptx, args.spin_us)
    c = args.cugraphrun
    log = {"examples": [os.path.basename(p) for p in ex], "rounds": args.rounds,
           "spin_rounds": args.spin_rounds}
    # 1. every example and the spins, ROUNDS rounds of fresh processes
    t, _ = run([c, "-q", "--processes=%d" % args.rounds, "--json=" + os.path.join(work,
               "record.json")] + ex + spins)
    log["record_s"] = t
    print("record: %d examples and %d spin files, %d processes each: %.1f s" % (
        len(ex), len(spins), args.rounds, t), flush=True)
    # 2. the spins alone, for the detection's trials
    if args.spin_rounds:
        t, _ = run([c, "-q", "--processes=%d" % args.spin_rounds,
                    "--json=" + os.path.join(work, "spins.json")] + spins)
        log["spins_s"] = t
        print("spins: %d processes each: %.1f s" % (args.spin_rounds, t), flush=True)
    # 3. the cost: today's single run of the examples, and a comparison at the defaults
    base = os.path.join(work, "record.json")
    single = args.single or c
    single_args = [] if args.single else ["--processes=1"]
    cost = {"single_s": [], "compare_s": []}
    for k in range(args.cost_runs):
        t, _ = run([single, "-q"] + single_args + ex)
        cost["single_s"].append(t)
        t, _ = run([c, "-q", "--compare=" + base, "--json=" + os.path.join(
            work, "compared.%d.json" % k)] + ex)
        cost["compare_s"].append(t)
    log["cost"] = cost
    print("cost: single %s s, compared %s s" % (
        " ".join("%.2f" % x for x in cost["single_s"]),
        " ".join("%.2f" % x for x in cost["compare_s"])), flush=True)
    with open(os.path.join(work, "record-log.json"), "w") as f:
        json.dump(log, f, indent=1)


def load(path):
    with open(path) as f:
        return json.load(f)


def file_report(doc, name):
    for e in doc["files"]:
        if os.path.basename(e["file"]) == name and e.get("report"):
            return e["report"]
    return None


def with_processes(report, procs):
    """report as a single file's report of these processes alone."""
    r = json.loads(json.dumps(report))
    r["processes"] = procs
    return r


def upper_95(k, n):
    """Clopper-Pearson's one-sided 95% upper bound of a rate, k in n."""
    if n == 0:
        return float("nan")
    from math import comb
    lo, hi = k / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        cdf = sum(comb(n, i) * mid ** i * (1 - mid) ** (n - i) for i in range(k + 1))
        if cdf > 0.05:
            lo = mid
        else:
            hi = mid
    return hi


def judge_aa(args, rec):
    """--self-check over the examples' processes, the spins left out."""
    doc = json.loads(json.dumps(rec))
    doc["files"] = [e for e in doc["files"] if "/spins/" not in e["file"]]
    path = os.path.join(args.dir, "examples.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    out = os.path.join(args.dir, "self-check.json")
    _, r = run([args.cugraphrun, "--self-check", "--json=" + out, path], ok=(0,))
    t = load(out)["self_check"]["total"]
    n = t["comparisons"]
    false = t["faster"] + t["slower"]
    same = t["same"] / n if n else 0
    unc = t["uncertain"] / n if n else 1
    print("A/A over every example (%d files, their points): %d comparisons: %d same (%.1f%%), "
          "%d uncertain (%.1f%%: %s), %d faster, %d slower; %d apart (too few launches)" % (
              len(doc["files"]), n, t["same"], 100 * same, t["uncertain"], 100 * unc,
              ", ".join("%s %d" % (k, v) for k, v in t["uncertain_because"].items() if v),
              t["faster"], t["slower"], t["apart"]))
    bound = 1000 * upper_95(false, n)
    ok_rate = false * 1000 <= n and (n >= 3000 or false == 0)
    print("  false verdicts: %d in %d: %.2f per 1,000, 95%% upper bound %.2f per 1,000 "
          "(target at most 1 per 1,000 over at least 3,000): %s" % (
              false, n, 1000 * false / n if n else float("nan"), bound,
              "PASS" if ok_rate and n >= 3000 else "PASS at this count" if ok_rate else "FAIL"))
    ok_same = same >= 0.95 and unc <= 0.05
    print("  SAME %.1f%% (target >= 95%%), UNCERTAIN %.1f%% (target <= 5%%): %s" % (
        100 * same, 100 * unc, "PASS" if ok_same else "FAIL"))
    sys.stdout.write(r.stdout)
    return ok_rate and ok_same


def judge_detection(args, docs):
    """Trials of 4 processes of each changed spin against one base of 13."""
    spin = [file_report(d, "spin.yaml") for d in docs]
    base_procs = [p for r in spin if r for p in r["processes"]][:BASE]
    if len(base_procs) < BASE:
        print("detection: fewer than %d processes of the spin: FAIL" % BASE)
        return False
    base_path = os.path.join(args.dir, "spin-base.json")
    with open(base_path, "w") as f:
        json.dump(with_processes(spin[0], base_procs), f)
    spread = sorted(p["median_s"] for p in base_procs)
    spread = (spread[-2] - spread[1]) / spread[len(spread) // 2]
    ok = True
    for name, want, threshold, need, never in (("spin-15.yaml", "slower", 5, 99, "same"),
                                               ("spin-5.yaml", "slower", 2, 80, None),
                                               ("spin-half.yaml", "faster", 5, 99, "same")):
        procs = [p for d in docs for p in (file_report(d, name) or {"processes": []})["processes"]]
        trials = min(args.trials, len(procs) // NEW)
        got = {"same": 0, "faster": 0, "slower": 0, "uncertain": 0}
        why = {}
        rep = file_report(docs[0], name)
        for k in range(trials):
            path = os.path.join(args.dir, "trial.json")
            with open(path, "w") as f:
                json.dump(with_processes(rep, procs[k * NEW:(k + 1) * NEW]), f)
            out = os.path.join(args.dir, "trial-out.json")
            run([args.cugraphrun, "-q", "--compare=" + base_path,
                 "--compare-threshold=%g" % threshold, "--json=" + out, path], ok=(0, 4))
            e = load(out)["comparison"]["entries"][0]
            got[e["verdict"]] += 1
            if e["uncertain_because"]:
                why[e["uncertain_because"]] = why.get(e["uncertain_because"], 0) + 1
        scaled = need * trials / 100.0
        passed = trials > 0 and got[want] >= scaled and (never is None or got[never] == 0)
        ok &= passed
        print("detection %s (threshold %g%%): %d trials: %d %s (target %d of 100%s; same %d, "
              "faster %d, slower %d, uncertain %d %s): %s" % (
                  name, threshold, trials, got[want], want.upper(), need,
                  ", never SAME" if never else "", got["same"], got["faster"], got["slower"],
                  got["uncertain"], why or "", "PASS" if passed else "FAIL"))
    print("  the spin's processes spread %.2f%% (10th to 90th percentile of 13)" % (100 * spread))
    return ok


def judge_cost(args):
    log = load(os.path.join(args.dir, "record-log.json"))
    cost = log.get("cost")
    if not cost or not cost["single_s"]:
        print("cost: not measured")
        return True
    single = sorted(cost["single_s"])[len(cost["single_s"]) // 2]
    compared = sorted(cost["compare_s"])[len(cost["compare_s"]) // 2]
    ratio = compared / single
    print("cost: the examples compared at the defaults %.2f s, run once as today %.2f s "
          "(medians of %d): %.2fx (target at most 4): %s" % (
              compared, single, len(cost["single_s"]), ratio,
              "PASS" if ratio <= 4 else "FAIL"))
    return ratio <= 4


def judge(args):
    rec = load(os.path.join(args.dir, "record.json"))
    docs = [rec]
    if os.path.exists(os.path.join(args.dir, "spins.json")):
        docs.append(load(os.path.join(args.dir, "spins.json")))
    ok = judge_aa(args, rec)
    ok &= judge_detection(args, docs)
    ok &= judge_cost(args)
    print("compare-bench: %s" % ("PASS" if ok else "FAIL"))
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("step", choices=["record", "judge", "run"])
    p.add_argument("--cugraphrun", required=True)
    p.add_argument("--dir", required=True, help="where the reports go (record) or are (judge)")
    p.add_argument("--examples", help="the examples folder (record)")
    p.add_argument("--ptx", help="tests/gpu/kernels compiled: tk.ptx (record)")
    p.add_argument("--rounds", type=int, default=170, help="processes of every file")
    p.add_argument("--spin-rounds", type=int, default=400, help="further processes of the spins")
    p.add_argument("--spin-us", type=float, default=50)
    p.add_argument("--trials", type=int, default=100)
    p.add_argument("--single", help="the cugraphrun of today's single run (default: this one)")
    p.add_argument("--cost-runs", type=int, default=3)
    args = p.parse_args()
    if args.step in ("record", "run"):
        if not args.examples or not args.ptx:
            p.error("record needs --examples and --ptx")
        record(args)
    if args.step in ("judge", "run"):
        sys.exit(0 if judge(args) else 1)


if __name__ == "__main__":
    main()
