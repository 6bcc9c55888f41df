#!/bin/sh
# bundle.sh SRCDIR BUILDDIR NVCC [OUT]
#
# Everything the GPU machine needs to run the GPU suite with no configure
# or make there (it has no libyaml, Graphviz or Check): `make gpu-bundle`
# calls this to fill OUT (default SRCDIR/.gpu, which git ignores) with
#
#   bin/       cugraphrun, gpu_unit and the benchmark programs, as built
#              (with bench/cu_count.so, the driver-call counter, and
#              bench/mathlib_ref, which finds cuBLAS and cuFFT in the
#              machine's toolkit: libcublasLt alone is 517 MB, never
#              carried)
#   lib/       the shared libraries they need that the GPU machine lacks,
#              and the host functions' libraries of the examples and cases
#   kernels/   tests/gpu/kernels compiled to .ptx, .cubin (sm_90), .fatbin,
#              -z.fatbin (compressed: the validator cannot read it)
#   cases/     the suite's cases (tests/gpu/cases)
#   sources/   CUDA C++ of the source-module cases (tests/gpu/sources)
#   examples/  the examples with their PTX and data
#   bench/     the benchmark scripts, and their kernels compiled to PTX
#   schemas/report.schema.json, report-schema.py
#              the --json report's schema and its validator (run.sh checks
#              the reports the cases write with them)
#   run.sh     the suite runner: `sh .gpu/run.sh` prints
#              "N passed, N failed, N skipped"
#   two-gpus.sh  on a machine with two GPUs: the suite on two and on one,
#              the two-GPU example profiled, peer-bench, suite-bench
#              --mode gpus (issue 26)
#
# Then, from the repository root, on the GPU machine: sh .gpu/run.sh
set -eu

[ $# -ge 3 ] || { echo "usage: bundle.sh SRCDIR BUILDDIR NVCC [OUT]" >&2; exit 2; }
src=$1 build=$2 nvcc=$3
out=${4:-$src/.gpu}
[ -n "$nvcc" ] || { echo "bundle.sh: nvcc is needed to compile the suite's kernels (configure --with-cuda=DIR)" >&2; exit 1; }

rm -rf "${out:?}/bin" "${out:?}/lib" "${out:?}/kernels" "${out:?}/cases" "${out:?}/examples" \
	"${out:?}/bench" "${out:?}/results" "${out:?}/sources" "${out:?}/schemas"
mkdir -p "$out/bin" "$out/lib" "$out/kernels" "$out/cases" "$out/bench" "$out/schemas"

# Programs: VPATH builds make plain executables (no libtool wrappers).
progs=
for p in cugraphrun tests/unit/gpu_unit bench/gpu_ref bench/yaml_scan bench/sweep_ref \
	bench/update_rules bench/mathlib_ref bench/modes_ref bench/cu_count.so; do
	if [ -x "$build/$p" ]; then
		cp "$build/$p" "$out/bin/"
		progs="$progs $build/$p"
	fi
done
[ -x "$out/bin/cugraphrun" ] || { echo "bundle.sh: no $build/cugraphrun; run make first" >&2; exit 1; }

# The host functions' libraries (host: {call: ...}) of the examples and
# the cases, found through LD_LIBRARY_PATH, which run.sh points at lib/.
for l in examples/host/libcgr-converge.so tests/unit/libcgr-test-host.so; do
	[ -f "$build/$l" ] || { echo "bundle.sh: no $build/$l; run make check first" >&2; exit 1; }
	cp "$build/$l" "$out/lib/"
done

# Shared libraries the GPU machine lacks (libyaml, libcgraph, Check...).
libs=$src/../shared/tools/device-libs
[ -x "$libs" ] || libs=/work/shared/tools/device-libs
if [ -x "$libs" ]; then
	# shellcheck disable=SC2086
	"$libs" "$out/lib" $progs >/dev/null
else
	echo "bundle.sh: warning: no device-libs tool; lib/ left empty" >&2
fi

# The PTX architecture of a kernel source: compute_90 for those that say so
# in their opening comment (they use what only sm_90 has), else compute_75.
ptx_arch() {
	if sed -n '1,20p' "$1" | grep -q 'compute_90'; then
		echo compute_90
	else
		echo compute_75
	fi
}

# The suite's kernels, in every module format.
for cu in "$src"/tests/gpu/kernels/*.cu; do
	k=$(basename "$cu" .cu)
	arch=$(ptx_arch "$cu")
	"$nvcc" -ptx -arch="$arch" -o "$out/kernels/$k.ptx" "$cu"
	"$nvcc" -cubin -arch=sm_90 -o "$out/kernels/$k.cubin" "$cu"
	"$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 \
		-gencode arch="$arch",code="$arch" -o "$out/kernels/$k.fatbin" "$cu"
	# everything compressed: what the validator cannot read, the driver checks
	"$nvcc" -fatbin -Xfatbin -compress-all -gencode arch=compute_90,code=sm_90 \
		-gencode arch="$arch",code="$arch" -o "$out/kernels/$k-z.fatbin" "$cu"
done
cp "$src"/tests/gpu/kernels/*.ptx "$out/kernels/" 2>/dev/null || true
cp "$src"/tests/gpu/cases/* "$out/cases/"
# CUDA C++ the cases give cugraphrun as source modules (NVRTC compiles them there)
if [ -d "$src/tests/gpu/sources" ]; then
	cp -R "$src/tests/gpu/sources" "$out/sources"
fi

# Examples, with their kernels compiled when make has not done it.
cp -R "$src/examples" "$out/examples"
for cu in "$out"/examples/kernels/*.cu; do
	[ -e "$cu" ] || continue
	ptx=${cu%.cu}.ptx
	[ -e "$ptx" ] || "$nvcc" -ptx -arch="$(ptx_arch "$cu")" -o "$ptx" "$cu"
done

# (files only: not what python leaves beside them, __pycache__)
for f in "$src"/bench/*; do
	[ -f "$f" ] || continue
	case $f in *.c|*.h) ;; *) cp "$f" "$out/bench/" ;; esac
done
# the benchmarks' kernels
for cu in "$out"/bench/*.cu; do
	[ -e "$cu" ] || continue
	"$nvcc" -ptx -arch=compute_75 -o "${cu%.cu}.ptx" "$cu"
done

cp "$src/schemas/report.schema.json" "$out/schemas/"
cp "$src/tests/report-schema.py" "$out/report-schema.py"
cp "$src/tests/gpu/run.sh" "$out/run.sh"
cp "$src/tests/gpu/two-gpus.sh" "$out/two-gpus.sh"
echo "bundle.sh: GPU suite in $out ($(du -sh "$out" | cut -f1)); on the GPU machine: sh ${out#"$src"/}/run.sh"
