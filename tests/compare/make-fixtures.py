#!/usr/bin/env python3
"""Writes the --compare test fixtures in this folder: JSON reports in the
shape cugraphrun --json writes (one file, a sweep, a suite; report_format
2 with a record per process, and a few of format 1), with figures drawn
from a seeded generator so that the files never change.  Run it again
only to change them: python3 tests/compare/make-fixtures.py

The comparison judges processes (cugraphrun(1), COMPARING): a base holds
13 processes a point, a "new" report 4.  A plain file runs about 100 us,
each process's median 0.2% apart; a sweep over n 10, 20 and 40 us.  What
each new report is against its base is in its name: same, slower (+15%),
faster (x0.5), noisy (two processes in a mode 40% slower: new_mode), few
(processes of 3 launches: apart), clock (11% slower at a clock 10% lower:
the same in cycles), wide (a base whose processes spread 20%: +8% is
within it), v1 (a base of format 1: one process, never enough).
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def samples(rng, median, noise, n=100):
    return [round(median * (1 + rng.gauss(0, noise)), 12) for _ in range(n)]


def launch(s):
    s2 = sorted(s)
    n = len(s)
    med = s2[n // 2] if n % 2 else (s2[n // 2 - 1] + s2[n // 2]) / 2
    mean = sum(s) / n
    sd = (sum((x - mean) ** 2 for x in s) / (n - 1)) ** 0.5
    return {"repeat": n, "warmup": 3, "median_s": med, "min_s": s2[0], "mean_s": mean,
            "max_s": s2[-1], "stddev_s": sd, "samples_s": s}


def report(file, s=None, points=None, procs=None, fmt=2):
    r = {
        "cugraphrun": "0.1.0", "report_format": fmt, "name": None, "file": file,
        "device": {"ordinal": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
                   "sm": "sm_90", "driver_version": 13000, "driver": "13.0",
                   "peak_bandwidth_gb_per_s": 3352},
        "graph": None,
        "phases": {"load_s": 0.0003, "build_s": 8e-05, "instantiate_s": 0.0004,
                   "upload_s": 2e-05, "compile_s": None},
        "disabled": [], "graph_memory": None, "compile": None, "first_launch_s": 6e-05,
        "launch": launch(s) if s is not None else None,
        "events": [], "throughput": None, "checks": {"passed": 1, "failed": 0}, "exit_status": 0,
        "diagnostics": [],
    }
    if points is not None:
        r["points"] = points
    if fmt >= 2:
        r["processes"] = procs if points is None else None
    return r


def point(n, s, procs=None):
    p = {"label": "n=2^%d" % n, "axes": {"n": "2^%d" % n},
         "prepare": {"kind": "update", "seconds": 1e-06, "reason": None, "updated_nodes": 1},
         "first_launch_s": 2e-05, "launch": launch(s), "checks": {"passed": 1, "failed": 0},
         "throughput": None, "exit_status": 0}
    if procs is not None:
        p["processes"] = procs
    return p


def process(rng, median, launches=100, clock=1980.0, pid=[4000]):
    """One process's record: its median as given, the rest around it."""
    pid[0] += 1
    return {"pid": pid[0], "launches": launches, "stopped_by": "precision",
            "precision_percent": 0.3, "median_s": round(median, 12),
            "p10_s": round(median * 0.995, 12), "iqr_s": round(median * 0.004, 12),
            "sm_clock_mhz": clock, "sm_clock_before_mhz": clock, "sm_clock_after_mhz": clock,
            "gpu_uuid": "GPU-3ce6f0f5-ceaf-fcdb-0a1e-176902a34507", "driver_version": 13000}


def processes(rng, median, n, spread=0.002, **kw):
    return [process(rng, median * (1 + rng.gauss(0, spread)), **kw) for _ in range(n)]


def plain(file, figures):
    """A plain file's report of timed's figures."""
    return report(file, figures[0], procs=figures[1])


def timed(rng, median, n, spread=0.002, launches=100, **kw):
    """A report's figures: n processes, and the last one's samples."""
    procs = processes(rng, median, n, spread, launches=launches, **kw)
    return samples(rng, procs[-1]["median_s"], 0.005, min(launches, 20)), procs


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


rng = random.Random(32)
B, N = 13, 4
S = "examples/spin.yaml"
write("base-plain.json", plain(S, timed(rng, 100e-6, B)))
write("same-plain.json", plain(S, timed(rng, 100.2e-6, N)))
write("slower-plain.json", plain("./examples//spin.yaml", timed(rng, 115e-6, N)))
write("faster-plain.json", plain(S, timed(rng, 50e-6, N)))
noisy = processes(rng, 100e-6, 2) + processes(rng, 140e-6, 2)
write("noisy-plain.json", report(S, samples(rng, 140e-6, 0.005, 20), procs=noisy))
write("few-plain.json", plain(S, timed(rng, 115e-6, N, launches=3)))
write("clock-plain.json", plain(S, timed(rng, 111e-6, N, clock=1782.0)))
write("other-plain.json", plain("elsewhere/spin.yaml", timed(rng, 100e-6, N)))
write("wide-base-plain.json", plain(S, timed(rng, 100e-6, B, spread=0.08)))
write("wide-plain.json", plain(S, timed(rng, 108e-6, N, spread=0.002)))
write("v1-base-plain.json", report(S, samples(rng, 100e-6, 0.005), fmt=1))
# a base grown from two reports: 7 processes and 6, pooled by --compare twice
s7, p7 = timed(rng, 100e-6, 7)
s6, p6 = timed(rng, 100e-6, 6)
write("base-plain-a.json", report(S, s7, procs=p7))
write("base-plain-b.json", report(S, s6, procs=p6))
# an A/A recording: 170 processes, ten disjoint comparisons of 13 against 4
write("aa-plain.json", plain(S, timed(rng, 100e-6, 170)))

# a sweep over n: 2^10..2^12 in the base; 2^11..2^13 now, 2^12 slower
def sweep_points(medians, n, first=10):
    pts = []
    for k, m in enumerate(medians):
        s, procs = timed(rng, m, n)
        pts.append(point(first + k, s, procs))
    return pts


write("base-sweep.json", report("sweep.yaml", None, sweep_points([10e-6, 20e-6, 40e-6], B)))
new_points = sweep_points([20e-6, 48e-6, 80e-6], N, first=11)
# the same axis value written as a number matches "2^12"
new_points[1]["axes"]["n"] = 4096
write("new-sweep.json", report("sweep.yaml", None, new_points))

# suites: a.yaml and b.yaml ran in both, c.yaml made no report in the base, d.yaml is gone
def entry(file, r, result="passed", status=0):
    return {"file": file, "result": result, "expected_failure": False, "exit_status": status,
            "seconds": 0.5, "report": r}


def suite(files):
    return {"files": files, "summary": {"passed": len(files), "failed": 0, "skipped": 0,
                                        "errors": 0, "timeouts": 0, "slower": 0},
            "exit_status": 0}


write("base-suite.json", suite([
    entry("a.yaml", plain("a.yaml", timed(rng, 30e-6, B))),
    entry("b.yaml", plain("b.yaml", timed(rng, 60e-6, B))),
    entry("c.yaml", None, "error", 3),
    entry("d.yaml", plain("d.yaml", timed(rng, 5e-6, B)))]))
write("new-suite.json", suite([
    entry("a.yaml", plain("a.yaml", timed(rng, 30e-6, N))),
    entry("b.yaml", plain("b.yaml", timed(rng, 70e-6, N))),
    entry("c.yaml", plain("c.yaml", timed(rng, 7e-6, N)))]))
