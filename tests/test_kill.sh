# kill -9 at moments spread over an import, a batch annotation and a book build: the
# database passes its integrity check, a rerun completes, and what it holds (or the book
# written) is the same as after a run that was never interrupted.
. "$TESTS_DIR/lib.sh"

have_corpora "the kill -9 checks" || { done_testing; exit $?; }
OCA="$CORPORA/OCA_2.0.pdn"
TINSLEY="$CORPORA/tinsley.pdn"

# killed_after SECONDS CMD...: start CMD, kill -9 it after SECONDS (if still running)
killed_after() {
	delay=$1
	shift
	"$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
}
integrity() { [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ]; }
games_digest() { sqlite3 "$1" 'SELECT black, white, event, date, result, hex(moves) FROM game ORDER BY 6, 1, 2, 3, 4' | cksum; }

"$PDNKIT" import --db "$T_TMP/clean.db" "$OCA" 2>/dev/null
want=$(games_digest "$T_TMP/clean.db")
for d in 0.2 0.6 1.1; do
	rm -f "$T_TMP"/k.db*
	killed_after $d "$PDNKIT" import --db "$T_TMP/k.db" "$OCA"
	if [ -f "$T_TMP/k.db" ]; then
		integrity "$T_TMP/k.db" && pass || fail "import killed after $d s: integrity_check"
	fi
	"$PDNKIT" import --db "$T_TMP/k.db" "$OCA" 2>/dev/null
	[ $? -eq 0 ] && pass || fail "import killed after $d s: the rerun failed"
	[ "$(games_digest "$T_TMP/k.db")" = "$want" ] && pass ||
		fail "import killed after $d s: after the rerun the games differ from a clean import"
done

# (--verify 0: the deeper searches of flagged moves are most of the time of a run and
# nothing of what a kill tests)
"$PDNKIT" import --db "$T_TMP/a.db" "$TINSLEY" 2>/dev/null
"$PDNKIT" annotate --db "$T_TMP/a.db" --depth 3 --verify 0 -q 2>/dev/null
ann_digest() { sqlite3 "$1" 'SELECT a.game, a.ply, a.class, a.move, a.best, a.loss FROM annotation a ORDER BY 1, 2' | cksum; }
want=$(ann_digest "$T_TMP/a.db")
for d in 0.3 0.9; do
	rm -f "$T_TMP"/b.db*
	"$PDNKIT" import --db "$T_TMP/b.db" "$TINSLEY" 2>/dev/null
	killed_after $d "$PDNKIT" annotate --db "$T_TMP/b.db" --depth 3 --verify 0 -q
	integrity "$T_TMP/b.db" && pass || fail "annotate killed after $d s: integrity_check"
	"$PDNKIT" annotate --db "$T_TMP/b.db" --depth 3 --verify 0 -q 2>/dev/null
	[ $? -eq 0 ] && pass || fail "annotate killed after $d s: the rerun failed"
	[ "$(ann_digest "$T_TMP/b.db")" = "$want" ] && pass ||
		fail "annotate killed after $d s: after the rerun the annotations differ from a clean run"
done

"$PDNKIT" book build -o "$T_TMP/clean.book" --plies 60 "$OCA" >/dev/null 2>&1
echo old >"$T_TMP/k.book"
for d in 0.3 0.8; do
	killed_after $d "$PDNKIT" book build -o "$T_TMP/k.book" --plies 60 "$OCA"
	if cmp -s "$T_TMP/k.book" "$T_TMP/clean.book" || [ "$(cat "$T_TMP/k.book")" = old ]; then
		pass
	else
		fail "book build killed after $d s: the book file is neither the old one nor whole"
	fi
done
"$PDNKIT" book build -o "$T_TMP/k.book" --plies 60 "$OCA" >/dev/null 2>&1
cmp -s "$T_TMP/k.book" "$T_TMP/clean.book" && pass || fail "book build: the rerun differs from a clean build"

# A polite signal (SIGINT, SIGTERM, SIGHUP) to a long command: it keeps or writes what
# is finished, says "interrupted after ...", and exits with 128 + the signal.
# signalled SIG SECONDS OUTFILE ERRFILE CMD...: the command's exit status in $SRC
signalled() {
	sig=$1 delay=$2 o=$3 e=$4
	shift 4
	"$@" >"$o" 2>"$e" &
	pid=$!
	sleep "$delay"
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	SRC=$?
}
# (a fifth of OCA 2.0: read within the 3 s even by a sanitizer build on a loaded machine,
# so that the signal comes during the fit)
awk '/^\[Event / { n++ } n > 4500 { exit } { print }' "$OCA" >"$T_TMP/oca5.pdn"
signalled TERM 3 "$T_TMP/tune.out" "$T_TMP/tune.err" "$PDNKIT" tune --epochs 100000 -o "$T_TMP/w.txt" "$T_TMP/oca5.pdn"
[ $SRC -eq 143 ] && pass || fail "tune on SIGTERM: exit status $SRC"
grep -q "interrupted after [0-9]* of 100000 epochs of the fit; the weights above are those reached, and written" "$T_TMP/tune.err" &&
	grep -q "epochs (interrupted)" "$T_TMP/w.txt" && pass || fail "tune interrupted: $(cat "$T_TMP/tune.err")"
