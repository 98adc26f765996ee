#!/bin/sh
# Runs every compiled unit test (BINDIR/test_*) and every shell test (tests/test_*.sh)
# against the pdnkit binary, adds up their "N passed, N failed" lines and ends with the
# total. A test that dies without its summary counts as one failure.
# The tests run side by side, one a core (TEST_JOBS=N to choose; 1: one after the
# other); each test's lines are printed together, in the order of the files, with the
# seconds it took.
# usage: tests/run.sh BINDIR PDNKIT
bindir=${1:-build/tests}
case $bindir in /*) ;; *) bindir=$(pwd)/$bindir ;; esac
export BINDIR="$bindir"
PDNKIT=${2:-./pdnkit}
case $PDNKIT in /*) ;; *) PDNKIT=$(pwd)/$PDNKIT ;; esac
export PDNKIT
# The tests choose their endgame databases themselves (--egdb, --dir): none from the
# user's data directory.
export PDNKIT_EGDB=none
here=$(cd "$(dirname "$0")" && pwd)
export TESTS_DIR="$here"
export CORPORA="${CORPORA:-$here/../../shared/corpora}"
jobs=${TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
passed=0
failed=0
skipped=0
RUN_DIR=$(mktemp -d)
export RUN_DIR
trap 'rm -rf "$RUN_DIR"' EXIT

# TEST_RELEASE_ONLY: shell tests this run leaves to the release run, named (the
# sanitizer run's: the suites of the engine's play and learning, which read no outside
# input and take most of its time under the sanitizers; `make sanitize` sets it).
release_only=" ${TEST_RELEASE_ONLY:-} "

# The tests to run: number, name, kind (bin or sh), file; NUL-separated for xargs.
list="$RUN_DIR/list"
: >"$list"
n=0
for src in "$here"/test_*.c; do
	t="$bindir/$(basename "$src" .c)"
	if [ ! -x "$t" ]; then
		echo "FAIL $(basename "$t"): not built (run 'make check')"
		failed=$((failed + 1))
		continue
	fi
	n=$((n + 1))
	printf '%s\0%s\0bin\0%s\0' "$n" "$(basename "$t")" "$t" >>"$list"
done
for t in "$here"/test_*.sh; do
	[ -f "$t" ] || continue
	case $release_only in
	*" $(basename "$t") "*)
		echo "NOTE $(basename "$t" .sh): left to the release run (make check)"
		continue ;;
	esac
	n=$((n + 1))
	printf '%s\0%s\0sh\0%s\0' "$n" "$(basename "$t")" "$t" >>"$list"
done

# One test: its output, exit status and seconds, kept under its number.
one='i=$1; kind=$3; file=$4
t0=$(date +%s.%N)
if [ "$kind" = sh ]; then sh "$file"; else "$file"; fi >"$RUN_DIR/$i.out" 2>&1
echo $? >"$RUN_DIR/$i.rc"
t1=$(date +%s.%N)
echo "$t0 $t1" | awk "{ printf \"%.1f\", \$2 - \$1 }" >"$RUN_DIR/$i.time"'
# The longest first (under the sanitizers they take minutes; the unit tests of the
# variants' databases and search among them), then the other shell tests, then the
# unit tests: the run ends when its longest test does, so a long one must not start last
# (the slow ones in the order named).
slow=' test_egdb.sh test_vegdb test_kill.sh test_engine.sh test_engines.sh test_hostile.sh test_vsearch test_disk.sh '
tr '\0' '\n' <"$list" | paste - - - - | awk -v slow="$slow" -F '\t' '
	{ at = index(slow, " " $2 " "); rank = at ? 0 : $3 == "sh" ? 1 : 2; print rank "\t" (at ? at : NR) "\t" $0 }' |
	sort -t "$(printf '\t')" -k1,1n -k2,2n | cut -f 3- | tr '\t' '\0' | tr '\n' '\0' |
	xargs -0 -n 4 -P "$jobs" sh -c "$one" sh

summarize() {
	i=$1
	name=$2
	out="$RUN_DIR/$i.out"
	rc=$(cat "$RUN_DIR/$i.rc" 2>/dev/null || echo 127)
	secs=$(cat "$RUN_DIR/$i.time" 2>/dev/null || echo '?')
	grep -v ': [0-9]* passed, [0-9]* failed$' "$out" 2>/dev/null
	k=$(grep -c '^SKIP ' "$out" 2>/dev/null)
	skipped=$((skipped + ${k:-0}))
	line=$(grep -E ': [0-9]+ passed, [0-9]+ failed$' "$out" 2>/dev/null | tail -1)
	if [ -z "$line" ]; then
		echo "FAIL $name: exited with status $rc before its summary"
		failed=$((failed + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
	f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited with status $rc"
		f=1
	fi
	printf '  %-22s %4d passed, %d failed  %6s s\n' "$name" "$p" "$f" "$secs"
	passed=$((passed + p))
	failed=$((failed + f))
}

i=0
for name in $(tr '\0' '\n' <"$list" | awk 'NR % 4 == 2'); do
	i=$((i + 1))
	summarize "$i" "$name"
done
# In CI the corpora must be there: a run that skipped real-data checks is not a pass.
if [ "$skipped" -gt 0 ] && [ "${CI:-}" = true ]; then
	echo "FAIL run.sh: $skipped groups of checks skipped in CI (CORPORA=$CORPORA)"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
