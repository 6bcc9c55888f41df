#!/usr/bin/env python3
"""Writes the --html test fixtures in this folder: --json reports of
report_format 2 as a GPU run writes them (one file, a sweep, a suite, and
one whose every string is hostile), for the page to be made from without
a GPU.  Each carries its description as cugraphrun writes it: the script
asks the built cugraphrun for it (--describe with --json runs nothing and
writes the report with its description).  Timing figures come from a
seeded generator, so that the files never change unless the description
does.  Run it again only to change them:

    CUGRAPHRUN=build/cugraphrun python3 tests/html/make-fixtures.py

plain.json   examples/events.yaml with its buffers: 200 launches in the
             last of 3 processes, a profile (the description coloured as
             --profile colours it), a comparison with a base, a warning
sweep.json   examples/sweep-saxpy.yaml over n = 2^10..2^24 and a second
             axis T (two lines), with GB/s and a process per point
suite.json   a suite of five: a check failed, an invalid file (no launch,
             errors with positions), a timeout (no report), a skip, a pass
hostile.json names, paths, ids, labels and messages full of <, &, quotes,
             </script>, control characters and stray bytes
"""
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CUGRAPHRUN = os.environ.get("CUGRAPHRUN", os.path.join(TOP, "build", "cugraphrun"))
DEVICE = {"ordinal": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
          "sm": "sm_90", "driver_version": 13000, "driver": "13.0",
          "peak_bandwidth_gb_per_s": 3352}


def described(example, buffers=False):
    """The no-run report of examples/EXAMPLE, as cugraphrun writes it: its graph and description."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        args = [CUGRAPHRUN, "--describe=" + os.path.join(tmp, "d.dot"), "--json=" + out]
        if buffers:
            args.append("--describe-buffers")
        subprocess.run(args + ["examples/" + example], cwd=TOP, check=True)
        with open(out) as f:
            return json.load(f)


def samples(rng, median, noise, n):
    # a floor and a tail, as launches have: log-normal noise above 97% of the median
    return [round(median * (0.97 + 0.03 * math.exp(rng.gauss(0, noise * 10))), 12)
            for _ in range(n)]


def launch(s, warmup=3):
    s2 = sorted(s)
    n = len(s)
    med = s2[n // 2] if n % 2 else (s2[n // 2 - 1] + s2[n // 2]) / 2
    mean = sum(s) / n
    sd = (sum((x - mean) ** 2 for x in s) / (n - 1)) ** 0.5
    return {"repeat": n, "warmup": warmup, "median_s": med, "min_s": s2[0], "mean_s": mean,
            "max_s": s2[-1], "stddev_s": sd, "samples_s": s}


def process(rng, pid, s, stopped="precision"):
    s2 = sorted(s)
    n = len(s2)
    return {"pid": pid, "launches": n, "stopped_by": stopped,
            "precision_percent": round(rng.uniform(0.1, 0.5), 4),
            "median_s": s2[n // 2], "p10_s": s2[n // 10],
            "iqr_s": s2[3 * n // 4] - s2[n // 4],
            "sm_clock_mhz": 1980, "sm_clock_before_mhz": 1980, "sm_clock_after_mhz": 1980,
            "gpu_uuid": "GPU-8d1c2f3e-5a6b-7c8d-9e0f-112233445566", "driver_version": 13000}


def comparison(file, point, base, median, shift, verdict, because, why, base_path):
    """--compare's object, as compare.c writes it: process against process."""
    return {
        "base": base_path, "base_reports": 1,
        "method": {"unit": "process",
                   "statistic": "Hodges-Lehmann shift of the processes' median launch times "
                                "(this / base)",
                   "test": "Mann-Whitney U, two-sided, exact", "alpha": 0.001,
                   "min_launches": 10},
        "threshold_percent": 5, "note": None,
        "entries": [{"file": file, "point": point, "base_processes": 13, "processes": 4,
                     "base_median_s": base, "median_s": median, "shift": shift,
                     "shift_cycles": None, "p_value": 0.00042, "p_min": 0.00042,
                     "spread_percent": 1.2, "threshold_percent": 5, "clock_ratio": 1.0,
                     "verdict": verdict, "uncertain_because": because, "why": why,
                     "apart": False}],
        "only_here": [], "only_in_base": [],
        "counts": {"same": int(verdict == "same"), "faster": int(verdict == "faster"),
                   "uncertain": int(verdict == "uncertain"),
                   "slower": int(verdict == "slower"), "apart": 0}}


def timed(r, rng):
    """A no-run report made a run's: the device, the phases and what a run always has."""
    r["device"] = DEVICE
    r["phases"] = {"load_s": 0.0021, "build_s": 0.00034, "instantiate_s": 0.00051,
                   "upload_s": 2.1e-05, "compile_s": None}
    r["file"] = r["file"].replace(TOP + "/", "")
    return r


def profiled(dot, fills, path):
    """The description as --profile colours it: each node filled, the path bold."""
    extra = "".join('\t%s\t[fillcolor="%s", style=filled%s];\n' %
                    (n, c, ", penwidth=3" if n in path else "") for n, c in fills.items())
    return dot.rstrip().rstrip("}") + extra + "}\n"


