#!/bin/sh
# Everything issue 26 asks of a two-GPU machine, in one call from the
# bundle (bundle.sh copies this script beside run.sh):
#
#   sh .gpu/two-gpus.sh
#
#   1. the GPU suite on both GPUs, then on one (CUDA_VISIBLE_DEVICES=0):
#      the same cases must pass on both, the two-GPU ones (#@ gpus: 2)
#      skipping on one; each summary line is printed, and the names of
#      the cases whose result differs between the two (only the gpus: 2
#      ones may: PASS on two, SKIP on one);
#   2. examples/two-gpus.yaml: plain (its report), with --profile=20
#      --trace (the profile table, every record mapped, the trace's two
#      GPU processes), with --modules=library, from GPU 1 (-d 1), and
#      with one GPU visible (exit 3 and its message);
#   3. bench/peer-bench.py: a copy between the GPUs with and without peer
#      access, GB/s;
#   4. bench/suite-bench.py --mode gpus: 200 busy files on one GPU and on
#      two, the ratio (target <= 0.6).
#
# Everything lands in $OUT (default two-gpus-results/ beside this
# script); the figures to quote are printed as they come.  Exit status:
# the number of parts that failed (0: all four did what they must).
LC_ALL=C
export LC_ALL
D=$(cd "$(dirname "$0")" && pwd)
C=$D/bin/cugraphrun
OUT=${OUT:-$D/two-gpus-results}
LD_LIBRARY_PATH=$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
rm -rf "$OUT"
mkdir -p "$OUT"
failed=0
part() { echo; echo "=== $*"; }
bad() { echo "FAILED: $*"; failed=$((failed + 1)); }

part "machine"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1
nvidia-smi topo -m 2>&1 | sed -n '1,4p'
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$n" -ge 2 ] || { echo "two-gpus.sh: this machine has $n GPU(s); it needs two"; exit 99; }

part "1. the GPU suite on two GPUs, then on one"
RESULTS=$OUT/suite-2 sh "$D/run.sh" >"$OUT/suite-2.log" 2>&1
s2=$?
CUDA_VISIBLE_DEVICES=0 RESULTS=$OUT/suite-1 sh "$D/run.sh" >"$OUT/suite-1.log" 2>&1
s1=$?
for g in 2 1; do
	printf 'on %s GPU(s): ' "$g"
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/suite-$g.log"
	grep -E '^failed:' "$OUT/suite-$g.log"
done
# results by name, side by side: a case may differ only by its gpus: 2
sed -n 's/^\(PASS\|FAIL\|SKIP\|XFAIL\): \([^ ]*\).*/\2 \1/p' "$OUT/suite-2.log" | sort >"$OUT/r2"
sed -n 's/^\(PASS\|FAIL\|SKIP\|XFAIL\): \([^ ]*\).*/\2 \1/p' "$OUT/suite-1.log" | sort >"$OUT/r1"
join "$OUT/r2" "$OUT/r1" | awk '$2 != $3 { print "  differs: " $1 " (two: " $2 ", one: " $3 ")" }' |
	tee "$OUT/differs"
while read -r _ name _; do
	case $name in example:*) y=$D/examples/${name#example:}.yaml ;; *) y=$D/cases/$name.yaml ;; esac
	grep -q '^#@ gpus: 2' "$y" 2>/dev/null || bad "suite: $name differs between one GPU and two, and needs no two GPUs"
done <"$OUT/differs"
[ "$s2" -eq 0 ] || bad "suite on two GPUs (see $OUT/suite-2.log)"
[ "$s1" -eq 0 ] || bad "suite on one GPU (see $OUT/suite-1.log)"

part "2. examples/two-gpus.yaml"
E=$D/examples/two-gpus.yaml
"$C" --json="$OUT/two-gpus.json" "$E" >"$OUT/two-gpus.out" 2>&1 || bad "two-gpus.yaml: exit $?"
cat "$OUT/two-gpus.out"
"$C" --profile=20 --trace="$OUT/two-gpus.trace.json" --json="$OUT/two-gpus.profile.json" "$E" \
	>"$OUT/two-gpus.profile.out" 2>&1 || bad "two-gpus.yaml --profile: exit $?"
cat "$OUT/two-gpus.profile.out"
python3 "$D/cases/multi_profile.py" "$OUT/two-gpus.profile.json" "$OUT/two-gpus.trace.json" \
	twice-lo=0 twice-hi=1 send-hi=1 send-lo=0 fold-here=0 fold-there=1 ||
	bad "two-gpus.yaml: the profile or the trace (multi_profile.py)"
"$C" -q --modules=library "$E" >"$OUT/two-gpus.library.out" 2>&1 ||
	bad "two-gpus.yaml --modules=library: exit $?"
"$C" -d 1 --json="$OUT/two-gpus.d1.json" "$E" >"$OUT/two-gpus.d1.out" 2>&1 ||
	bad "two-gpus.yaml -d 1: exit $?"
grep '^  devices' "$OUT/two-gpus.d1.out"
CUDA_VISIBLE_DEVICES=0 "$C" "$E" >"$OUT/two-gpus.one.out" 2>&1
st=$?
cat "$OUT/two-gpus.one.out"
[ "$st" -eq 3 ] || bad "two-gpus.yaml on one visible GPU: exit $st, expected 3"

part "3. bench/peer-bench.py"
python3 "$D/bench/peer-bench.py" --cugraphrun "$C" --keep "$OUT/peer-bench" 2>&1 |
	tee "$OUT/peer-bench.out"
grep -q '^  0->1 ' "$OUT/peer-bench.out" || bad "peer-bench"

part "4. bench/suite-bench.py --mode gpus"
python3 "$D/bench/suite-bench.py" --cugraphrun "$C" --ptx "$D/kernels/tk.ptx" --mode gpus 2>&1 |
	tee "$OUT/suite-bench.out"
grep -q 'target <= 0.6: met' "$OUT/suite-bench.out" || bad "suite-bench --mode gpus"

echo
echo "two-gpus.sh: $failed part(s) failed; everything is in $OUT"
exit "$failed"
