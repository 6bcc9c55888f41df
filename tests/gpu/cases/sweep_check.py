#!/usr/bin/env python3
"""Known answers for the sweep cases of the GPU suite.

    sweep_check.py REPORT.json KEY=VALUE...

checks cugraphrun's --json report of a sweep: the top-level launch is null
and there is one object in "points" per point, each with its samples;
then, for each KEY (a comma-separated list, one item per point, in the
order the points ran):

    labels=n=1,n=2        each point's label (items separated by ';' here)
    kinds=instantiate,update,...   prepare.kind
    updated=0,1,...       prepare.updated_nodes
    passed=1,1,...        checks.passed
    failed=0,1,...        checks.failed
    exit=0,1,...          exit_status
    repeat=N              every point has N samples, each above 0
    reason=I:TEXT         point I's prepare.reason holds TEXT (repeatable)
    noreason=I,J,...      those points have no reason (null)
    status=N              the report's exit_status

Exits 1 with the reason otherwise.
"""

import json
import sys


def fail(msg):
    print("sweep_check: " + msg)
    sys.exit(1)


def main():
    r = json.load(open(sys.argv[1]))
    if r.get("launch") is not None:
        fail("the top-level launch of a sweep is not null: %r" % r.get("launch"))
    pts = r.get("points")
    if not isinstance(pts, list) or not pts:
        fail("no points")
    for i, p in enumerate(pts):
        for key in ("label", "axes", "prepare", "first_launch_s", "launch", "checks",
                    "throughput", "exit_status"):
            if key not in p:
                fail("point %d has no %s" % (i, key))
        prep = p["prepare"]
        if not (isinstance(prep["seconds"], (int, float)) and prep["seconds"] > 0):
            fail("point %d: prepare.seconds %r" % (i, prep["seconds"]))
        if not (isinstance(prep["evaluate_s"], (int, float)) and prep["evaluate_s"] >= 0):
            fail("point %d: prepare.evaluate_s %r" % (i, prep["evaluate_s"]))
        if not p["first_launch_s"] > 0:
            fail("point %d: first_launch_s %r" % (i, p["first_launch_s"]))
        if ",".join("%s=%s" % kv for kv in p["axes"].items()) != p["label"]:
            fail("point %d: axes %r do not make the label %r" % (i, p["axes"], p["label"]))
    fields = {
        "kinds": lambda p: p["prepare"]["kind"],
        "updated": lambda p: str(p["prepare"]["updated_nodes"]),
        "passed": lambda p: str(p["checks"]["passed"]),
        "failed": lambda p: str(p["checks"]["failed"]),
        "exit": lambda p: str(p["exit_status"]),
    }
    for arg in sys.argv[2:]:
        key, _, value = arg.partition("=")
        if key == "labels":
            want = value.split(";")
            got = [p["label"] for p in pts]
            if got != want:
                fail("labels %r, want %r" % (got, want))
        elif key in fields:
            want = value.split(",")
            got = [fields[key](p) for p in pts]
            if got != want:
                fail("%s %r, want %r" % (key, got, want))
        elif key == "repeat":
            for i, p in enumerate(pts):
                s = p["launch"]["samples_s"]
                if len(s) != int(value) or not all(x > 0 for x in s):
                    fail("point %d: samples %r, want %s above 0" % (i, s, value))
        elif key == "reason":
            i, _, text = value.partition(":")
            why = pts[int(i)]["prepare"]["reason"]
            if why is None or text not in why:
                fail("point %s: reason %r lacks %r" % (i, why, text))
        elif key == "noreason":
            for i in value.split(","):
                if pts[int(i)]["prepare"]["reason"] is not None:
                    fail("point %s: reason %r, want none" % (i, pts[int(i)]["prepare"]["reason"]))
        elif key == "status":
            if r["exit_status"] != int(value):
                fail("exit_status %r, want %s" % (r["exit_status"], value))
        else:
            fail("unknown key %r" % key)
    print("sweep_check: %d points as expected" % len(pts))


if __name__ == "__main__":
    main()
