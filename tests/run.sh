#!/bin/sh
# Runs every compiled unit test (BINDIR/test_*) and every shell test (tests/test_*.sh)
# against the pdnkit binary, adds up their "N passed, N failed" lines and ends with the
# total. A test that dies without its summary counts as one failure.
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
passed=0
failed=0
skipped=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run_one() {
	name=$1
	shift
	"$@" >"$out" 2>&1
	rc=$?
	grep -v ': [0-9]* passed, [0-9]* failed$' "$out"
	skipped=$((skipped + $(grep -c '^SKIP ' "$out")))
	line=$(grep -E ': [0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
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
	printf '  %-22s %4d passed, %d failed\n' "$name" "$p" "$f"
	passed=$((passed + p))
	failed=$((failed + f))
}

for src in "$here"/test_*.c; do
	t="$bindir/$(basename "$src" .c)"
	if [ ! -x "$t" ]; then
		echo "FAIL $(basename "$t"): not built (run 'make check')"
		failed=$((failed + 1))
		continue
	fi
	run_one "$(basename "$t")" "$t"
done
for t in "$here"/test_*.sh; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t")" sh "$t"
done
# In CI the corpora must be there: a run that skipped real-data checks is not a pass.
if [ "$skipped" -gt 0 ] && [ "${CI:-}" = true ]; then
	echo "FAIL run.sh: $skipped groups of checks skipped in CI (CORPORA=$CORPORA)"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
