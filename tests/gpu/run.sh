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
#       #@ needs: PROGRAM      skip the case when PROGRAM is not installed
#
# Results (stdout, stderr, output files) stay in $RESULTS (default
# results/ beside this script), one directory per case.
#
# Usage: run.sh [NAME...]   (case or example names; default all)

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

pass=0 fail=0 skip=0
failed_names=

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
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

run_example() {
	f=$1
	name=example:$(basename "$f" .yaml)
	out=$RESULTS/$(basename "$f" .yaml).example
	mkdir -p "$out"
	limited "$C" "$f" >"$out/stdout" 2>"$out/stderr"
	st=$?
	if [ $st -eq 0 ]; then
		ok "$name"
	else
		bad "$name" "exit $st, expected 0"
		show "$out/stdout" stdout
		show "$out/stderr" stderr
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
	args=$(directives "$f" args)
	want=$(directives "$f" status)
	want=${want:-0}
	envs=$(directives "$f" env)
	eval "set -- $args"
	eval "limited env $envs \"\$C\" \"\$@\" \"\$f\"" >"$W/stdout" 2>"$W/stderr"
	st=$?
	why=
	[ "$st" -eq "$want" ] || why="exit $st, expected $want"
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
	if [ -z "$why" ]; then
		ok "$base"
	else
		bad "$base" "$why"
		show "$W/stderr.diff" "stderr diff (want, got)"
		show "$W/stdout" stdout
		show "$W/stderr" stderr
		show "$W/check.log" "check output"
	fi
}

echo "cugraphrun GPU suite: $C"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null |
		sed 's/^/GPU: /'
fi

wanted gpu_unit "$@" && run_unit
for f in examples/*.yaml; do
	[ -e "$f" ] || continue
	wanted "$(basename "$f" .yaml)" "$@" && run_example "$f"
done
for f in cases/*.yaml; do
	[ -e "$f" ] || continue
	wanted "$(basename "$f" .yaml)" "$@" && run_case "$f"
done

echo "$pass passed, $fail failed, $skip skipped"
[ -n "$failed_names" ] && echo "failed:$failed_names"
[ "$fail" -eq 0 ]
