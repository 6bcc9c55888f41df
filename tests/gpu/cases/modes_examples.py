#!/usr/bin/env python3
"""Every example in every mode it can run in (cugraphrun(1) MODES), on a GPU.

    modes_examples.py CUGRAPHRUN BUNDLE OUTDIR

For each BUNDLE/examples/*.yaml: --mode=all (a file that sweeps its own
axis mode: its own axis; one that stream mode refuses, saying so: graph
and capture, after checking the refusal's reason), -n 3 -w 1, --json.
Each run must exit 0 with every row's checks passed, each report valid
under the schema when report-schema.py can tell.  Examples that say
"#@ gpus: N" are skipped with fewer GPUs (GPUS in the environment, as
run.sh counts them).  Prints a line per example; exits 1 when one failed.
"""

import glob
import json
import os
import re
import subprocess
import sys


def main():
    c, bundle, out = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    gpus = int(os.environ.get("GPUS", "1") or 1)
    bad = 0
    for f in sorted(glob.glob(os.path.join(bundle, "examples", "*.yaml"))):
        name = os.path.basename(f)[:-5]
        text = open(f).read()
        need = re.search(r"^#@ gpus: (\d+)", text, re.M)
        if need and gpus < int(need.group(1)):
            print("skip: %s: needs %s GPUs" % (name, need.group(1)))
            continue
        d = os.path.dirname(f)
        v = subprocess.run([c, "--validate", "--mode=all", f], cwd=d, capture_output=True,
                           text=True)
        modes, why = ["--mode=all"], "all modes"
        if "sweeps its own axis 'mode'" in v.stderr:
            modes, why = [], "its own axis mode"
        elif "so stream mode cannot run this file" in v.stderr:
            modes, why = ["--mode=graph,capture"], "graph and capture (stream refused)"
        elif v.returncode != 0:
            print("FAIL: %s: --validate --mode=all: exit %d: %s" % (name, v.returncode,
                                                                   v.stderr.strip()[:300]))
            bad += 1
            continue
        js = os.path.join(out, name + ".json")
        r = subprocess.run([c, "-q", "-n", "3", "-w", "1", "--json=" + js] + modes + [f], cwd=d,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: %s (%s): exit %d: %s" % (name, why, r.returncode, r.stderr.strip()[:600]))
            bad += 1
            continue
        rep = json.load(open(js))
        failed = [p["label"] for p in rep["points"] if p["checks"]["failed"]]
        if failed or len(rep.get("modes", [])) != len(rep["points"]):
            print("FAIL: %s (%s): checks failed in %s" % (name, why, failed))
            bad += 1
            continue
        schema = subprocess.run([sys.executable, os.path.join(bundle, "report-schema.py"),
                                 "--quiet", js], capture_output=True, text=True)
        if schema.returncode not in (0, 77):
            print("FAIL: %s: report not valid: %s" % (name, schema.stdout.strip()[:300]))
            bad += 1
            continue
        print("ok: %s (%s): %d rows" % (name, why, len(rep["points"])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
