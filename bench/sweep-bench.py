#!/usr/bin/env python3
"""The sweep benchmarks (issue 22), one command on a GPU machine.

From the GPU bundle (make gpu-bundle; see tests/gpu/bundle.sh):

    python3 .gpu/bench/sweep-bench.py            (or: cd .gpu && python3 bench/sweep-bench.py)

It finds bin/cugraphrun, bin/sweep_ref, bin/update_rules, bin/cu_count.so
and bench/sweep_kernels.ptx in the bundle (--bundle DIR to say where), and
runs, in this order, printing each figure with its target and PASS/FAIL:

 (e) update rules: bin/update_rules tries each change cugraphrun's update
     path makes on an executable graph (per node, or cuGraphExecUpdate
     from a template) and prints, per rule, "in place" or "refused" with
     the driver's error; these lines fill the table of cugraphrun(5),
     UPDATES.  FAIL only when the driver accepts an update and the node
     then does not do what it says ("wrong").

 (a, b) driver calls and preparation of a 32-point sweep of one kernel's
     grid (1 to 32 blocks) in a chain of 100 empty-kernel nodes:
     - counted outside the tool with bin/cu_count.so (LD_PRELOAD): the
       sweep instantiates exactly once, and each point after the first
       makes the same graph calls (cuGraph*, launches aside) as the
       hand-written bin/sweep_ref: cuGraphNodeSetParams and
       cuGraphExecNodeSetParams on the changed node, one each;
       counted as (32-point run - 1-point run) / 31, per entry point;
     - timed, in the same run: each point's preparation as the tool
       reports it (prepare.seconds: finding what changed and the driver
       calls) against instantiating and uploading that graph afresh
       (phases.instantiate_s + upload_s of the same run): at most 1/50.
       The evaluation of each point's model (prepare.evaluate_s: reading
       and validating it, done for every point before the GPU is touched;
       a point that changes values alone is derived from the one before,
       bench/README.md) is printed beside it; both lines are targets: the
       preparation the GPU path makes, and with the evaluation, the
       issue's whole preparation of a point.  sweep_ref's own update and
       fresh instantiation are printed for scale.

 (c) every point's median launch within 3% of the same point run alone as
     a one-point file (the value written in, no axes), or within the two
     runs' spread (the sum of their standard deviations), whichever is
     larger.

 (d) a 1,000-point sweep of a one-node graph of a kernel with one
     argument, swept over it, with -n 10 -w 0: the cost per point beyond
     its 11 launches (update, buffers, checks, bookkeeping, its table
     row): (T(1000 points) - T(1 point)) / 999 - 11 x L, L the wall time
     of a launch in that sweep, (T(1000 points) - T(1000 points, -n 0))
     / 10,000; the median of --rounds rounds; at most 50 us.

Exit status 0 when every target holds, 1 otherwise, 2 on a usage error.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

US = 1e6


def die(msg):
    print("sweep-bench: " + msg, file=sys.stderr)
    sys.exit(2)


class Bench:
    def __init__(self, a):
        self.a = a
        b = a.bundle
        self.cgr = os.path.join(b, "bin", "cugraphrun")
        self.ref = os.path.join(b, "bin", "sweep_ref")
        self.rules = os.path.join(b, "bin", "update_rules")
        self.count = os.path.join(b, "bin", "cu_count.so")
        self.ptx = os.path.join(b, "bench", "sweep_kernels.ptx")
        for p in (self.cgr, self.ref, self.rules, self.count, self.ptx):
            if not os.path.exists(p):
                die("no %s (make gpu-bundle builds it)" % p)
        self.env = dict(os.environ)
        lib = os.path.join(b, "lib")
        self.env["LD_LIBRARY_PATH"] = lib + (":" + self.env["LD_LIBRARY_PATH"]
                                             if self.env.get("LD_LIBRARY_PATH") else "")
        self.tmp = tempfile.mkdtemp(prefix="cgr-sweep-bench-")
        shutil.copy(self.ptx, os.path.join(self.tmp, "sweep_kernels.ptx"))
        self.results = []

    def verdict(self, name, ok, figure, target):
        self.results.append((name, ok))
        print("%-6s %-58s %s  (target: %s)" % ("PASS" if ok else "FAIL", name, figure, target))

    def run(self, args, extra_env=None, check=True):
        env = dict(self.env)
        if extra_env:
            env.update(extra_env)
        p = subprocess.run(args, cwd=self.tmp, env=env, capture_output=True, text=True)
        if check and p.returncode != 0:
            die("%s exited %d:\n%s%s" % (" ".join(args), p.returncode, p.stdout[-2000:],
                                         p.stderr[-2000:]))
        return p

    def write(self, name, text):
        with open(os.path.join(self.tmp, name), "w") as f:
            f.write(text)
        return name

    # --- files ---------------------------------------------------------------

    def chain(self, grid=None):
        """100 empty kernels in a chain, node k50's grid swept (or written in)."""
        lines = ["cugraphrun: 1", "name: chain100"]
        if grid is None:
            lines += ["axes:", "  g: {from: 1, to: %d}" % self.a.points]
        lines += ["modules:", "  k: sweep_kernels.ptx", "nodes:", "  chain: true", "  nodes:"]
        for i in range(100):
            g = ('"${g}"' if grid is None else str(grid)) if i == 50 else "1"
            lines.append("    - {id: k%d, kernel: {function: k.empty, grid: %s}}" % (i, g))
        return self.write("chain100%s.yaml" % ("" if grid is None else "-g%d" % grid),
                          "\n".join(lines) + "\n")

    def one_node(self):
        return self.write("arg1000.yaml", "cugraphrun: 1\nname: arg1000\n"
                          "axes:\n  v: {from: 1, to: 1000}\n"
                          "modules:\n  k: sweep_kernels.ptx\n"
                          "nodes:\n  - {id: k, kernel: {function: k.arg, args: [{i32: \"${v}\"}]}}\n")

    # --- (e) ------------------------------------------------------------------

    def rules_table(self):
        print("== (e) update rules (bin/update_rules): these lines fill cugraphrun(5), UPDATES")
        p = self.run([self.rules, self.ptx], check=False)
        sys.stdout.write(p.stdout)
        if p.stderr:
            sys.stdout.write(p.stderr)
        self.verdict("update rules: no update accepted with a wrong result", p.returncode == 0,
                     p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "no output",
                     "exit 0")

    # --- (a, b) ---------------------------------------------------------------

    def counts(self, args):
        out = os.path.join(self.tmp, "counts.txt")
        if os.path.exists(out):
            os.remove(out)
        self.run(args, {"LD_PRELOAD": self.count, "CU_COUNT_OUT": out})
        c = {}
        with open(out) as f:
            for line in f:
                name, n = line.split()
                c[name] = int(n)
        return c

    @staticmethod
    def per_point(many, one, points):
        """Graph calls (launches aside) per point after the first, as {name: calls}."""
        names = set(many) | set(one)
        d = {}
        for n in names:
            if not n.startswith("cuGraph") or n == "cuGraphLaunch":
                continue
            k = many.get(n, 0) - one.get(n, 0)
            if k:
                d[n] = k / (points - 1)
        return d

    def calls_and_preparation(self):
        pts = self.a.points
        print("== (a, b) a %d-point sweep of one kernel's grid in a chain of 100 nodes" % pts)
        f = self.chain()
        args = [self.cgr, "-q", "-n", "20", "-w", "2", f]
        many = self.counts(args)
        tool = self.per_point(many, self.counts(args[:-1] + ["--set", "g=1", f]), pts)
        ref = self.per_point(self.counts([self.ref, "sweep_kernels.ptx", "100", str(pts), "21",
                                          "--counting"]),
                             self.counts([self.ref, "sweep_kernels.ptx", "100", "1", "21",
                                          "--counting"]), pts)
        fmt = lambda d: ", ".join("%s %g" % kv for kv in sorted(d.items())) or "none"
        print("   graph calls per point, cugraphrun: %s" % fmt(tool))
        print("   graph calls per point, sweep_ref:  %s" % fmt(ref))
        inst = many.get("cuGraphInstantiateWithParams", 0) + many.get("cuGraphInstantiate", 0) + \
            many.get("cuGraphInstantiateWithFlags", 0)
        self.verdict("the sweep instantiates once", inst == 1, "%d instantiation(s)" % inst, "1")
        self.verdict("each later point's graph calls are sweep_ref's", tool == ref,
                     fmt(tool), fmt(ref))

        prep, evals, insts = [], [], []
        for _ in range(self.a.rounds):
            r = json.loads(self.run([self.cgr, "-q", "--json", "-n", "20", "-w", "2", f]).stdout)
            ph = r["phases"]
            insts.append(ph["instantiate_s"] + ph["upload_s"])
            for p in r["points"][1:]:
                if p["prepare"]["kind"] != "update" or p["prepare"]["updated_nodes"] != 1:
                    die("point %s was prepared as %r" % (p["label"], p["prepare"]))
                prep.append(p["prepare"]["seconds"])
                evals.append(p["prepare"]["evaluate_s"])
        mp, me, mi = statistics.median(prep), statistics.median(evals), statistics.median(insts)
        refline = self.run([self.ref, "sweep_kernels.ptx", "100", str(pts), "21"]).stdout.split()
        kv = dict(x.split("=") for x in refline)
        print("   cugraphrun: preparation %.2f us, evaluation %.2f us a point; instantiate + "
              "upload %.1f us" % (mp * US, me * US, mi * US))
        print("   sweep_ref:  update %.2f us a point; fresh instantiate + upload %.1f us" % (
            float(kv["update_s"]) * US, float(kv["instantiate_s"]) * US))
        self.verdict("a point's preparation / instantiating it afresh", mp / mi <= 1 / 50,
                     "%.4f (1/%.0f)" % (mp / mi, mi / mp), "<= 0.02")
        self.verdict("... with its evaluation (reading and validating its model)",
                     (mp + me) / mi <= 1 / 50, "%.4f (1/%.0f)" % ((mp + me) / mi, mi / (mp + me)),
                     "<= 0.02")

    # --- (c) ------------------------------------------------------------------

    def medians_alone(self):
        pts = self.a.points
        print("== (c) each point of the sweep against the same point as a one-point file")
        f = self.chain()
        n = str(self.a.repeat)
        r = json.loads(self.run([self.cgr, "-q", "--json", "-n", n, "-w", "20", f]).stdout)
        worst, bad = 0.0, []
        for i, p in enumerate(r["points"]):
            g = i + 1
            alone = json.loads(self.run([self.cgr, "-q", "--json", "-n", n, "-w", "20",
                                         self.chain(g)]).stdout)["launch"]
            ms, ma = p["launch"]["median_s"], alone["median_s"]
            allowed = max(0.03 * ma, p["launch"]["stddev_s"] + alone["stddev_s"])
            dev = abs(ms - ma)
            worst = max(worst, dev / ma)
            if dev > allowed:
                bad.append("g=%d: %.3f us vs %.3f us alone" % (g, ms * US, ma * US))
        for b in bad:
            print("   " + b)
        self.verdict("every point's median against it alone", not bad,
                     "largest difference %.2f%%, %d of %d beyond" % (100 * worst, len(bad), pts),
                     "3% or the spread")

    # --- (d) ------------------------------------------------------------------

    def thousand(self):
        print("== (d) a 1,000-point sweep of a one-node graph over its kernel's argument, -n 10 -w 0")
        # A launch is timed where the points make theirs: the same 1,000-point
        # sweep with -n 0 makes 10,000 launches fewer (each point keeps its
        # verification launch).  A long one-point run is no stand-in: its
        # launches came out 2-3 us slower each on the H100 than a point's,
        # which made the cost beyond them negative.
        f = self.one_node()
        per = []

        def wall(extra):
            t = time.perf_counter()
            self.run([self.cgr] + extra + [f])
            return time.perf_counter() - t

        for _ in range(self.a.rounds):
            t_all = wall(["-n", "10", "-w", "0"])
            t_one = wall(["-n", "10", "-w", "0", "--set", "v=1"])
            t_all0 = wall(["-n", "0", "-w", "0"])
            launch = (t_all - t_all0) / 10000
            point = (t_all - t_one) / 999
            per.append(point - 11 * launch)
            print("   round: a point %.1f us, %.1f us of it beyond its 11 launches (a launch: %.2f us)" % (
                point * US, per[-1] * US, launch * US))
        m = statistics.median(per)
        self.verdict("cost of a point beyond its 11 launches", m <= 50e-6, "%.1f us" % (m * US),
                     "<= 50 us")

    def main(self):
        print("sweep-bench: %s" % self.cgr)
        try:
            self.rules_table()
            self.calls_and_preparation()
            self.medians_alone()
            self.thousand()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        ok = all(v for _, v in self.results)
        print("sweep-bench: %d of %d targets met; %s" % (
            sum(v for _, v in self.results), len(self.results), "PASS" if ok else "FAIL"))
        return 0 if ok else 1


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundle", default=os.path.dirname(here),
                    help="the GPU bundle (default: the folder above this script's)")
    ap.add_argument("--points", type=int, default=32)
    ap.add_argument("--repeat", type=int, default=500, help="launches per point in (c)")
    ap.add_argument("--rounds", type=int, default=5)
    return Bench(ap.parse_args()).main()


if __name__ == "__main__":
    sys.exit(main())
