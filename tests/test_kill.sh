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

"$PDNKIT" import --db "$T_TMP/a.db" "$TINSLEY" 2>/dev/null
"$PDNKIT" annotate --db "$T_TMP/a.db" --depth 3 -q 2>/dev/null
ann_digest() { sqlite3 "$1" 'SELECT a.game, a.ply, a.class, a.move, a.best, a.loss FROM annotation a ORDER BY 1, 2' | cksum; }
want=$(ann_digest "$T_TMP/a.db")
for d in 0.3 0.9; do
	rm -f "$T_TMP"/b.db*
	"$PDNKIT" import --db "$T_TMP/b.db" "$TINSLEY" 2>/dev/null
	killed_after $d "$PDNKIT" annotate --db "$T_TMP/b.db" --depth 3 -q
	integrity "$T_TMP/b.db" && pass || fail "annotate killed after $d s: integrity_check"
	"$PDNKIT" annotate --db "$T_TMP/b.db" --depth 3 -q 2>/dev/null
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

done_testing
