#!/usr/bin/env python3
"""The --profile report and --trace of a file on two devices
(multi-profile.yaml): every record mapped to a node, each node with its
device, and each GPU's work in its own process of the trace.

    multi_profile.py REPORT.json TRACE.json NODE=DEVICE...

Each NODE=DEVICE is a kernel, memset or copy node of the file and the
device it runs on.  Kernels must run once per launch and sit in the
trace's process of their device (1 + device); copies between the GPUs
must have run (CUPTI's MEMCPY2 records) and sit in some GPU's process.
"""
import json
import sys


def main():
    rep = json.load(open(sys.argv[1]))
    trace = json.load(open(sys.argv[2]))
    want = dict((a.split("=")[0], int(a.split("=")[1])) for a in sys.argv[3:])
    prof = rep["profile"]
    assert prof["unmapped_records"] == 0, "records of no node: %d" % prof["unmapped_records"]
    assert prof["dropped_records"] == 0 and prof["incomplete_records"] == 0, prof
    nodes = {n["id"]: n for n in prof["nodes"]}
    assert set(nodes) == set(want), (sorted(nodes), sorted(want))
    for nid, dev in want.items():
        n = nodes[nid]
        assert n["device"] == dev, (nid, n["device"], dev)
        if n["kind"] == "kernel":
            assert n["executions"] == 1, (nid, n["executions"])
        else:
            assert n["executions_total"] >= prof["launches"], (nid, n["executions_total"])
    ev = trace["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in ev if e.get("name") == "process_name"}
    gpus = [d["ordinal"] for d in rep["devices"]]
    for k, o in enumerate(gpus):
        assert names.get(1 + k, "").startswith("GPU %d: " % o), names
        assert names[1 + k].endswith("(device %d)" % k), names
    seen = {}
    for e in ev:
        if e.get("ph") != "X" or e.get("cat") == "launch":
            continue
        nid = e["name"]
        assert nid in want, "a trace event of no node: %s" % nid
        assert e["args"]["gpu"] == gpus[e["pid"] - 1], e
        if nodes[nid]["kind"] == "kernel":
            assert e["pid"] == 1 + want[nid], (nid, e["pid"], want[nid])
        seen.setdefault(nid, set()).add(e["pid"])
    assert set(seen) == set(want), sorted(set(want) - set(seen))
    pids = set().union(*seen.values())
    assert pids == {1, 2}, pids
    print("profile: %d nodes, %d records, on GPUs %s; trace processes %s" % (
        len(nodes), prof["records"], gpus, sorted(names.items())))


main()
