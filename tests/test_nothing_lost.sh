# Nothing silently lost or wrong: a file that holds no PDN game is refused whole; a
# shallower annotation never hides a deeper one; an old store is migrated under the
# write lock by one of two programs at once, and one it cannot migrate is left as it
# was; a damaged row is named and skipped by export and blunders; a weights file is read
# whole or refused; an engine spec or an engines file is never cut or read forever.
. "$TESTS_DIR/lib.sh"
G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"

# --- a file with no PDN game in it ---
run "$PDNKIT" import --db "$T_TMP/r.db" "$TESTS_DIR/../README.md"
expect_rc 3 "README.md imported"
expect_err_has "README.md: not PDN: none of its" "README.md refused with its reason"
expect_err_has "nothing imported from it" "and says nothing was imported"
run "$PDNKIT" import --db "$T_TMP/r.db" "$PDNKIT" "$G37"
expect_rc 3 "a program imported"
expect_err_has "not PDN: binary data (a NUL byte at offset" "the program refused as binary data"
[ "$(sqlite3 "$T_TMP/r.db" "SELECT count(*) FROM game")" = 1 ] && pass ||
	fail "only the real game of the three files stored: $(sqlite3 "$T_TMP/r.db" "SELECT count(*) FROM game")"
# text before the first game of a real file is no reason to refuse it
{ printf 'Games of the club, typed in by hand.\nSee the notes at the end.\n\n'; cat "$G37"; } >"$T_TMP/lead.pdn"
run "$PDNKIT" import --db "$T_TMP/lead.db" "$T_TMP/lead.pdn"
expect_rc 0 "a file with a preface"
[ "$(sqlite3 "$T_TMP/lead.db" "SELECT count(*) FROM game")" -ge 1 ] && pass || fail "the game after the preface stored"
# games without tags whose moves replay are games
printf '1. 11-15 23-19 2. 8-11 22-17 *\n\n1. 9-14 22-18 *\n' >"$T_TMP/notags.pdn"
run "$PDNKIT" import --db "$T_TMP/nt.db" "$T_TMP/notags.pdn"
expect_rc 0 "games without tags"
[ "$(sqlite3 "$T_TMP/nt.db" "SELECT count(*) FROM game")" = 2 ] && pass || fail "both tagless games stored"

have_corpora "the rest of the store's findings" || { done_testing; exit; }

# --- a shallower annotation never replaces a deeper one ---
# (nine games of the 1981 match: 3 and 30 to 37)
EV="Petal 1981, game 3"
DB="$T_TMP/a.db"
"$PDNKIT" import --db "$DB" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
"$PDNKIT" annotate --db "$DB" --event "$EV" --depth 10 --quiet --egdb none >/dev/null 2>&1
run "$PDNKIT" blunders --db "$DB" --event "$EV" --json
DEEP=$(echo "$OUT" | md5sum)
NDEEP=$(echo "$OUT" | grep -c '"loss"')
[ "$NDEEP" -gt 0 ] && pass || fail "the depth-10 run lists no blunder"
run "$PDNKIT" report --db "$DB" --event "$EV" --depth 4 --egdb none -o "$T_TMP/r.html"
expect_rc 0 "a report at depth 4 after annotating at depth 10"
run "$PDNKIT" blunders --db "$DB" --event "$EV" --json
[ "$(echo "$OUT" | md5sum)" = "$DEEP" ] && pass || fail "the shallower run replaced the deeper one in blunders: $(echo "$OUT" | head -2)"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM annotation_run WHERE settings LIKE 'depth=4 %' OR settings LIKE 'depth=10 %'")" = 2 ] && pass ||
	fail "the store does not hold both runs: $(sqlite3 "$DB" "SELECT settings FROM annotation_run")"
# the report and the annotate command search the same depth by default: one run
run "$PDNKIT" report --db "$DB" --event "Petal 1981, game 37" --egdb none -o "$T_TMP/r2.html"
expect_err_has "0 annotated now, 1 read back" "the report reads back annotate's default run"

# --- migration: two programs at once, and rows that cannot be migrated ---
small="$T_TMP/small.db"
"$PDNKIT" import --db "$small" "$G37" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
want=$("$PDNKIT" query --db "$small" --format count)
old() {
	cp "$small" "$1"
	sqlite3 "$1" "DROP TABLE position_block; CREATE TABLE position(part INTEGER NOT NULL, key INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, PRIMARY KEY(part, key, game, ply)) WITHOUT ROWID; INSERT INTO position VALUES(0, 12345, 1, 0); PRAGMA user_version = 3"
}
old "$T_TMP/v3.db"
"$PDNKIT" query --db "$T_TMP/v3.db" --format count >"$T_TMP/q1" 2>"$T_TMP/e1" &
P1=$!
"$PDNKIT" query --db "$T_TMP/v3.db" --format count >"$T_TMP/q2" 2>"$T_TMP/e2" &
P2=$!
wait $P1; R1=$?
wait $P2; R2=$?
[ $R1 = 0 ] && [ $R2 = 0 ] && [ "$(cat "$T_TMP/q1")" = "$want" ] && [ "$(cat "$T_TMP/q2")" = "$want" ] && pass ||
	fail "two programs migrating one store at once: $R1 $R2 [$(cat "$T_TMP/e1" "$T_TMP/e2")]"
