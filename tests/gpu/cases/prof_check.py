#!/usr/bin/env python3
"""Known answers for the --profile cases of the GPU suite.

    prof_check.py chain REPORT.json TRACE.json
    prof_check.py fan   REPORT.json TRACE.json FAN.dot
    prof_check.py cond  REPORT.json TRACE.json
    prof_check.py big   REPORT.json

Each mode checks cugraphrun's --json report (and its --trace file) against
what the case's graph must give, and exits 1 with the reason otherwise.

The trace is checked as a trace-event parser reads it (no Perfetto trace
processor is packaged for Debian or npm, and the GPU machine reaches no
network): strict JSON (no NaN or Infinity), the JSON object form with
traceEvents, and each event by the Trace Event Format's rules for its
phase: complete events ("X") with a name, a category, numeric ts >= 0 and
dur >= 0 in microseconds, integer pid and tid, and an args object;
metadata events ("M", category "__metadata") naming the process and
threads; every event has a category (Chrome DevTools' TracingModel fails
on one without).  On each track,
complete events must nest or follow each other (Perfetto rejects slices
that partly overlap), and every track used must be named.
"""

import json
import math
import sys

US = 1e-6


def fail(msg):
    print("prof_check: " + msg)
    sys.exit(1)


def reject_constant(name):
    fail("trace holds %s, which is no JSON" % name)


