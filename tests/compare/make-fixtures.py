#!/usr/bin/env python3
"""Writes the --compare test fixtures in this folder: JSON reports in the
shape cugraphrun --json writes (one file, a sweep, a suite), with samples
drawn from a seeded generator so that the files never change.  Run it
again only to change them: python3 tests/compare/make-fixtures.py

The samples: about 100 us with 0.5% noise for a plain file; a sweep over
n with medians of 10, 20 and 40 us.  What each "new" file is against its
base is in its name: same, slower (+15%), faster (x0.5), noisy (2% noise,
+5%: its interval straddles +5%).
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


def report(file, s=None, points=None):
    r = {
        "cugraphrun": "0.1.0", "report_format": 1, "name": None, "file": file,
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
    return r


def point(n, s):
    return {"label": "n=2^%d" % n, "axes": {"n": "2^%d" % n},
            "prepare": {"kind": "update", "seconds": 1e-06, "reason": None, "updated_nodes": 1},
            "first_launch_s": 2e-05, "launch": launch(s), "checks": {"passed": 1, "failed": 0},
            "throughput": None, "exit_status": 0}


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


rng = random.Random(22)
base = samples(rng, 100e-6, 0.005)
write("base-plain.json", report("examples/spin.yaml", base))
write("same-plain.json", report("examples/spin.yaml", samples(rng, 100.3e-6, 0.005)))
write("slower-plain.json", report("./examples//spin.yaml", samples(rng, 115e-6, 0.005)))
write("faster-plain.json", report("examples/spin.yaml", samples(rng, 50e-6, 0.005)))
write("noisy-plain.json", report("examples/spin.yaml", samples(rng, 104.8e-6, 0.02, 20)))
write("other-plain.json", report("elsewhere/spin.yaml", samples(rng, 100e-6, 0.005)))

# a sweep over n: 2^10..2^12 in the base; 2^11..2^13 now, 2^12 slower
write("base-sweep.json", report("sweep.yaml", None, [
    point(10, samples(rng, 10e-6, 0.005)), point(11, samples(rng, 20e-6, 0.005)),
    point(12, samples(rng, 40e-6, 0.005))]))
new_points = [point(11, samples(rng, 20e-6, 0.005)), point(12, samples(rng, 48e-6, 0.005)),
              point(13, samples(rng, 80e-6, 0.005))]
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
    entry("a.yaml", report("a.yaml", samples(rng, 30e-6, 0.005))),
    entry("b.yaml", report("b.yaml", samples(rng, 60e-6, 0.005))),
    entry("c.yaml", None, "error", 3),
    entry("d.yaml", report("d.yaml", samples(rng, 5e-6, 0.005)))]))
write("new-suite.json", suite([
    entry("a.yaml", report("a.yaml", samples(rng, 30e-6, 0.005))),
    entry("b.yaml", report("b.yaml", samples(rng, 70e-6, 0.005))),
    entry("c.yaml", report("c.yaml", samples(rng, 7e-6, 0.005)))]))

# jittery: 20% noise over 200 launches, +8%: beyond the 5% threshold, but
# within the runs' own noise, so SAME (the threshold becomes the noise)
write("jittery-plain.json", report("examples/spin.yaml", samples(rng, 108e-6, 0.2, 200)))

# mode: a process that settled into a slower mode after 25 launches (the
# stencil example on the H100: 15 us in some processes, 23 us in others):
# its median is 40% above the base's, its floor (10th percentile) is not,
# so UNCERTAIN (floors_agree), not SLOWER
write("mode-plain.json", report("examples/spin.yaml",
                                samples(rng, 100e-6, 0.005, 25) + samples(rng, 140e-6, 0.005, 75)))
# few: three launches 15% slower: a narrow interval from three samples means
# nothing, so UNCERTAIN (few_launches)
write("few-plain.json", report("examples/spin.yaml", samples(rng, 115e-6, 0.005, 3)))
# split: a fifth of the launches faster than the base, the rest 40% slower:
# the median moved up, the floor down, beyond the threshold both ways, so
# UNCERTAIN (floors_agree: the floor moved the other way)
write("split-plain.json", report("examples/spin.yaml",
                                 samples(rng, 80e-6, 0.005, 20) + samples(rng, 140e-6, 0.005, 80)))
