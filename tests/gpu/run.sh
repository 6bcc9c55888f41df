#!/bin/sh
# The GPU test suite.  bundle.sh copies this script to the top of a bundle
# (.gpu/run.sh) beside bin/, lib/, cases/, kernels/ and examples/; on a GPU
# machine `sh .gpu/run.sh` runs everything and prints a summary line
# "N passed, N failed, N skipped".  Exit status: 0 when nothing failed.
#
# What runs:
#   - bin/gpu_unit (Check, CK_FORK=no: fork and cuInit do not mix), if bundled;
#   - every examples/*.yaml: it must run and its checks pass (exit 0);
#   - every cases/*.yaml, driven by directives in its leading comments:
#       #@ args: ARGS          extra arguments (shell words; $W is the case's
#                              work directory, for output files)
#       #@ env: VAR=VALUE      environment for the run (shell words)
#       #@ status: N           expected exit status (default 0)
#       #@ stderr: LINE        a line stderr must hold (exactly)
#       #@ stderr-exact        stderr must be exactly the stderr: lines
#       #@ stdout: TEXT        text stdout must contain
#       #@ check: COMMAND      a shell command run afterwards in $W, which
#                              must succeed ($C is cugraphrun, $D the bundle)
#       #@ report: FILE        a --json output the case writes, in $W after
#                              its checks ("stdout": its standard output):
#                              it must exist and be valid under the schema
#       #@ needs: PROGRAM      skip the case when PROGRAM is not installed
#       #@ gpus: N             skip the case when the machine has fewer than
#                              N GPUs (an example may say so too)
#       #@ shares-memory       its kernels use shared memory (SANITIZE=racecheck)
#       #@ sanitizer-allows: TEXT  a compute-sanitizer report holding TEXT
#                              is expected (a kernel that traps on purpose)
#       #@ no-sanitizer: WHY   not run under compute-sanitizer, and why
#       #@ sanitizer-known: WHY  may fail under compute-sanitizer (XFAIL), why
#
# JSON reports: every example runs with --json=report.json in its results,
# and each case names the --json outputs it writes (#@ report:); each must
# be valid under schemas/report.schema.json, which report-schema.py checks
# when python3 has jsonschema.  Without it they are only checked to exist:
# the suite says so at the start and beside the summary, and it is no
# failure; their paths go to $RESULTS/reports-unchecked.txt, to validate
# on a machine that has it (python3 report-schema.py --quiet FILE...).
#
# Results (stdout, stderr, output files) stay in $RESULTS (default
# results/ beside this script), one directory per case.
#
# GPUs: the suite counts them with nvidia-smi -L (as many as
# CUDA_VISIBLE_DEVICES lists, when it is set), or takes GPUS=N from the
# environment; cases and examples that say "#@ gpus: 2" skip with fewer,
# saying so.  Everything else holds on one GPU and on several alike.
#
# Usage: run.sh [NAME...]   (case or example names; default all)
#
# Sanitizer mode: SANITIZE=memcheck sh .gpu/run.sh runs every example and
# case under `compute-sanitizer --tool memcheck` (its log beside the run's
# output, as sanitizer.log); besides its own checks, each must then be
# clean: no memory errors, and no CUDA API errors either, except in cases
# that expect a failure (status other than 0), where the driver's refusal
# is the point (a broken PTX, a missing function), and the filters that
# san_verdict lists and explains.  SANITIZE=racecheck or synccheck runs the examples
# whose modules use shared memory (a .shared in their PTX) and the cases
# marked "#@ shares-memory".
# Examples run with SANITIZE_ARGS (default "-w 1 -n 3": the sanitizer is
# slow, and a few launches run every node several times); gpu_unit is not
# run.  COMPUTE_SANITIZER names the program (default: on PATH, else
# /usr/local/cuda/bin/compute-sanitizer).

