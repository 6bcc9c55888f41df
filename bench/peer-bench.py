#!/usr/bin/env python3
"""Peer-copy benchmark: a copy between two GPUs, with and without peer access.

Generates graphs of one copy node of --size bytes (default 256 MiB)
between device 0 and device 1 of a file (cugraphrun(5), Devices), each
direction and both at once, and one copy within device 0 for reference,
then runs each with cugraphrun (-n --repeat, default 50, timed by CUDA
events around each launch) plain, where cugraphrun enables peer access
(cuCtxEnablePeerAccess, where cuDeviceCanAccessPeer allows), and with
--no-peer, where the driver stages the copy.  Each run goes --rounds
times (default 3), the two settings interleaved and each going first
every other round; it prints the median of the rounds' median launch
times as GB/s (bytes / time; "both" moves twice the bytes), and the
ratio of peer to staged.  Every graph's check (the bytes arrived) must
pass, and each report must say whether peer access was on as asked.

    peer-bench.py --cugraphrun PATH [--size BYTES] [--repeat N] [--rounds N]
                  [--keep DIR]

There is no target: the figures are quoted in bench/README.md and the
issue.  Needs two GPUs; exit 2 when a run fails or the machine has one.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

# One copy of n u32 elements from src to dst; the check reads dst back.
COPY = """cugraphrun: 1
name: peer-{name}
buffers:
  a: {{type: u32, count: {n}, init: 7{dev_a}}}
  b: {{type: u32, count: {n}{dev_b}}}
nodes:
  - {{id: copy, copy: {{from: a, to: b}}{dev_node}}}
checks:
  - {{buffer: b, expect: 7}}
"""

# Both directions at once: two copies with no dependency between them.
BOTH = """cugraphrun: 1
name: peer-both
buffers:
  a: {{type: u32, count: {n}, init: 7}}
  b: {{type: u32, count: {n}, device: 1}}
  c: {{type: u32, count: {n}, init: 9, device: 1}}
  d: {{type: u32, count: {n}}}
nodes:
  - {{id: there, copy: {{from: a, to: b}}}}
  - {{id: back, copy: {{from: c, to: d}}, device: 1}}
checks:
  - {{buffer: b, expect: 7}}
  - {{buffer: d, expect: 9}}
"""


def graphs(n):
    """name -> (YAML text, bytes moved per launch)."""
    dev1 = ", device: 1"
    return {
        # the copy node runs where its source is: it pushes
        "0->1": (COPY.format(name="0to1", n=n, dev_a="", dev_b=dev1, dev_node=""), 4 * n),
        "1->0": (COPY.format(name="1to0", n=n, dev_a=dev1, dev_b="", dev_node=", device: 1"),
                 4 * n),
        "both": (BOTH.format(n=n), 8 * n),
        "within 0": (COPY.format(name="within", n=n, dev_a="", dev_b="", dev_node=""), 4 * n),
    }


def run(args, path, peer):
    """One run; its median launch time (s) and whether peer access was on."""
    out = path + (".peer" if peer else ".staged") + ".json"
    cmd = [args.cugraphrun, "-q", "-n", str(args.repeat), "-w", "3", "--json=" + out]
    if not peer:
        cmd.append("--no-peer")
    r = subprocess.run(cmd + [path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.stderr.write("peer-bench: %s: exit %d\n%s" % (" ".join(cmd + [path]),
                                                          r.returncode, r.stderr[-2000:]))
        sys.exit(2)
    with open(out) as f:
        rep = json.load(f)
    devs = rep.get("devices") or []
    on = len(devs) == 2 and devs[0]["peers"] == [1] and devs[1]["peers"] == [0]
    return rep["launch"]["median_s"], on, devs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--size", type=int, default=256 << 20,
                    help="bytes per copy, a multiple of 4 (default 256 MiB)")
    ap.add_argument("--repeat", type=int, default=50, help="timed launches per run")
    ap.add_argument("--rounds", type=int, default=3, help="runs per setting")
    ap.add_argument("--keep", help="write the graphs and reports to DIR, which must be empty")
    args = ap.parse_args()
    if args.size < 4 or args.size % 4 or args.repeat < 1 or args.rounds < 1:
        ap.error("--size must be a positive multiple of 4, --repeat and --rounds at least 1")
    if args.keep:
        if os.path.isdir(args.keep) and os.listdir(args.keep):
            ap.error("%s is not empty" % args.keep)
        os.makedirs(args.keep, exist_ok=True)
        d = args.keep
    else:
        d = tempfile.mkdtemp(prefix="peer-bench.")
    try:
        rows = []
        gpus = None
        for name, (text, nbytes) in graphs(args.size // 4).items():
            path = os.path.join(d, "peer-%s.yaml" % name.replace(" ", "-").replace(">", ""))
            with open(path, "w") as f:
                f.write(text)
            times = {True: [], False: []}
            for r in range(args.rounds):
                for peer in ((True, False) if r % 2 == 0 else (False, True)):
                    t, on, devs = run(args, path, peer)
                    if name != "within 0":
                        gpus = gpus or devs
                        if on != peer:
                            sys.stderr.write("peer-bench: %s: peer access %s, asked %s "
                                             "(cuDeviceCanAccessPeer may say no)\n" % (
                                                 name, "on" if on else "off",
                                                 "on" if peer else "off"))
                            if peer:
                                sys.exit(2)
                    times[peer].append(t)
            rows.append((name, nbytes, statistics.median(times[True]),
                         statistics.median(times[False])))
    finally:
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)
    where = ", ".join("device %d = GPU %d (%s)" % (g["device"], g["ordinal"], g["name"])
                      for g in gpus or [])
    print("peer-bench: one copy of %d MiB per launch, -n %d, median of %d rounds; %s" % (
        args.size >> 20, args.repeat, args.rounds, where))
    print("  %-10s %12s %12s %8s" % ("copy", "peer GB/s", "staged GB/s", "ratio"))
    for name, nbytes, tp, ts in rows:
        print("  %-10s %12.1f %12.1f %7.2fx" % (name, nbytes / tp / 1e9, nbytes / ts / 1e9,
                                               ts / tp))
    print("  (within 0: one GPU's own copy, the same with or without --no-peer, for scale)")


if __name__ == "__main__":
    main()
