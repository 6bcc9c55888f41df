#!/usr/bin/env python3
"""Known answers for the modes cases of the GPU suite (cugraphrun(1) MODES).

    modes_check.py REPORT.json KEY=VALUE...

checks cugraphrun's --json report of a run in modes: the top-level launch
is null, "points" and "modes" list the same rows in the same order, and
each row has the figures its mode has (prepare_s above 0; instantiate_s
and upload_s null in stream mode alone; first_launch_s, gpu_s, submit_s
and wall_s above 0 when the row ran launches; loop_launches its timed
launches' count; break_even null in stream mode alone, else a count, a
"never" or a null each).  Then, for each KEY (lists have one item per
row, in order):

    labels=a;b;c          each row's label (items separated by ';')
    passed=1,1,1          checks.passed of each row
    failed=0,0,0          checks.failed of each row
    streams=1,4,4         streams of each row
    waits=0,3,0           host_waits of each row ('+' for any above 0)
    faster=1              in every point, graph mode's GPU time per launch
                          is below stream mode's, and its break-even (wall
                          and GPU) a count of launches
    capture=PCT           in every point, capture mode's GPU time per
                          launch within PCT percent of graph mode's
    status=N              the report's exit_status

Exits 1 with the reason otherwise.
"""

import json
import sys


def fail(msg):
    print("modes_check: " + msg)
    sys.exit(1)


def pos(v):
    return isinstance(v, (int, float)) and v > 0


def point_of(row):
    """The row's label without its mode: the point it belongs to."""
    return ",".join(p for p in row["label"].split(",") if not p.startswith("mode="))


def main():
    r = json.load(open(sys.argv[1]))
    if r.get("launch") is not None:
        fail("the top-level launch of a run in modes is not null")
    pts, modes = r.get("points"), r.get("modes")
    if not pts or not modes or len(pts) != len(modes):
        fail("points and modes differ: %r, %r" % (pts and len(pts), modes and len(modes)))
    for i, (p, m) in enumerate(zip(pts, modes)):
        if p["label"] != m["label"] or p["axes"].get("mode") != m["mode"]:
            fail("row %d: point %r, mode row %r" % (i, p["label"], m["label"]))
        stream = m["mode"] == "stream"
        if not pos(m["prepare_s"]):
            fail("row %d: prepare_s %r" % (i, m["prepare_s"]))
        if stream != (m["instantiate_s"] is None) or stream != (m["upload_s"] is None):
            fail("row %d (%s): instantiate_s %r, upload_s %r" % (i, m["mode"], m["instantiate_s"],
                                                                  m["upload_s"]))
        if stream != (m["break_even"] is None):
            fail("row %d (%s): break_even %r" % (i, m["mode"], m["break_even"]))
        ran = p["launch"]["repeat"] > 0
        if m["loop_launches"] != p["launch"]["repeat"]:
            fail("row %d: loop_launches %r, repeat %r" % (i, m["loop_launches"],
                                                          p["launch"]["repeat"]))
        for key in ("first_launch_s",) + (("gpu_s", "submit_s", "wall_s") if ran else ()):
            if not pos(m[key]):
                fail("row %d: %s %r" % (i, key, m[key]))
        if not stream:
            for k in ("wall", "gpu"):
                v = m["break_even"][k]
                if not (v is None or v == "never" or (isinstance(v, int) and v >= 1)):
                    fail("row %d: break_even.%s %r" % (i, k, v))
    by_point = {}
    for m in modes:
        by_point.setdefault(point_of(m), {})[m["mode"]] = m
    lists = {
        "passed": lambda i: str(pts[i]["checks"]["passed"]),
        "failed": lambda i: str(pts[i]["checks"]["failed"]),
        "streams": lambda i: str(modes[i]["streams"]),
    }
    for arg in sys.argv[2:]:
        key, _, want = arg.partition("=")
        if key == "labels":
            got = [m["label"] for m in modes]
            if got != want.split(";"):
                fail("labels %r, expected %r" % (got, want.split(";")))
        elif key in lists:
            got = ",".join(lists[key](i) for i in range(len(modes)))
            if got != want:
                fail("%s %s, expected %s" % (key, got, want))
        elif key == "waits":
            for i, w in enumerate(want.split(",")):
                h = modes[i]["host_waits"]
                if (w == "+" and h < 1) or (w != "+" and h != int(w)):
                    fail("row %d: host_waits %r, expected %s" % (i, h, w))
        elif key == "faster":
            for name, ms in by_point.items():
                g, s = ms["graph"], ms["stream"]
                if not g["gpu_s"] < s["gpu_s"]:
                    fail("%s: graph %r s a launch, not below stream's %r" % (name, g["gpu_s"],
                                                                             s["gpu_s"]))
                if not isinstance(g["break_even"]["gpu"], int):
                    fail("%s: graph's break-even from GPU time %r" % (name, g["break_even"]))
        elif key == "capture":
            for name, ms in by_point.items():
                g, c = ms["graph"]["gpu_s"], ms["capture"]["gpu_s"]
                if abs(c / g - 1) * 100 > float(want):
                    fail("%s: capture %r s a launch against graph's %r: beyond %s%%" % (
                        name, c, g, want))
        elif key == "status":
            if r["exit_status"] != int(want):
                fail("exit_status %r, expected %s" % (r["exit_status"], want))
        else:
            fail("unknown key " + key)
    print("modes_check: %d rows as expected" % len(modes))


if __name__ == "__main__":
    main()