def load_trace(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f, parse_constant=reject_constant)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("trace: not an object with a traceEvents list")
    named = set()
    used = {}
    for i, e in enumerate(doc["traceEvents"]):
        where = "trace event %d" % i
        if not isinstance(e, dict):
            fail(where + ": not an object")
        ph = e.get("ph")
        for key in ("pid", "tid"):
            if not isinstance(e.get(key), int) or isinstance(e.get(key), bool):
                fail(where + ": %s is not an integer" % key)
        if not isinstance(e.get("name"), str) or not e["name"]:
            fail(where + ": no name")
        if not isinstance(e.get("args"), dict):
            fail(where + ": args is not an object")
        if not isinstance(e.get("cat"), str):
            fail(where + ": no category (DevTools' parser needs one on every event)")
        if ph == "M":
            if e["name"] not in ("process_name", "thread_name", "thread_sort_index"):
                fail(where + ": unknown metadata " + e["name"])
            if e["name"] == "thread_name":
                if not isinstance(e["args"].get("name"), str):
                    fail(where + ": thread_name without a name")
                named.add((e["pid"], e["tid"]))
        elif ph == "X":
            for key in ("ts", "dur"):
                v = e.get(key)
                if not isinstance(v, (int, float)) or isinstance(v, bool) or \
                        not math.isfinite(v) or v < 0:
                    fail(where + ": %s is not a number >= 0" % key)
            used.setdefault((e["pid"], e["tid"]), []).append(e)
        else:
            fail(where + ": phase %r is not one cugraphrun writes" % (ph,))
    for track, evs in used.items():
        if track not in named:
            fail("trace: track %s has no thread_name" % (track,))
        evs = sorted(evs, key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in evs:
            while stack and stack[-1] <= e["ts"] + 1e-6:
                stack.pop()
            end = e["ts"] + e["dur"]
            if stack and end > stack[-1] + 1e-6:
                fail("trace: on track %s, %r partly overlaps the slice before it"
                     % (track, e["name"]))
            stack.append(end)
    return doc


def nodes_of(report):
    p = report.get("profile")
    if not isinstance(p, dict):
        fail("report: no profile object")
    if p["dropped_records"] != 0:
        fail("CUPTI dropped %d records" % p["dropped_records"])
    if p["unmapped_records"] != 0:
        fail("%d records mapped to no node" % p["unmapped_records"])
    return p, {n["id"]: n for n in p["nodes"]}


def near(what, got, want, tol=0.10):
    if not abs(got - want) <= tol * want:
        fail("%s: %.2f us, expected %.2f us within %d%%"
             % (what, got / US, want / US, round(tol * 100)))


def path_ids(p, depth=None):
    return [s["id"] for s in p["critical_path"]["steps"]
            if depth is None or s["depth"] == depth]


def node_events(trace, name, launch=1):
    return [e for e in trace["traceEvents"] if e.get("ph") == "X" and e["name"] == name
            and e["args"].get("launch") == launch]


def check_chain(report, trace):
    p, nodes = nodes_of(report)
    for nid, us in (("s10", 10), ("s20", 20), ("s40", 40)):
        n = nodes[nid]
        if n["executions"] != 1 or len(n["durations_s"]) != p["launches"]:
            fail("%s ran %s times per launch, expected 1" % (nid, n["executions"]))
        near(nid + " median", n["median_s"], us * US)
    if path_ids(p) != ["s10", "s20", "s40"]:
        fail("critical path %s, expected s10 -> s20 -> s40" % path_ids(p))
    near("critical path", p["critical_path"]["total_s"], 70 * US)
    for nid in ("s10", "s20", "s40"):
        evs = node_events(trace, nid)
        if len(evs) != 1 or evs[0]["args"].get("grid") != [1, 1, 1] or \
                evs[0]["args"].get("kernel") != "spin":
            fail("trace: %s in launch 1: %r" % (nid, evs))


def check_fan(report, trace, dot):
    p, nodes = nodes_of(report)
    for nid, us in (("b10", 10), ("b20", 20), ("b40", 40)):
        if nodes[nid]["executions"] != 1:
            fail("%s ran %s times per launch" % (nid, nodes[nid]["executions"]))
        near(nid + " median", nodes[nid]["median_s"], us * US)
    if path_ids(p) != ["fork", "b40", "join"]:
        fail("critical path %s, expected fork -> b40 -> join" % path_ids(p))
    near("critical path", p["critical_path"]["total_s"], 40 * US)
    # overlap: in every launch some branches run at once, each on a track of
    # its own, and the longest branch runs beside another in some launch.
    # Not all three at once, nor b40 beside each: with CUPTI attached the
    # branches start microseconds apart, and a short branch may end before
    # another starts (an H100 suite run once had no launch of ten with all
    # three at once; another had b10 done at 10.9 us in every launch, before
    # b20 started at 23 us and b40 at 30 us).
    beside = 0
    first = []
    for launch in range(1, p["launches"] + 1):
        ev = {nid: node_events(trace, nid, launch) for nid in ("b10", "b20", "b40")}
        if any(len(v) != 1 for v in ev.values()):
            fail("trace: launch %d lacks a branch: %r" % (launch, ev))
        spans = {k: (v[0]["ts"], v[0]["ts"] + v[0]["dur"]) for k, v in ev.items()}
        if len(first) < 3:
            first.append(spans)
        pairs = [(a, b) for a in spans for b in spans if a < b and
                 spans[a][0] < spans[b][1] and spans[b][0] < spans[a][1]]
        if not pairs:
            fail("trace: no branches overlap in launch %d: %r" % (launch, spans))
        for a, b in pairs:
            if ev[a][0]["tid"] == ev[b][0]["tid"]:
                fail("trace: overlapping %s and %s share a track" % (a, b))
            if b == "b40":
                beside += 1
    if beside == 0:
        fail("trace: b40 never ran beside another branch; the first launches' spans: %r"
             % first)
    text = open(dot, encoding="utf-8").read()
    for want in ("fillcolor", "penwidth", "filled,bold"):
        if want not in text:
            fail("coloured description lacks %s" % want)


def check_cond(report, trace):
    p, nodes = nodes_of(report)
    want = {"set_left": 1, "reset_runs": 1, "cp": 1, "open": 1, "tick": 7,
            "body_set": 7, "countdown": 7, "k_yes": 1, "k_not": 0, "k_child": 1}
    for nid, runs in want.items():
        n = nodes.get(nid)
        if n is None:
            fail("no node %s in the profile" % nid)
        if n["executions"] != runs or n["executions_total"] != runs * p["launches"]:
            fail("%s ran %s times per launch (%d in all), expected %d"
                 % (nid, n["executions"], n["executions_total"], runs))
    for nid in ("set_left", "reset_runs", "cp", "body_set"):
        n = nodes[nid]
        if not n["median_s"] or n["median_s"] <= 0 or len(n["durations_s"]) == 0:
            fail("%s (%s) has no time" % (nid, n["kind"]))
    if nodes["cp"]["kind"] != "copy" or nodes["body_set"]["kind"] != "memset":
        fail("kinds: %s %s" % (nodes["cp"]["kind"], nodes["body_set"]["kind"]))
    root = ["set_left", "reset_runs", "cp", "open", "loop", "if_taken", "if_not", "sub"]
    if path_ids(p, 0) != root:
        fail("critical path at the root %s, expected %s" % (path_ids(p, 0), root))
    steps = p["critical_path"]["steps"]
    loop = [s for s in steps if s["id"] == "loop"][0]
    if loop.get("iterations") != 7:
        fail("loop step: %r" % loop)
    if "k_not" in path_ids(p) or "tick" not in path_ids(p, 1):
        fail("critical path %s" % path_ids(p))
    if len(node_events(trace, "tick")) != 7 or node_events(trace, "k_not"):
        fail("trace: tick %d times, k_not %d times in launch 1"
             % (len(node_events(trace, "tick")), len(node_events(trace, "k_not"))))


def check_big(report):
    p, nodes = nodes_of(report)
    if len(nodes) != 10000:
        fail("%d nodes in the profile, expected 10000" % len(nodes))
    bad = [n["id"] for n in nodes.values() if n["executions_total"] != p["launches"]]
    if bad:
        fail("%d nodes without one record per launch, e.g. %s" % (len(bad), bad[:5]))
    if p["records"] != 10000 * p["launches"]:
        fail("%d records, expected %d" % (p["records"], 10000 * p["launches"]))
    if len(path_ids(p)) != 10000:
        fail("critical path of %d nodes, expected the whole chain" % len(path_ids(p)))


def main():
    mode, report_path = sys.argv[1], sys.argv[2]
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    if mode == "big":
        check_big(report)
    else:
        trace = load_trace(sys.argv[3])
        if mode == "chain":
            check_chain(report, trace)
        elif mode == "fan":
            check_fan(report, trace, sys.argv[4])
        elif mode == "cond":
            check_cond(report, trace)
        else:
            fail("unknown mode " + mode)
    print("prof_check: %s: ok" % mode)


if __name__ == "__main__":
    main()