# train's labelling interrupted: the positions searched so far are kept in the labels
# file, and the same command goes on from them
signalled INT 4 "$T_TMP/tl.out" "$T_TMP/tl.err" "$PDNKIT" train --label-depth 14 --label-file "$T_TMP/tl.lab" --threads 2 -o "$T_TMP/tl.txt" "$TINSLEY"
[ $SRC -eq 130 ] && pass || fail "train's labelling on SIGINT: exit status $SRC"
kept=$(sed -n "s/.*nothing was fitted; the \([0-9]*\) searched are kept in.*/\1/p" "$T_TMP/tl.err")
[ -n "$kept" ] && [ ! -e "$T_TMP/tl.txt" ] && head -c 16 "$T_TMP/tl.lab" | grep -q "pdnkit-labels 3" && pass ||
	fail "train interrupted while labelling: $(cat "$T_TMP/tl.err")"
signalled INT 4 "$T_TMP/tl2.out" "$T_TMP/tl2.err" "$PDNKIT" train --label-depth 14 --label-file "$T_TMP/tl.lab" --threads 2 -o "$T_TMP/tl.txt" "$TINSLEY"
# (positions met in several games share a label: at least as many labelled as kept)
read_back=$(sed -n "s/^train: \([0-9]*\) of [0-9]* positions labelled from the labels file.*/\1/p" "$T_TMP/tl2.err")
[ -n "$read_back" ] && [ "$read_back" -ge "$kept" ] && pass || fail "the rerun does not read the $kept kept: $(cat "$T_TMP/tl2.err")"
# forty copies of OCA (900,000 games): more than any machine reads in the second before the signal
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40; do
	set -- "$@" "$OCA"
done
signalled INT 1 "$T_TMP/bb.out" "$T_TMP/bb.err" "$PDNKIT" book build -o "$T_TMP/bb.book" "$@"
[ $SRC -eq 130 ] && pass || fail "book build on SIGINT: exit status $SRC"
grep -q "interrupted after reading [0-9]* games; no book was written" "$T_TMP/bb.err" && [ ! -e "$T_TMP/bb.book" ] && pass ||
	fail "book build interrupted: $(cat "$T_TMP/bb.err")"
for cmd in tune train; do
	signalled INT 1 "$T_TMP/rd.out" "$T_TMP/rd.err" "$PDNKIT" $cmd -o "$T_TMP/rd.txt" "$@"
	[ $SRC -eq 130 ] && grep -q "interrupted while reading the games; nothing was fitted" "$T_TMP/rd.err" &&
		! grep -q "error reading" "$T_TMP/rd.err" && [ ! -e "$T_TMP/rd.txt" ] && pass ||
		fail "$cmd interrupted while reading: exit status $SRC: $(cat "$T_TMP/rd.err")"
done
signalled TERM 3 "$T_TMP/bx.out" "$T_TMP/bx.err" "$PDNKIT" book expand -q -n 100000 --engine-options "--depth 8 --egdb none" -o "$T_TMP/bx.book"
[ $SRC -eq 143 ] && pass || fail "book expand on SIGTERM: exit status $SRC"
grep -q "interrupted after [0-9]* of 100000 positions searched; the book of those is written" "$T_TMP/bx.err" && pass ||
	fail "book expand interrupted: $(cat "$T_TMP/bx.err")"
"$PDNKIT" book probe "$T_TMP/bx.book" >/dev/null 2>&1 && pass || fail "the book of an interrupted expansion does not read"
mkdir -p "$T_TMP/ev"
"$PDNKIT" egdb build -q --dir "$T_TMP/ev" --pieces 4 >/dev/null 2>&1
signalled INT 0.3 "$T_TMP/ev.out" "$T_TMP/ev.err" "$PDNKIT" egdb verify --dir "$T_TMP/ev"
if [ $SRC -eq 130 ]; then
	grep -q "interrupted after [0-9]* positions checked" "$T_TMP/ev.err" && ! grep -q "^verified" "$T_TMP/ev.out" && pass ||
		fail "egdb verify interrupted says it verified: $(cat "$T_TMP/ev.out" "$T_TMP/ev.err")"
else
	pass   # it finished before the signal: nothing to check
fi
# play -o: the game is saved when the terminal closes or SIGTERM comes
mkfifo "$T_TMP/play.in"
"$PDNKIT" play --line --depth 2 --egdb none -o "$T_TMP/played.pdn" <"$T_TMP/play.in" >"$T_TMP/play.out" 2>"$T_TMP/play.err" &
pp=$!
exec 7>"$T_TMP/play.in"
echo "11-15" >&7
sleep 1
kill -HUP $pp
wait $pp
prc=$?
exec 7>&-
[ $prc -eq 129 ] && pass || fail "play on SIGHUP: exit status $prc"
grep -q "ended by a signal (the terminal closed) after 2 plies; the game is saved" "$T_TMP/play.err" && pass ||
	fail "play on SIGHUP: $(cat "$T_TMP/play.err")"
grep -q '^1\. 11-15 ' "$T_TMP/played.pdn" && pass || fail "the game played is not saved: $(cat "$T_TMP/played.pdn" 2>&1)"
done_testing