[ "$(sqlite3 "$T_TMP/v3.db" "PRAGMA user_version")" = 4 ] && pass || fail "the store migrated once"
old "$T_TMP/bad.db"
sqlite3 "$T_TMP/bad.db" "INSERT INTO position VALUES(-7, 1, 99999999, -3)"
SUM=$(cksum <"$T_TMP/bad.db")
run "$PDNKIT" query --db "$T_TMP/bad.db" --format count
expect_rc 3 "a store with a row that cannot be migrated"
expect_err_has "cannot be migrated (part -7, game 99999999, ply -3)" "the row named"
[ "$(sqlite3 "$T_TMP/bad.db" "PRAGMA user_version")" = 3 ] && [ "$(cksum <"$T_TMP/bad.db")" = "$SUM" ] && pass ||
	fail "the store changed by a migration that failed"
sqlite3 "$T_TMP/bad.db" "DELETE FROM position WHERE part < 0 OR game < part * 8192 OR game >= (part + 1) * 8192 OR ply < 0"
run "$PDNKIT" query --db "$T_TMP/bad.db" --format count
expect_out "$want" "the store migrates once the row is deleted as the message says"

# --- a damaged row is named and skipped ---
cp "$small" "$T_TMP/dmg.db"
"$PDNKIT" annotate --db "$T_TMP/dmg.db" --depth 4 --limit 30 --quiet --egdb none >/dev/null 2>&1
BAD=$(sqlite3 "$T_TMP/dmg.db" "SELECT game FROM annotation WHERE loss > 0 ORDER BY loss DESC LIMIT 1")
sqlite3 "$T_TMP/dmg.db" "UPDATE game SET moves = x'FFFFFF' WHERE id = $BAD"
N=$(sqlite3 "$T_TMP/dmg.db" "SELECT count(*) FROM game WHERE copy_of IS NULL")
run "$PDNKIT" export --db "$T_TMP/dmg.db"
expect_rc 3 "export with a damaged game"
expect_err_has "game $BAD: stored move 1 is corrupt; skipped" "the damaged game named"
[ "$(echo "$OUT" | grep -c '^\[Event ')" = $((N - 1)) ] && pass || fail "export wrote $(echo "$OUT" | grep -c '^\[Event ') of the $((N - 1)) others"
run "$PDNKIT" blunders --db "$T_TMP/dmg.db" --min-loss 1
expect_rc 3 "blunders with a damaged game"
expect_err_has "game $BAD: cannot replay it" "the damaged game named"
[ -n "$OUT" ] && pass || fail "the other games' blunders listed"

# --- weights: read whole or refused ---
printf 'king%120s50000\n' '' >"$T_TMP/w1.txt"
run "$PDNKIT" analyze --depth 2 --weights "$T_TMP/w1.txt"
expect_rc 3 "a weight after 120 blanks"
expect_err_has "king = 50000 is out of range" "read whole, not cut at 127 bytes"
{ i=0; while [ $i -lt 400 ]; do printf '# a comment line to make the file long\n'; i=$((i + 1)); done; printf 'no_such_weight 1\n'; } >"$T_TMP/w2.txt"
run "$PDNKIT" analyze --depth 2 --weights "$T_TMP/w2.txt"
expect_rc 3 "a bad line after 8 KB"
expect_err_has "unknown weight 'no_such_weight'" "the end of a long file read"
printf 'king 500\000man 100\n' >"$T_TMP/w3.txt"
run "$PDNKIT" analyze --depth 2 --weights "$T_TMP/w3.txt"
expect_rc 3 "a NUL byte in a weights file"
expect_err_has "a NUL byte at offset 8" "the NUL said"
printf 'king 500x\n' >"$T_TMP/w4.txt"
run "$PDNKIT" analyze --depth 2 --weights "$T_TMP/w4.txt"
expect_rc 3 "a value with junk after it"

# --- engine specs and the engines file ---
LONG=$(printf '%01100d' 0)
run "$PDNKIT" engines check "pdnkit:--depth 12 --hash 8 $LONG"
expect_rc 2 "a spec over 1,023 bytes"
expect_err_has "bytes long: at most 1023" "refused, not cut"
run "$PDNKIT" engines check "hub:/bin/echo $LONG"
expect_rc 2 "a hub: spec over 1,023 bytes"
man -l "$TESTS_DIR/../man/pdnkit-engines.5" 2>/dev/null | sed -n '/^EXAMPLE/,/^SEE ALSO/p' | sed '1d;$d' | sed 's/^ *//' >"$T_TMP/engines"
if [ -s "$T_TMP/engines" ]; then
	run "$PDNKIT" engines check --engines "$T_TMP/engines" pdnkit-d8
	expect_rc 0 "the example of pdnkit-engines(5) checks"
else
	echo "SKIP $T_NAME: man cannot render pdnkit-engines(5)"
fi
run timeout 10 "$PDNKIT" engines list --engines /dev/zero
expect_rc 3 "engines list on /dev/zero"
expect_err_has "not a regular file (a device)" "says why"
mkfifo "$T_TMP/fifo"
run timeout 10 "$PDNKIT" engines list --engines "$T_TMP/fifo"
expect_rc 3 "engines list on a FIFO"
run "$PDNKIT" engines list --engines "$T_TMP/no-such-file"
expect_rc 3 "engines list of a missing file"
expect_err_has "No such file or directory" "says so"

done_testing
