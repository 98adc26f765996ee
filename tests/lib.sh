# Assertions for the shell tests of the command line. Each test file sources this,
# calls the checks, and ends with `done_testing`.
# PDNKIT is the binary under test; CORPORA the shared real-data directory.
: "${PDNKIT:=./pdnkit}"
T_PASSED=0
T_FAILED=0
T_NAME=$(basename "$0" .sh)
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT

pass() { T_PASSED=$((T_PASSED + 1)); }
fail() { T_FAILED=$((T_FAILED + 1)); echo "FAIL $T_NAME: $*"; }

# run CMD...: captures stdout, stderr and exit status in $OUT, $ERR, $RC.
run() {
	"$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}

expect_rc() { [ "$RC" -eq "$1" ] && pass || fail "$2: exit status $RC, want $1 (stderr: $ERR)"; }
expect_out() { [ "$OUT" = "$1" ] && pass || fail "$2: stdout was [$OUT], want [$1]"; }
expect_out_has() { case $OUT in *"$1"*) pass ;; *) fail "$2: stdout lacks [$1]: [$OUT]" ;; esac; }
expect_err_has() { case $ERR in *"$1"*) pass ;; *) fail "$2: stderr lacks [$1]: [$ERR]" ;; esac; }
expect_err_lacks() { case $ERR in *"$1"*) fail "$2: stderr has [$1]: [$ERR]" ;; *) pass ;; esac; }
expect_err_empty() { [ -z "$ERR" ] && pass || fail "$1: stderr not empty: [$ERR]"; }

# have_corpora: true when the shared corpora are there; otherwise says which checks are
# skipped ("SKIP name: ..."), which tests/run.sh counts and CI refuses.
have_corpora() {
	[ -f "$CORPORA/OCA_2.0.pdn" ] && return 0
	echo "SKIP $T_NAME: ${1:-the corpus checks}: $CORPORA/OCA_2.0.pdn not found"
	return 1
}

done_testing() {
	echo "$T_NAME: $T_PASSED passed, $T_FAILED failed"
	[ "$T_FAILED" -eq 0 ]
}
