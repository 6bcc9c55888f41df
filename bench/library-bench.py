#!/usr/bin/env python3
"""Modules against libraries: cugraphrun --modules=module and --modules=library
over the same graphs, in the same run.

For chains of 1 and 100 empty kernels (and any --sizes; --fan adds fans of
the same sizes), runs cugraphrun --json with each API, interleaved and in
alternating order round after round, and prints per graph the median over
the rounds of each phase that loading as a library may change: load
(reading the file, loading the module, getting the kernels), build (adding
the nodes), instantiate, upload, the first launch and the median launch,
for both APIs, with the ratio library / module (below 1: the library is
faster).  The last lines say which API was faster at instantiating and at
launching each graph, the figures to quote when choosing the default
(cugraphrun(1), --modules).

    library-bench.py --cugraphrun PATH --gen examples/gen-chain.py
                     --ptx examples/kernels/empty.ptx
                     [--sizes 1,100] [--fan] [--repeat 1000] [--warmup 20]
                     [--rounds 15]

From a GPU bundle: python3 .gpu/bench/library-bench.py
    --cugraphrun .gpu/bin/cugraphrun --gen .gpu/examples/gen-chain.py
    --ptx .gpu/examples/kernels/empty.ptx

Exit status 0 when every run succeeded (whichever API is faster), 1
otherwise: this is a measurement, not a test.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

APIS = ("module", "library")
# (key in the report, label): the phases, then the launches
FIGURES = (
    ("load_s", "load"),
    ("build_s", "build"),
    ("instantiate_s", "instantiate"),
    ("upload_s", "upload"),
    ("first_launch_s", "first launch"),
    ("median_s", "launch (median)"),
)


def run(exe, path, api, repeat, warmup):
    """One run's figures, in seconds, by FIGURES key."""
    out = subprocess.run([exe, "-q", "--json", "-n", str(repeat), "-w", str(warmup),
                          "--modules=" + api, path],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    fig = dict(r["phases"])
    fig["first_launch_s"] = r["first_launch_s"]
    fig["median_s"] = r["launch"]["median_s"]
    return fig


def fmt_us(s):
    return "%10.2f us" % (s * 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--gen", required=True, help="examples/gen-chain.py")
    ap.add_argument("--ptx", required=True, help="examples/kernels/empty.ptx")
    ap.add_argument("--sizes", default="1,100", help="kernels per graph, comma-separated")
    ap.add_argument("--fan", action="store_true", help="fans of the same sizes too")
    ap.add_argument("--repeat", type=int, default=1000, help="timed launches per run")
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=15, help="runs of each API per graph")
    a = ap.parse_args()

    exe = os.path.abspath(a.cugraphrun)
    tmp = tempfile.mkdtemp(prefix="cgr-library-bench-")
    os.mkdir(os.path.join(tmp, "kernels"))
    shutil.copy(a.ptx, os.path.join(tmp, "kernels", "empty.ptx"))
    shapes = ["chain"] + (["fan"] if a.fan else [])
    graphs = []
    for shape in shapes:
        for n in (int(x) for x in a.sizes.split(",")):
            path = os.path.join(tmp, "%s-%d.yaml" % (shape, n))
            with open(path, "w") as f:
                flags = ["--fan"] if shape == "fan" else []
                subprocess.run([sys.executable, a.gen, str(n)] + flags, stdout=f, check=True)
            graphs.append(("%s of %d" % (shape, n), path))

    failed = False
    verdicts = []
    print("modules (cuModuleLoadDataEx) against libraries (cuLibraryLoadData): median of "
          "%d runs each, %d timed launches per run" % (a.rounds, a.repeat))
    for name, path in graphs:
        got = {api: [] for api in APIS}
        try:
            for rnd in range(a.rounds):
                # alternate which goes first, so that drift hits both alike
                order = APIS if rnd % 2 == 0 else tuple(reversed(APIS))
                for api in order:
                    got[api].append(run(exe, path, api, a.repeat, a.warmup))
        except (subprocess.CalledProcessError, ValueError, KeyError) as e:
            print("library-bench.py: %s: %s" % (name, e), file=sys.stderr)
            if isinstance(e, subprocess.CalledProcessError):
                print(e.stderr, file=sys.stderr)
            failed = True
            continue
        print()
        print("%s:" % name)
        print("  %-16s %13s %13s %8s" % ("", "module", "library", "ratio"))
        med = {}
        for key, label in FIGURES:
            m = statistics.median(f[key] for f in got["module"])
            lib = statistics.median(f[key] for f in got["library"])
            med[key] = (m, lib)
            ratio = lib / m if m > 0 else float("nan")
            print("  %-16s %s %s %8.3f" % (label, fmt_us(m), fmt_us(lib), ratio))
        for key, label in (("instantiate_s", "instantiate"), ("median_s", "launch")):
            m, lib = med[key]
            faster = "library" if lib < m else "module"
            verdicts.append("%s, %s: %s faster (library / module = %.3f)"
                            % (name, label, faster, lib / m if m > 0 else float("nan")))
    print()
    for v in verdicts:
        print(v)
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