def plain(rng):
    r = timed(described("events.yaml", buffers=True), rng)
    procs = []
    for k, pid in enumerate((41230, 41251, 41274)):
        s = samples(rng, 48.2e-6 * (1 + 0.004 * k), 0.004, 200)
        procs.append(process(rng, pid, s))
    r["launch"] = launch(s, 2)
    r["processes"] = procs
    r["first_launch_s"] = 0.000131
    r["events"] = [{"from": "start", "to": "mid", "seconds": 2.21e-05},
                   {"from": "mid", "to": "stop", "seconds": 2.24e-05}]
    r["checks"] = {"passed": 3, "failed": 0}
    r["diagnostics"] = [{
        "file": "examples/events.yaml", "line": 22, "column": 7, "severity": "warning",
        "message": "kernel 'product1': 512 threads a block use 40 registers each", "notes": []}]
    nodes = [("product1", "kernel", 21.9e-6, 0.46), ("product2", "kernel", 22.1e-6, 0.47),
             ("first_row", "copy", 1.6e-6, 0.03)]
    r["profile"] = {
        "launches": 20, "median_s": 50.1e-6, "samples_s": samples(rng, 50.1e-6, 0.004, 20),
        "plain_median_s": r["launch"]["median_s"], "cost_ratio": 1.04, "records": 60,
        "unmapped_records": 0, "dropped_records": 0, "incomplete_records": 0,
        "nodes": [{"id": i, "kind": k, "executions": 1, "executions_total": 20,
                   "median_s": t, "min_s": t * 0.99, "max_s": t * 1.03, "per_launch_s": t,
                   "share": sh, "on_critical_path": True, "disabled": False,
                   "durations_s": [t] * 20} for i, k, t, sh in nodes],
        "critical_path": {"total_s": 45.6e-6, "launch_median_s": 50.1e-6,
                          "overhead_and_gaps_s": 4.5e-6,
                          "steps": [{"id": i, "kind": k, "depth": 0, "time_s": t}
                                    for i, k, t, _ in nodes]}}
    r["description"] = profiled(r["description"], {"product1": "#f27a33", "product2": "#f17633",
                                                   "first_row": "#fff9c4"},
                                {"product1", "product2", "first_row"})
    base = r["launch"]["median_s"] / 1.08
    r["comparison"] = comparison(r["file"], None, base, r["launch"]["median_s"], 1.08, "slower",
                                 None, None, "base/events.json")
    r["exit_status"] = 4
    return r


def sweep(rng):
    r = timed(described("sweep-saxpy.yaml"), rng)
    r["launch"] = None
    r["processes"] = None
    r["first_launch_s"] = 0.000102
    points = []
    for t, width in (("f32", 4), ("f64", 8)):
        for k in range(10, 25):
            n = 2 ** k
            nbytes = 3 * n * width
            med = 2.4e-6 + nbytes / 2.9e12
            s = samples(rng, med, 0.006, 100)
            lf = launch(s)
            gb = nbytes / lf["median_s"] / 1e9
            points.append({
                "label": "n=2^%d,T=%s" % (k, t), "axes": {"n": "2^%d" % k, "T": t},
                "prepare": {"kind": "instantiate" if not points else "update",
                            "seconds": 0.00041 if not points else 1.2e-05,
                            "evaluate_s": 3e-05, "reason": None,
                            "updated_nodes": 0 if not points else 1},
                "first_launch_s": med * 3, "launch": lf,
                "processes": [process(rng, 52000 + len(points), s, "count")],
                "checks": {"passed": 1, "failed": 0},
                "throughput": {"bytes": nbytes, "items": n, "gb_per_s": gb,
                               "items_per_s": n / lf["median_s"],
                               "peak_percent": 100 * gb / 3352},
                "exit_status": 0})
    r["points"] = points
    r["throughput"] = None
    r["checks"] = {"passed": len(points), "failed": 0}
    return r


