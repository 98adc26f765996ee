# Every option of every command given hostile values, as an attacker (or a mistyped
# script) would: empty, negative, huge, not a number, hexadecimal. The options are read
# from each command's --help, so an option added later is tried too. Each run must end
# within its time limit with exit status 0..3 (never a signal), and a failure must say
# what failed in a line that names the program; an empty value and a non-number for a
# numeric option are usage errors (status 2).
. "$TESTS_DIR/lib.sh"

FIX="$TESTS_DIR/../corpora/fixtures/result-in-moves.pdn"
BOOK="$TESTS_DIR/../book/pdnkit.book"
DB="$T_TMP/db.sqlite"
"$PDNKIT" import --db "$DB" "$FIX" >/dev/null 2>&1 && pass || fail "the database to try the options on"
"$PDNKIT" egdb build -q --dir "$T_TMP/eg" --pieces 2 >/dev/null 2>&1
# Output options given "abc" or "-1" write files of those names: in a directory of the
# test's own, never in the source tree.
mkdir -p "$T_TMP/cwd" && cd "$T_TMP/cwd" || exit 1

# command | the arguments that make it valid and quick
cat >"$T_TMP/commands" <<EOF
validate|$FIX
convert|$FIX
import|--db $T_TMP/imp.sqlite $FIX
query|--db $DB
export|--db $DB
stats|--db $DB
analyze|--nodes 2000
bench|--depth 1
match|--nodes 200 --games 2
solve|--nodes 200 $FIX
annotate|--nodes 200 $FIX
blunders|--db $DB
turns|$FIX
tune|$FIX
perft|2
diagram|--fen B:W21:B1
report|--depth 2 -o $T_TMP/r.html $FIX
book build|-o $T_TMP/b.book $FIX
book probe|$BOOK
book dump|$BOOK
book stats|$BOOK
book expand|-o $T_TMP/e.book -n 2 --engine-options=--nodes=200
egdb build|--dir $T_TMP/eg2 --pieces 2
egdb probe|--dir $T_TMP/eg W:WK1:BK32
egdb stats|--dir $T_TMP/eg
egdb verify|--dir $T_TMP/eg
play|--depth 1 --book none --egdb none
engine|--egdb none --no-book
EOF

runs=0
while IFS='|' read -r cmd args; do
	# --name=ARG pairs from the help text
	"$PDNKIT" $cmd --help 2>/dev/null | sed -n 's/.*--\([a-z-]*\)=\([A-Z"][^ ]*\).*/\1 \2/p' >"$T_TMP/opts"
	[ -s "$T_TMP/opts" ] || continue    # flags only (book stats)
	while read -r opt arg; do
		case $arg in
		N | K | CP | MB | S | L | P | D | G | "K/N") numeric=1 ;;
		*) numeric=0 ;;
		esac
		for v in "" -1 99999999999999999999 abc 0x10; do
			runs=$((runs + 1))
			# shellcheck disable=SC2086
			timeout -k 5 20 "$PDNKIT" $cmd $args "--$opt=$v" </dev/null >/dev/null 2>"$T_TMP/err"
			rc=$?
			what="$cmd --$opt='$v'"
			if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
				fail "$what: still running after 20 s"
				continue
			fi
			[ $rc -le 3 ] && pass || fail "$what: exit status $rc (stderr: $(tail -1 "$T_TMP/err"))"
			if [ $rc -ne 0 ]; then
				grep -q "pdnkit\|^$cmd\|${cmd#* }:" "$T_TMP/err" && pass ||
					fail "$what: exit status $rc without a message naming what failed"
			fi
			if [ -z "$v" ]; then
				[ $rc -eq 2 ] && pass || fail "$what: an empty value gives exit status $rc, want 2"
			elif [ $numeric = 1 ] && [ "$v" = abc ]; then
				[ $rc -eq 2 ] && pass || fail "$what: a non-number gives exit status $rc, want 2"
			fi
		done
	done <"$T_TMP/opts"
done <"$T_TMP/commands"
[ $runs -gt 500 ] && pass || fail "only $runs runs: options were not found"

