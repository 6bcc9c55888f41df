#!/usr/bin/env python3
"""Library nodes against the same calls made directly: cugraphrun's graph of
one cuBLAS GEMM node (N = 4096, in f32, tf32, f16 and bf16, C in f32) and of
one 2^24-point C2C cuFFT node, against bench/mathlib_ref, which makes the
same call on a stream, in the same run.

For each case, runs cugraphrun --json (the launch median) and mathlib_ref
(the median of as many calls, each between its own pair of events as
cugraphrun times its launches), interleaved and in alternating order round
after round, and prints per case the median over the rounds of each, their
ratio (target: at most 1.02) and, for the GEMMs, cugraphrun's TFLOP/s and
share of the device's dense peak for that kind of arithmetic.

With --gpu-ref, --gen and --ptx, also chains of 1 and 100 empty kernels (a
file without library nodes) against bench/gpu_ref, as bench/gpu-bench.py
runs them: their figures must be those of a build without library nodes.

    libnode-bench.py --cugraphrun PATH --ref PATH [--rounds 7] [--repeat 50]
                     [--warmup 10] [--cases gemm-f32,...,fft-c2c]
                     [--gpu-ref PATH --gen examples/gen-chain.py
                      --ptx examples/kernels/empty.ptx]

From a GPU bundle: python3 .gpu/bench/libnode-bench.py
    --cugraphrun .gpu/bin/cugraphrun --ref .gpu/bin/mathlib_ref
    --gpu-ref .gpu/bin/gpu_ref --gen .gpu/examples/gen-chain.py
    --ptx .gpu/examples/kernels/empty.ptx

Exit status 1 when a case's ratio is above 1.02 or a run failed, else 0.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

GEMM_N = 4096
FFT_N = 1 << 24
# case: (buffer type, compute type, flops_type)
GEMMS = {
    "gemm-f32": ("f32", "CUBLAS_COMPUTE_32F", "f32"),
    "gemm-tf32": ("f32", "CUBLAS_COMPUTE_32F_FAST_TF32", "tf32"),
    "gemm-f16": ("f16", "CUBLAS_COMPUTE_32F", "f16"),
    "gemm-bf16": ("bf16", "CUBLAS_COMPUTE_32F", "bf16"),
}
LIMIT = 1.02


def gemm_yaml(case, n):
    t, compute, kind = GEMMS[case]
    return (f"cugraphrun: 1\nname: {case}\n"
            f"buffers:\n"
            f"  a: {{type: {t}, count: {n * n}, init: 1}}\n"
            f"  b: {{type: {t}, count: {n * n}, init: 1}}\n"
            f"  c: {{type: f32, count: {n * n}}}\n"
            f"nodes:\n"
            f"  - id: gemm\n"
            f"    cublas: {{gemm: {{m: {n}, n: {n}, k: {n}, A: a, B: b, C: c, "
            f"computeType: {compute}}}}}\n"
            f"checks:\n  - {{buffer: c, expect: {n}}}\n"
            f"throughput: {{flops: {2 * n * n * n}, flops_type: {kind}}}\n")


def fft_yaml(n):
    return (f"cugraphrun: 1\nname: fft-c2c\n"
            f"buffers:\n  v: {{type: f32, count: {2 * n}}}\n"
            f"nodes:\n"
            f"  - id: fft\n"
            f"    cufft: {{type: CUFFT_C2C, n: {n}, idata: v, direction: CUFFT_FORWARD}}\n"
            f"checks:\n  - {{buffer: v, expect: 0}}\n")


def run_tool(exe, path, repeat, warmup):
    out = subprocess.run([exe, "-q", "--json", "-n", str(repeat), "-w", str(warmup), path],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return r["launch"]["median_s"], r.get("flops")


def run_ref(argv):
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    kv = dict(f.split("=") for f in out.split())
    return float(kv["median_s"])


def fmt_us(s):
    return f"{s * 1e6:10.2f} us"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cugraphrun", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--cases", default=",".join(list(GEMMS) + ["fft-c2c"]))
    ap.add_argument("--gpu-ref")
    ap.add_argument("--gen")
    ap.add_argument("--ptx")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="cgr-libnode-bench-")
    rows = []
    ok = True
    try:
        cases = []
        for case in a.cases.split(","):
            path = os.path.join(tmp, case + ".yaml")
            with open(path, "w") as f:
                f.write(fft_yaml(FFT_N) if case == "fft-c2c" else gemm_yaml(case, GEMM_N))
            n = FFT_N if case == "fft-c2c" else GEMM_N
            ref = [a.ref, case, str(n), str(a.repeat), str(a.warmup)]
            cases.append((case, path, ref))
        if a.gpu_ref and a.gen and a.ptx:
            # the generated file names kernels/empty.ptx beside it
            os.makedirs(os.path.join(tmp, "kernels"))
            shutil.copy(a.ptx, os.path.join(tmp, "kernels", "empty.ptx"))
            for n in (1, 100):
                path = os.path.join(tmp, f"chain{n}.yaml")
                with open(path, "w") as f:
                    subprocess.run([sys.executable, a.gen, str(n)], check=True, stdout=f)
                ref = [a.gpu_ref, "chain", str(n), os.path.abspath(a.ptx), str(a.repeat),
                       str(a.warmup)]
                cases.append((f"chain-{n} (no library)", path, ref))
        for name, path, ref in cases:
            tool_t, ref_t, flops = [], [], None
            for k in range(a.rounds):
                order = (0, 1) if k % 2 == 0 else (1, 0)
                for which in order:
                    if which == 0:
                        t, flops = run_tool(a.cugraphrun, path, a.repeat, a.warmup)
                        tool_t.append(t)
                    elif ref[0] == a.gpu_ref:
                        out = subprocess.run(ref, check=True, capture_output=True,
                                             text=True).stdout
                        kv = dict(f.split("=") for f in out.split())
                        ref_t.append(float(kv["median_s"]))
                    else:
                        ref_t.append(run_ref(ref))
            tm, rm = statistics.median(tool_t), statistics.median(ref_t)
            ratio = tm / rm
            rows.append((name, tm, rm, ratio, flops))
            print(f"{name:22s} cugraphrun {fmt_us(tm)}  direct {fmt_us(rm)}  ratio {ratio:.4f}"
                  + (f"  {flops['tflop_per_s']:.1f} TFLOP/s" if flops and flops.get("tflop_per_s")
                     else "")
                  + (f" ({flops['peak_percent']:.1f}% of the {flops['peak_tflop_per_s']:.0f}"
                     f" TFLOP/s {flops['type']} peak)"
                     if flops and flops.get("peak_percent") is not None else ""),
                  flush=True)
            if ratio > LIMIT:
                ok = False
    except subprocess.CalledProcessError as e:
        print(f"libnode-bench: {' '.join(e.cmd)} failed ({e.returncode}): {e.stderr}")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    slow = [r[0] for r in rows if r[3] > LIMIT]
    print(f"libnode-bench: {len(rows)} cases, "
          + ("all within %.2fx of the direct calls" % LIMIT if not slow else
             "above %.2fx: %s" % (LIMIT, ", ".join(slow))))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