def suite(rng):
    good = timed(described("saxpy.yaml"), rng)
    s = samples(rng, 7.9e-6, 0.005, 300)
    good.update(launch=launch(s), processes=[process(rng, 61001, s)], first_launch_s=4e-05,
                checks={"passed": 1, "failed": 0})
    failed = timed(described("if-else.yaml"), rng)
    s = samples(rng, 12.4e-6, 0.005, 100)
    failed.update(launch=launch(s), processes=[process(rng, 61002, s, "count")],
                  first_launch_s=5e-05, checks={"passed": 1, "failed": 1}, exit_status=1,
                  diagnostics=[{"file": "examples/if-else.yaml", "line": 41, "column": 5,
                                "severity": "error",
                                "message": "check of 'out' failed: element 3 is 0, expected 1 "
                                           "(and 1023 more differ)",
                                "notes": [{"file": "examples/if-else.yaml", "line": 12,
                                           "column": 3, "message": "'out' is declared here"}]}])
    invalid = {"cugraphrun": "0.1.0", "report_format": 2, "name": None,
               "file": "graphs/broken.yaml", "device": None, "graph": None, "disabled": [],
               "phases": {"load_s": 0.00012, "build_s": 0, "instantiate_s": 0,
                          "upload_s": 0, "compile_s": None},
               "compile": None, "first_launch_s": None, "launch": None, "processes": None,
               "graph_memory": None, "events": [], "throughput": None,
               "checks": {"passed": 0, "failed": 0}, "exit_status": 2,
               "diagnostics": [
                   {"file": "graphs/broken.yaml", "line": 9, "column": 22, "severity": "error",
                    "message": "unknown buffer 'nope'; the buffers are x, y", "notes": []},
                   {"file": "graphs/broken.yaml", "line": 14, "column": 7, "severity": "error",
                    "message": "node 'k2' depends on 'k9', which is no node of this graph",
                    "notes": []}],
               "description": None}
    entries = [
        {"file": "examples/saxpy.yaml", "result": "passed", "expected_failure": False,
         "exit_status": 0, "seconds": 0.412, "device": 0, "report": good},
        {"file": "examples/if-else.yaml", "result": "failed", "expected_failure": False,
         "exit_status": 1, "seconds": 0.388, "device": 0,
         "message": "examples/if-else.yaml:41:5: error: check of 'out' failed",
         "report": failed},
        {"file": "graphs/broken.yaml", "result": "error", "expected_failure": False,
         "exit_status": 2, "seconds": 0.003, "device": 0,
         "message": "graphs/broken.yaml:9:22: error: unknown buffer 'nope'", "report": invalid},
        {"file": "graphs/spin.yaml", "result": "timeout", "expected_failure": False,
         "exit_status": 124, "seconds": 10.02, "device": 0,
         "message": "a launch did not finish within 10 s", "report": None},
        {"file": "examples/two-gpus.yaml", "result": "skipped", "expected_failure": False,
         "exit_status": 0, "seconds": 0.001, "device": None,
         "skip_reason": "needs 2 GPUs, and this machine has 1", "report": None},
    ]
    return {"files": entries,
            "summary": {"passed": 1, "failed": 1, "skipped": 1, "errors": 1, "timeouts": 1,
                        "slower": 0},
            "exit_status": 124}


def hostile(rng):
    evil = "<script>alert(1)</script>&amp;\"'<!-- --></textarea>\x01\x1b[31m\x7f\u0085"
    r = timed(described("saxpy.yaml"), rng)
    s = samples(rng, 7.9e-6, 0.005, 50)
    r.update(name=evil, file="graphs/" + evil + ".yaml", launch=launch(s),
             processes=[process(rng, 1, s)], first_launch_s=4e-05,
             checks={"passed": 1, "failed": 0})
    r["processes"][0]["stopped_by"] = evil
    r["processes"][0]["gpu_uuid"] = evil
    r["disabled"] = [evil]
    r["events"] = [{"from": evil, "to": evil, "seconds": 1e-06}]
    r["diagnostics"] = [{"file": evil, "line": 1, "column": 1, "severity": evil,
                         "message": evil, "notes": [{"file": evil, "line": 2, "column": 3,
                                                     "message": evil}]}]
    r["graph"]["by_kind"] = {evil: 1}
    # a label and a graph name as a YAML file may give them: DOT quotes them, SVG escapes them
    r["description"] = re.sub(r"^digraph \S+", 'digraph "%s"' % evil.replace('"', '\\"')
                              .replace("\x01", "").replace("\x1b", "").replace("\x7f", ""),
                              r["description"])
    r["description"] = r["description"].replace(
        "label=saxpy", 'label="%s"' % evil.replace('"', '\\"'), 1)
    r["profile"] = {"launches": 1, "median_s": 8e-6, "samples_s": [8e-6], "plain_median_s": None,
                    "cost_ratio": None, "records": 1, "unmapped_records": 0,
                    "dropped_records": 0, "incomplete_records": 0,
                    "nodes": [{"id": evil, "kind": evil, "executions": 1,
                               "executions_total": 1, "median_s": 8e-6, "min_s": 8e-6,
                               "max_s": 8e-6, "per_launch_s": 8e-6, "share": 1,
                               "on_critical_path": True, "disabled": True,
                               "durations_s": [8e-6]}],
                    "critical_path": {"total_s": 8e-6, "launch_median_s": 8e-6,
                                      "overhead_and_gaps_s": 0,
                                      "steps": [{"id": evil, "kind": evil, "depth": 0,
                                                 "time_s": 8e-6}]}}
    r["comparison"] = comparison(evil, evil, 8e-6, 8.4e-6, 1.05, "uncertain", "outlier", evil,
                                 evil)
    r["comparison"]["note"] = evil
    r["comparison"]["only_here"] = [evil]
    r["comparison"]["only_in_base"] = [evil]
    return r


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    rng = random.Random(36)
    write("plain.json", plain(rng))
    write("sweep.json", sweep(rng))
    write("suite.json", suite(rng))
    write("hostile.json", hostile(rng))


if __name__ == "__main__":
    sys.exit(main())
