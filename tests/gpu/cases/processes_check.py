#!/usr/bin/env python3
"""Known answers for the per-process records of the GPU suite's cases.

    processes_check.py REPORT.json KEY=VALUE...

checks the "processes" of cugraphrun's --json report of one file (or of
each point of a sweep, or of each file's report in a suite's document):
each record is whole and sane (launches, median, 10th percentile and IQR,
a driver version, a GPU UUID shared by all), the last one is the
reporting process's (its launches and median are the report's launch),
and for each KEY:

    processes=N       every file or point has N records
    distinct=N        the records' pids are distinct within each file or
                      point, and N pids in all (a suite's round runs its
                      files in one worker)
    clock=MHZ         every SM clock reading after the timed launches is
                      above MHZ (and every one before them measured)
    launches=N        every record has at least N launches
    exactly=N         every record has exactly N launches
    stop=A,B          every record's stopped_by is one of these
    precision=PCT     every record's precision_percent is at most PCT

Exits 1 with the reason otherwise.
"""

import json
import re
import sys

UUID = re.compile(r"^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def fail(msg):
    print("processes_check: " + msg)
    sys.exit(1)


def timed(report):
    """(name, launch, records) of each timed thing of one file's report."""
    if report.get("points"):
        if report["processes"] is not None:
            fail("a sweep's top-level processes is not null")
        return [(p["label"], p["launch"], p["processes"]) for p in report["points"]]
    return [(report["file"], report["launch"], report["processes"])]


def check_records(name, launch, recs, want):
    if not recs:
        fail("%s: no processes" % name)
    for r in recs:
        if r["launches"] < 1 or r["median_s"] is None or r["p10_s"] is None or \
                r["iqr_s"] is None or r["p10_s"] > r["median_s"] or r["iqr_s"] < 0:
            fail("%s: a record's figures do not hold together: %r" % (name, r))
        if r["driver_version"] < 12020 or not UUID.match(r["gpu_uuid"] or ""):
            fail("%s: driver or GPU UUID: %r" % (name, r))
    if len({r["gpu_uuid"] for r in recs}) != 1:
        fail("%s: the processes name different GPUs: %r" % (name, recs))
    last = recs[-1]
    if last["launches"] != launch["repeat"] or abs(last["median_s"] - launch["median_s"]) > \
            1e-12 + 1e-6 * launch["median_s"]:
        fail("%s: the last record is not the report's launch: %r, %r" % (name, last, launch))
    if "processes" in want and len(recs) != int(want["processes"]):
        fail("%s: %d records, not %s" % (name, len(recs), want["processes"]))
    if "distinct" in want and len({r["pid"] for r in recs}) != len(recs):
        fail("%s: the processes share a pid: %r" % (name, [r["pid"] for r in recs]))
    for r in recs:
        # an idle GPU may still be climbing from its idle clock (345 MHz on an
        # H100) at the first probe: that one need only have measured something
        floors = {"sm_clock_before_mhz": 100, "sm_clock_after_mhz": float(want.get("clock", 0))}
        for key, floor in floors.items():
            if "clock" in want and not (r[key] or 0) > floor:
                fail("%s: %s %r, not above %s MHz" % (name, key, r[key], floor))
        if "launches" in want and r["launches"] < int(want["launches"]):
            fail("%s: %d launches" % (name, r["launches"]))
        if "exactly" in want and r["launches"] != int(want["exactly"]):
            fail("%s: %d launches, not %s" % (name, r["launches"], want["exactly"]))
        if "stop" in want and r["stopped_by"] not in want["stop"].split(","):
            fail("%s: stopped by %s" % (name, r["stopped_by"]))
        if "precision" in want and not (r["precision_percent"] is not None and
                                        r["precision_percent"] <= float(want["precision"])):
            fail("%s: precision %r" % (name, r["precision_percent"]))


def main():
    doc = json.load(open(sys.argv[1]))
    want = dict(a.split("=", 1) for a in sys.argv[2:])
    reports = [f["report"] for f in doc["files"]] if "files" in doc else [doc]
    pids = set()
    for rep in reports:
        if rep["report_format"] != 2:
            fail("report_format %r" % rep["report_format"])
        for name, launch, recs in timed(rep):
            check_records(name, launch, recs, want)
            pids |= {r["pid"] for r in recs}
    if "distinct" in want and len(pids) != int(want["distinct"]):
        fail("%d pids in all, not %s: %r" % (len(pids), want["distinct"], sorted(pids)))


main()