# Paths: devices, directories and missing folders as databases and as outputs; a full
# standard output. Exit status 3 and one line naming the path.
mkdir -p "$T_TMP/dir"
for db in /dev/null /dev/zero "$T_TMP/dir" /nonexistent/x.db; do
	for cmd in "query" "import $FIX" "stats" "export"; do
		run "$PDNKIT" $cmd --db "$db"
		expect_rc 3 "$cmd --db $db"
		[ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ] && pass || fail "$cmd --db $db: more than one line: $ERR"
		expect_err_has "'$db'" "$cmd --db $db names it"
	done
done
for out in /dev/full "$T_TMP/dir" /nonexistent/x.out; do
	for cmd in "convert $FIX" "book build $FIX" "export --db $DB" "annotate --nodes 100 $FIX" "diagram" "report --depth 2 $FIX"; do
		run "$PDNKIT" $cmd -o "$out"
		expect_rc 3 "$cmd -o $out"
		expect_err_has "'$out'" "$cmd -o $out names it"
	done
done
for cmd in "convert $FIX" "export --db $DB" "query --db $DB" "stats --db $DB" "book dump $BOOK" "perft 3"; do
	# shellcheck disable=SC2086
	"$PDNKIT" $cmd >/dev/full 2>"$T_TMP/err"
	rc=$?
	[ $rc -eq 3 ] && pass || fail "$cmd >/dev/full: exit status $rc, want 3"
	grep -q "standard output" "$T_TMP/err" && pass || fail "$cmd >/dev/full: standard output not named: $(cat "$T_TMP/err")"
	[ "$(grep -c 'standard output' "$T_TMP/err")" -eq 1 ] && pass || fail "$cmd >/dev/full: said more than once: $(cat "$T_TMP/err")"
done
# Games of every variant whose FEN tag cannot be read (out of range, letters, ranges,
# junk, an empty list, a square twice), among good ones: every command that reads
# games goes on past them, never dies on a signal, and import stores each one, flagged.
hv="$T_TMP/hostile-variants.pdn"
: >"$hv"
n=0
for gt in 20 22 23 24 25 26 27 28 29 30 31 40; do
	for fen in "W:W51:B1" "W:W999:B1" "W:Wz9:Bb2" "W:W1-99:B2" "W:WK:B" "X:W1:B2" "W" ":::" "W:W1,1:B2" "W:Wa0:B1" \
		"W:W0:B1" "B:W-5:B3" "W:Wh5:Bg7" "W:W1:B1" "W:Wk1:B2" ; do
		printf '[GameType "%s"]\n[FEN "%s"]\n[Event "bad %d"]\n1. 32-28 *\n\n' "$gt" "$fen" "$n" >>"$hv"
		n=$((n + 1))
	done
	printf '[GameType "%s"]\n[Event "good %s"]\n*\n\n' "$gt" "$gt" >>"$hv"
	n=$((n + 1))
done
printf '[Event "english"]\n1. 11-15 23-19 *\n\n' >>"$hv"
n=$((n + 1))
hdb="$T_TMP/hostile-variants.db"
run "$PDNKIT" import --db "$hdb" "$hv"
[ "$RC" -le 3 ] && pass || fail "import of variant games with bad FENs: status $RC: $ERR"
expect_err_has "$n games read, $n stored" "every game with a bad FEN stored"
stored=$(sqlite3 "$hdb" "select count(*) from game" 2>/dev/null)
[ "$stored" = "$n" ] && pass || fail "stored $stored of $n games"
for cmd in "validate $hv" "convert $hv" "convert --format json $hv" "convert --plain $hv" "query --db $hdb" \
	"stats --db $hdb" "export --db $hdb" "blunders --db $hdb" "annotate --nodes 100 -q $hv" \
	"annotate --db $hdb --nodes 100 -q" "book build -o $T_TMP/hv.book --variant 25 $hv" "report --depth 1 -o $T_TMP/hv.html $hv"; do
	# shellcheck disable=SC2086
	run "$PDNKIT" $cmd
	[ "$RC" -le 3 ] && pass || fail "$cmd: status $RC (a signal?): $(echo "$ERR" | tail -2)"
done
run "$PDNKIT" convert --format json "$hv"
[ "$(echo "$OUT" | grep -c '"start":null')" -gt 0 ] && pass || fail "an unreadable FEN is a null start in JSON"

echo "hostile option values: $runs runs" >&2

done_testing