D=$(cd "$(dirname "$0")" && pwd)
C=${CUGRAPHRUN:-$D/bin/cugraphrun}
RESULTS=${RESULTS:-$D/results}
# source modules compile into a cache of the suite's own (cases may set theirs)
XDG_CACHE_HOME=$RESULTS/cache
export XDG_CACHE_HOME
LD_LIBRARY_PATH=$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export C D LD_LIBRARY_PATH
# a hung case must not hang the suite: cugraphrun's own --timeout gives 124
LIMIT=${LIMIT:-120}

SANITIZE=${SANITIZE:-}
SANITIZE_ARGS=${SANITIZE_ARGS:--w 1 -n 3}
if [ -n "$SANITIZE" ]; then
	CS=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
	[ -x "$CS" ] || { echo "run.sh: SANITIZE=$SANITIZE but no compute-sanitizer ($CS)" >&2; exit 2; }
fi

pass=0 fail=0 skip=0
failed_names=

# The GPUs this process sees: nvidia-smi's list, cut to CUDA_VISIBLE_DEVICES's.
gpu_count() {
	n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
	if [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
		v=$(printf '%s\n' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
		[ "$v" -lt "$n" ] && n=$v
	fi
	echo "$n"
}
GPUS=${GPUS:-$(gpu_count)}

RS=$D/report-schema.py
RS_SCHEMA=$D/schemas/report.schema.json
if [ ! -f "$RS" ] || [ ! -f "$RS_SCHEMA" ]; then
	report_skip="report-schema.py or schemas/report.schema.json not in the bundle"
elif ! command -v python3 >/dev/null 2>&1; then
	report_skip="no python3"
elif ! python3 -c 'import jsonschema' 2>/dev/null; then
	report_skip="python3 has no jsonschema (Debian: python3-jsonschema)"
else
	report_skip=
fi
reports_valid=0 reports_unchecked=0

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
# the reports this machine cannot validate, to validate elsewhere
UNCHECKED=$RESULTS/reports-unchecked.txt
rm -f "$UNCHECKED"
cd "$D" || exit 1

# Runs a command with the suite's time limit, KILL so a hang reads as 137.
limited() {
	if command -v timeout >/dev/null 2>&1; then
		timeout -s KILL "$LIMIT" "$@"
	else
		"$@"
	fi
}

ok() {
	pass=$((pass + 1))
	echo "PASS: $1"
}

bad() {
	fail=$((fail + 1))
	failed_names="$failed_names $1"
	echo "FAIL: $1"
	shift
	for line in "$@"; do
		echo "      $line"
	done
}

skipped() {
	skip=$((skip + 1))
	echo "SKIP: $1 ($2)"
}

# Show the tail of a file under a failure, indented.
show() {
	[ -s "$1" ] || return 0
	echo "      --- $2:"
	tail -n 15 "$1" | sed 's/^/      | /'
}

# The words that put a run under the sanitizer, its log in $1; none unless SANITIZE.
san_prefix() {
	[ -n "$SANITIZE" ] || return 0
	echo "$CS --tool $SANITIZE --print-limit 100 --log-file $1"
}

# Does the YAML file $1 run kernels that use shared memory?  A case says
# so with "#@ shares-memory" (they all load tk.ptx, where one kernel does);
# an example when a module it loads has .shared in its PTX.
uses_shared() {
	has_flag "$1" shares-memory && return 0
	case $1 in cases/*) return 1 ;; esac
	dir=$(dirname "$1")
	for m in $(grep -a -o '[A-Za-z0-9_./-]*\.ptx' "$1"); do
		[ -f "$dir/$m" ] && grep -q '\.shared' "$dir/$m" && return 0
	done
	return 1
}

# Skip $1 ($2 its YAML) in racecheck/synccheck modes unless it shares
# memory, and in any sanitizer mode when it says "#@ no-sanitizer: WHY".
san_skip() {
	[ -n "$SANITIZE" ] || return 1
	why=$(directives "$2" no-sanitizer)
	if [ -n "$why" ]; then
		skipped "$1" "not under compute-sanitizer: $why"
		return 0
	fi
	case $SANITIZE in
	racecheck | synccheck)
		uses_shared "$2" && return 1
		skipped "$1" "no shared memory"
		return 0 ;;
	esac
	return 1
}

# Known failures under compute-sanitizer (2025.3.1, driver 580 on an H100)
# that are not cugraphrun's: graphs with conditional nodes fail now and
# then with CUDA_ERROR_ILLEGAL_ADDRESS while memcheck reports no access of
# any kernel, or the process dies (exit 11) after a clean report, and the
# same WHILE graph built by hand with the driver API alone (no cugraphrun)
# fails the same way under memcheck and never without it.  Such runs still
# run; a failure is listed as XFAIL, not counted as a failure, a pass as a
# pass.  Examples here by name, cases by "#@ sanitizer-known: WHY".
# while-source is a WHILE graph too: once its cuFuncGetParamInfo report
# was gone, its one report left was that CUDA_ERROR_ILLEGAL_ADDRESS; intro
# and jacobi are WHILE graphs, and failed so at their first timed launch.
# cg-cublas is a WHILE graph as well (its body of cuBLAS calls).
SANITIZE_KNOWN_EXAMPLES="while-countdown nested-conditionals while-source intro jacobi cg-cublas"
SANITIZE_KNOWN_WHY="conditional nodes under compute-sanitizer fail without cause in cugraphrun (see run.sh)"
xfail=0

# Is $1 ($2 its YAML) a known sanitizer failure?  Its reason in $known_why.
san_known() {
	known_why=
	[ -n "$SANITIZE" ] || return 1
	known_why=$(directives "$2" sanitizer-known)
	case " $SANITIZE_KNOWN_EXAMPLES " in
	*" ${1#example:} "*) [ "$1" != "${1#example:}" ] && known_why=$SANITIZE_KNOWN_WHY ;;
	esac
	[ -n "$known_why" ]
}

# A failure that san_known expects: XFAIL, else FAIL.
bad_or_xfail() {
	if san_known "$1" "$2"; then
		xfail=$((xfail + 1))
		echo "XFAIL: $1 ($known_why): $3"
		return 0
	fi
	return 1
}

# What the sanitizer's log $1 says about the run of YAML file $2 that
# should exit with status $3, as a reason to fail (empty: clean).  Each
# report in the log starts with a line "========= TEXT" (its details are
# indented further); the summary counts them.  Reports allowed:
#   - API errors ("Program hit ...") in a run that expects a failure;
#   - reports holding a case's "#@ sanitizer-allows: TEXT" lines (in any
#     of their lines: "at trap+" names the kernel that traps on purpose).
# No cuFuncGetParamInfo error is allowed, for any module kind: the driver
# does not say how many parameters a kernel has, and cugraphrun reads the
# count from the image (src/cubin.h: PTX, cubins, NVRTC's cubins, a
# fatbin's entry for the device) so as to ask about exactly that many.
# Only an image it cannot read (a fatbin whose entry for the device is
# compressed, as nvcc's PTX entries are; a format it does not know) makes
# it ask until the call fails, and the suite's kernels are none of those
# on an sm_90 device: bundle.sh's fatbins hold an uncompressed sm_90 cubin.
san_verdict() {
	[ -n "$SANITIZE" ] || return 0
	[ -f "$1" ] || { echo "no sanitizer log"; return 0; }
	total=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p; s/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$1" | tail -n 1)
	[ -n "$total" ] || { echo "no summary in the sanitizer log"; return 0; }
	directives "$2" sanitizer-allows >"$1.allowed"
	[ "$3" -ne 0 ] && echo 'Program hit ' >>"$1.allowed"
	allowed=0
	# reports: from one "========= TEXT" line to the next; count those holding an allowed text
	[ -s "$1.allowed" ] && allowed=$(awk -v pats="$1.allowed" '
		BEGIN { while ((getline p < pats) > 0) if (p != "") allow[++n] = p }
		function done() { if (open) for (i = 1; i <= n; i++) if (index(blk, allow[i])) { c++; break }; open = 0; blk = "" }
		/^========= [^ ]/ { done(); if ($0 !~ /COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|Target application|Error: /) { open = 1; blk = $0 }; next }
		/^=========  / { if (open) blk = blk "\n" $0; next }
		END { done(); print c + 0 }' "$1")
	[ "$total" -le "$allowed" ] || echo "$SANITIZE: $((total - allowed)) errors ($total reported, $allowed allowed)"
}

# Is the --json output $1 (shown as $2) there and valid under the schema?
# Sets rwhy to why not (empty: it is, or it is there and python3 cannot
# tell); counts what was validated and what could not be.
report_valid() {
	rwhy=
	if [ ! -s "$1" ]; then
		rwhy="no JSON report $2"
	elif [ -n "$report_skip" ]; then
		reports_unchecked=$((reports_unchecked + 1))
		printf '%s\n' "$1" >>"$UNCHECKED"
	elif rout=$(python3 "$RS" --schema "$RS_SCHEMA" --quiet "$1" 2>&1); then
		reports_valid=$((reports_valid + 1))
	else
		rwhy="JSON report $2 not valid under schemas/report.schema.json: $(printf '%s\n' "$rout" | head -n 3)"
	fi
}

wanted() {
	[ $# -eq 1 ] && return 0
	name=$1
	shift
	for w in "$@"; do
		[ "$w" = "$name" ] && return 0
	done
	return 1
}

# The directives of a case: lines "#@ KEY: VALUE" (or "#@ KEY").
directives() {
	sed -n "s/^#@ $2: \{0,1\}//p" "$1"
}

has_flag() {
	grep -q "^#@ $2\$" "$1"
}

run_unit() {
	[ -x "$D/bin/gpu_unit" ] || { skipped gpu_unit "not bundled"; return; }
	out=$RESULTS/gpu_unit
	mkdir -p "$out"
	CK_FORK=no TOP_SRCDIR=$D limited "$D/bin/gpu_unit" >"$out/stdout" 2>"$out/stderr"
	st=$?
	case $st in
	0) ok gpu_unit ;;
	77) skipped gpu_unit "no GPU" ;;
	*) bad gpu_unit "exit $st"; show "$out/stdout" stdout; show "$out/stderr" stderr ;;
	esac
}

# Skip $1 ($2 its YAML) when it says "#@ gpus: N" and the machine has fewer.
gpus_skip() {
	want=$(directives "$2" gpus)
	[ -n "$want" ] && [ "$GPUS" -lt "$want" ] || return 1
	skipped "$1" "needs $want GPUs, this machine has $GPUS"
	return 0
}

run_example() {
	f=$1
	name=example:$(basename "$f" .yaml)
	out=$RESULTS/$(basename "$f" .yaml).example
	mkdir -p "$out"
	gpus_skip "$name" "$f" && return
	san_skip "$name" "$f" && return
	sargs=
	[ -n "$SANITIZE" ] && sargs=$SANITIZE_ARGS
	# shellcheck disable=SC2046,SC2086
	limited $(san_prefix "$out/sanitizer.log") "$C" $sargs --json="$out/report.json" "$f" \
		>"$out/stdout" 2>"$out/stderr"
	st=$?
	why=
	[ $st -eq 0 ] || why="exit $st, expected 0"
	if [ $st -eq 0 ]; then
		report_valid "$out/report.json" report.json
		[ -z "$rwhy" ] || why=$rwhy
	fi
	san=$(san_verdict "$out/sanitizer.log" "$f" 0)
	[ -z "$san" ] || why="${why:+$why; }$san"
	if [ -z "$why" ]; then
		ok "$name"
	elif ! bad_or_xfail "$name" "$f" "$why"; then
		bad "$name" "$why"
		show "$out/stdout" stdout
		show "$out/stderr" stderr
		show "$out/sanitizer.log" "sanitizer log"
	fi
}

run_case() {
	f=$1
	base=$(basename "$f" .yaml)
	W=$RESULTS/$base
	mkdir -p "$W"
	export W
	need=$(directives "$f" needs)
	for p in $need; do
		if ! command -v "$p" >/dev/null 2>&1; then
			skipped "$base" "needs $p"
			return
		fi
	done
	gpus_skip "$base" "$f" && return
	san_skip "$base" "$f" && return
	args=$(directives "$f" args)
	want=$(directives "$f" status)
	want=${want:-0}
	envs=$(directives "$f" env)
	eval "set -- $args"
	sp=$(san_prefix "$W/sanitizer.log")
	eval "limited env $envs $sp \"\$C\" \"\$@\" \"\$f\"" >"$W/stdout" 2>"$W/stderr"
	st=$?
	why=
	[ "$st" -eq "$want" ] || why="exit $st, expected $want"
	san=$(san_verdict "$W/sanitizer.log" "$f" "$want")
	[ -z "$san" ] || why="${why:+$why; }$san"
	directives "$f" stderr >"$W/stderr.want"
	if has_flag "$f" stderr-exact; then
		if ! cmp -s "$W/stderr.want" "$W/stderr"; then
			why="${why:+$why; }stderr differs from the expected text"
			diff "$W/stderr.want" "$W/stderr" >"$W/stderr.diff"
		fi
	else
		while IFS= read -r line; do
			grep -qxF -- "$line" "$W/stderr" ||
				why="${why:+$why; }stderr lacks: $line"
		done <"$W/stderr.want"
	fi
	directives "$f" stdout >"$W/stdout.want"
	while IFS= read -r text; do
		grep -qF -- "$text" "$W/stdout" ||
			why="${why:+$why; }stdout lacks: $text"
	done <"$W/stdout.want"
	directives "$f" check >"$W/checks"
	while IFS= read -r cmd; do
		if ! (cd "$W" && eval "$cmd") >>"$W/check.log" 2>&1 </dev/null; then
			why="${why:+$why; }check failed: $cmd"
		fi
	done <"$W/checks"
	for r in $(directives "$f" report); do
		report_valid "$W/$r" "$r"
		[ -z "$rwhy" ] || why="${why:+$why; }$rwhy"
	done
	if [ -z "$why" ]; then
		ok "$base"
	elif ! bad_or_xfail "$base" "$f" "$why"; then
		bad "$base" "$why"
		show "$W/stderr.diff" "stderr diff (want, got)"
		show "$W/stdout" stdout
		show "$W/stderr" stderr
		show "$W/check.log" "check output"
		show "$W/sanitizer.log" "sanitizer log"
	fi
}

echo "cugraphrun GPU suite: $C"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null |
		sed 's/^/GPU: /'
fi
echo "GPUs: $GPUS${CUDA_VISIBLE_DEVICES+ (CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES)}"

[ -z "$SANITIZE" ] && wanted gpu_unit "$@" && run_unit
if [ -n "$report_skip" ]; then
	echo "report schema: JSON reports NOT validated: $report_skip; only checked to exist (skipped, not a failure)"
else
	echo "report schema: JSON reports validated against schemas/report.schema.json"
fi
[ -n "$SANITIZE" ] && echo "under compute-sanitizer --tool $SANITIZE ($("$CS" --version | tail -n 1))"
for f in examples/*.yaml; do
	[ -e "$f" ] || continue
	wanted "$(basename "$f" .yaml)" "$@" && run_example "$f"
done
for f in cases/*.yaml; do
	[ -e "$f" ] || continue
	wanted "$(basename "$f" .yaml)" "$@" && run_case "$f"
done

if [ -n "$report_skip" ]; then
	echo "JSON reports: $reports_unchecked NOT validated: $report_skip (skipped, not a failure); listed in $UNCHECKED, for report-schema.py where jsonschema is"
else
	echo "JSON reports: $reports_valid valid under schemas/report.schema.json"
fi
echo "$pass passed, $fail failed, $skip skipped${SANITIZE:+, $xfail known sanitizer failures (XFAIL)}"
[ -n "$failed_names" ] && echo "failed:$failed_names"
[ "$fail" -eq 0 ]
