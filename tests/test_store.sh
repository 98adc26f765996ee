# import, query, export, stats on small fixtures (exact output) and on OCA 2.0 and
# Tinsley's games (counts checked against independent counts of the raw files).
. "$TESTS_DIR/lib.sh"
DB="$T_TMP/t.db"
export PDNKIT_DB="$DB"
F=corpora/fixtures/duplicates.pdn

run "$PDNKIT" query
expect_rc 3 "query without a database"
expect_err_has "pdnkit query: no database at '$DB' (run 'pdnkit import' first, or give --db)" "missing database named"

run "$PDNKIT" import "$F"
expect_rc 0 "import fixture"
expect_err_has "pdnkit import: 4 games read, 4 stored, 0 duplicates skipped, 0 invalid (stored, flagged);" "import summary"
run "$PDNKIT" import --json "$F"
expect_out_has '"files":1,"games":4,"stored":0,"duplicates":4,"copies":0,"copies_were":"marked","invalid":0,"not_replayed":0,"other_variants":0,"interrupted":false' "re-import adds nothing"

run "$PDNKIT" query --format count
expect_out "4" "count"
run "$PDNKIT" query --player able --format count
expect_out "2" "--player is a case-insensitive substring"
run "$PDNKIT" query --black able --white fox --format json
expect_out '{"id":4,"event":"Other order, same position","site":null,"date":"1953.03.03","round":null,"black":"Able, A.","white":"Fox, F.","result":"1-0","plies":8,"status":"valid","gametype":21}' "json row"
run "$PDNKIT" query --date-from 1951 --date-to 1952-12 --format count
expect_out "2" "date range"
run "$PDNKIT" query --result draw --format count
expect_out "2" "--result draw"
run "$PDNKIT" query --opening "9-14 23-18 14x23 27x18 5-9" --format count
expect_out "3" "--opening"
run "$PDNKIT" query --opening "9-14 23-18 14x23 27x18 12-16" --format json
expect_out_has '"id":4' "--opening with the other order"
# The position after eight plies of game 1 is reached by game 4 in another order.
run "$PDNKIT" query --after "9-14 23-18 14x23 27x18 5-9 26-23 12-16 30-26" --format json --order ply
[ "$(echo "$OUT" | grep -c '"ply":8')" -eq 3 ] && echo "$OUT" | grep -q '"id":4' && pass || fail "--after finds games 1, 2 and 4 at ply 8: $OUT"
run "$PDNKIT" query --position "W:W21,22,24,25,26,27,28,29,30,31,32,10:B1,2,3,4,5,6,7,11,12,15,19,14" --format count
expect_out "0" "--position of an unreached position"
run "$PDNKIT" query --after "9-14 23-18 14x23 27x18 5-9 26-23" --order ply --desc --format json
[ "$(echo "$OUT" | grep -c '"ply":6')" -eq 3 ] && ! echo "$OUT" | grep -q '"id":4' && pass || fail "--after six plies: games 1, 2, 3"
run "$PDNKIT" query --min-plies 8 --max-plies 12 --format count
expect_out "3" "--min-plies/--max-plies"
run "$PDNKIT" query --limit 1 --order date --desc --format json
expect_out_has '"date":"1953.03.03"' "--order date --desc --limit 1"
run "$PDNKIT" query --duplicates
expect_out_has "the same moves (12 plies), 2 games:" "--duplicates (prefixes of 10 plies and more by default)"
[ "$(echo "$OUT" | grep -c '^  [12] ')" = 2 ] && [ "$(echo "$OUT" | grep -c 'beginning')" = 0 ] && pass ||
	fail "--duplicates: the two games as a table, no prefix: $OUT"
run "$PDNKIT" query --duplicates --min-plies 4
[ "$(echo "$OUT" | grep -c '^the first (6 plies) is the beginning of the second:$')" = 2 ] && pass ||
	fail "--duplicates --min-plies 4: two prefixes: $OUT"
[ "$(echo "$OUT" | grep -c '^  3 ')" = 2 ] && pass || fail "--duplicates --min-plies 4: game 3 in both: $OUT"
run "$PDNKIT" query --duplicates --min-plies 4 --format json
expect_out_has '{"kind":"prefix","plies":6,"games":[3,' "--duplicates as JSON"
run "$PDNKIT" query
expect_out_has "id      date       black                  white                  result  plies  event" "table header"

# Export reproduces the games; importing the export into a new store gives the same export.
run "$PDNKIT" export -o "$T_TMP/e.pdn.zst"
expect_err_has "pdnkit export: 4 games written" "export"
run "$PDNKIT" import --db "$T_TMP/e.db" "$T_TMP/e.pdn.zst"
expect_err_has "4 games read, 4 stored, 0 duplicates" "export re-imported"
"$PDNKIT" export > "$T_TMP/a.pdn" 2>/dev/null
"$PDNKIT" export --db "$T_TMP/e.db" > "$T_TMP/b.pdn" 2>/dev/null
cmp -s "$T_TMP/a.pdn" "$T_TMP/b.pdn" && pass || fail "export, re-import, export differs"
run "$PDNKIT" query --format pdn --event "Stopped"
expect_out_has '[Event "Stopped early"]' "query --format pdn"
expect_out_has '1. 9-14 23-18 2. 14x23 27x18 3. 5-9 26-23 *' "query --format pdn moves"

run "$PDNKIT" stats --date-from 1950 --json
expect_out_has '"games":4,"player_count":6,"events":4,"date_min":19500601,"date_max":19530303,"results":{"1-0":1,"0-1":0,"1/2-1/2":2,"*":1}' "stats json"
run "$PDNKIT" stats --after "9-14 23-18 14x23 27x18 5-9 26-23 12-16 30-26" --json
expect_out_has '"explorer":{"moves":[{"move":"16-19","games":2,"1-0":0,"0-1":0,"1/2-1/2":2}],"ended":1}' "explorer"
run "$PDNKIT" stats --svg "$T_TMP/s.svg"
expect_rc 0 "stats --svg"
grep -q '<svg xmlns' "$T_TMP/s.svg" && grep -q 'Games per year' "$T_TMP/s.svg" && pass || fail "svg written"

# --site, and games imported without positions: found by tags, not by position, with a warning.
printf '[Event "x"]\n[Site "Glasgow"]\n1. 11-15 23-19 *\n' > "$T_TMP/site.pdn"
run "$PDNKIT" import --no-positions "$T_TMP/site.pdn"
expect_rc 0 "import --no-positions"
run "$PDNKIT" query --site glas --format count
expect_out "1" "--site"
run "$PDNKIT" query --after "11-15 23-19" --format count
expect_out "0" "an unindexed game is not found by position"
expect_err_has "pdnkit query: warning: 1 stored game has no position index (imported with --no-positions)" "the search says what it cannot see"

# Usage errors name the option.
run "$PDNKIT" query --date-from 1950-13
expect_rc 2 "bad date"
expect_err_has "--date-from must be YYYY, YYYY-MM or YYYY-MM-DD, not '1950-13'" "bad date named"
run "$PDNKIT" query --result maybe
expect_rc 2 "bad result"
run "$PDNKIT" query --order colour
expect_rc 2 "bad order"
run "$PDNKIT" query --order ply
expect_err_has "--order ply needs --position or --after" "order ply without position"
run "$PDNKIT" query --after "9-14 9-14"
expect_rc 2 "illegal --after"
expect_err_has "pdnkit query: --after: 9-14 is not legal here" "illegal --after explained"
run "$PDNKIT" query --position "B:W40:B1"
expect_err_has "--position: bad FEN at column 4: square 40 is out of range 1..32" "bad --position"
run "$PDNKIT" query --format xml
expect_rc 2 "bad format"

if have_corpora "importing OCA 2.0 and Tinsley"; then
	ODB="$T_TMP/oca.db"
	run "$PDNKIT" import --db "$ODB" "$CORPORA/OCA_2.0.pdn" "$CORPORA/tinsley.pdn"
	expect_rc 0 "import OCA and tinsley"
	expect_err_has "23345 games read, 23345 stored, 0 duplicates skipped, 1 invalid (stored, flagged), " "OCA+tinsley counts"
	expect_err_has "copies of stored games from another source (stored, marked as copies);" "the copies counted"
	run "$PDNKIT" import --db "$ODB" "$CORPORA/tinsley.pdn"
	expect_err_has "724 games read, 0 stored, 724 duplicates skipped" "tinsley re-import adds 0"
	# Copies: the 1981 match is in both files, under other spellings of the names; each
	# game counts once unless --with-copies.
	run "$PDNKIT" export --db "$ODB" --event "Petal 1981"
	[ "$(echo "$OUT" | grep -c '^\[Event ')" = 37 ] && pass || fail "the 1981 match exported once: $(echo "$OUT" | grep -c '^\[Event ') games"
	run "$PDNKIT" query --db "$ODB" --event "Petal 1981" --with-copies --format count
	expect_out 74 "the 1981 match with its copies"
	[ "$(sqlite3 "$ODB" "SELECT count(*) FROM game c JOIN game o ON o.id = c.copy_of WHERE o.event LIKE 'Petal 1981%' AND c.source <> o.source")" = 37 ] &&
		pass || fail "the 1981 match found as 37 pairs across the two files"
	copies=$(sqlite3 "$ODB" "SELECT count(*) FROM game WHERE copy_of IS NOT NULL")
	# every mark sound: the same start, variant and result, the same moves or one the
	# beginning of the other (compared byte by byte here, not by the store's code)
	[ "$(sqlite3 "$ODB" "SELECT count(*) FROM game c JOIN game o ON o.id = c.copy_of WHERE NOT (c.result = o.result AND
		c.start IS o.start AND c.gametype = o.gametype AND o.copy_of IS NULL AND o.id < c.id AND (c.moves = o.moves OR
		substr(c.moves, 1, length(o.moves)) = o.moves OR substr(o.moves, 1, length(c.moves)) = c.moves))")" = 0 ] &&
		pass || fail "a copy that is not the same game"
	# and none missed: no two originals with the same moves and identical headers
	[ "$(sqlite3 "$ODB" "SELECT count(*) FROM game a JOIN game b ON a.start IS b.start AND a.moves = b.moves AND a.id < b.id
		WHERE a.copy_of IS NULL AND b.copy_of IS NULL AND a.plies > 0 AND a.status < 3 AND b.status < 3 AND a.result = b.result
		AND a.black_key IS b.black_key AND a.white_key IS b.white_key AND a.date_key IS b.date_key AND a.event IS b.event
		AND a.round IS b.round AND a.gametype = b.gametype")" = 0 ] && pass || fail "two games alike in every header not marked"
	# Openings by name: the named position, found in any order (as --after finds its
	# moves); export names each game's opening in an Opening tag when asked, and the
	# games so tagged are those query finds by the name
	run "$PDNKIT" query --db "$ODB" --opening-name "old fourteenth" --format count
	on=$OUT
	run "$PDNKIT" query --db "$ODB" --after "11-15 23-19 8-11 22-17 4-8" --format count
	[ -n "$on" ] && [ "$on" -gt 100 ] && [ "$on" = "$OUT" ] && pass || fail "--opening-name Old Fourteenth: $on, --after its moves: $OUT"
	run "$PDNKIT" query --db "$ODB" --opening-name "Old Fourtenth"
	expect_rc 2 "an unknown opening name"
	expect_err_has "did you mean 'Old Fourteenth'?" "the nearest name offered"
	run "$PDNKIT" query --db "$ODB" --opening-name Glasgow --after "11-15"
	expect_rc 2 "--opening-name with --after"
	run "$PDNKIT" export --db "$ODB" --opening-tags -o "$T_TMP/named.pdn"
	expect_rc 0 "export --opening-tags"
	expect_err_has "given an Opening tag" "the tags counted"
	[ "$(grep -c '^\[Opening "Old Fourteenth"\]' "$T_TMP/named.pdn")" -ge 100 ] && pass || fail "Old Fourteenth tags: $(grep -c '^\[Opening "Old Fourteenth"\]' "$T_TMP/named.pdn")"
	run "$PDNKIT" validate "$T_TMP/named.pdn"
	expect_rc 0 "the tagged export validates"
	run "$PDNKIT" query --db "$ODB" --opening-name Glasgow --format count
	gl=$OUT
	# a game tagged Glasgow reaches the Glasgow; a game reaching it may be named by a longer opening
	[ "$(grep -c '^\[Opening "Glasgow"\]' "$T_TMP/named.pdn")" -le "$gl" ] && [ "$gl" -gt 100 ] && pass || fail "Glasgow: $gl found, $(grep -c '^\[Opening "Glasgow"\]' "$T_TMP/named.pdn") tagged"
	run "$PDNKIT" stats --db "$ODB" --json
	g=$(echo "$OUT" | sed 's/^{"games":\([0-9]*\),.*/\1/')
	[ "$g" = $((23345 - copies)) ] && pass || fail "stats counts each game once: $g, want $((23345 - copies))"
	run "$PDNKIT" query --db "$ODB" --format count
	expect_out "$g" "query and stats count the same games"
	# a player as stats groups them (the spellings of one key) is what --player finds
	st=$(echo "$OUT" | head -0; "$PDNKIT" stats --db "$ODB" --json | grep -o '"name":"Tinsley, M.F.","games":[0-9]*' | sed 's/.*://')
	run "$PDNKIT" query --db "$ODB" --player "Tinsley, M.F." --format count
	[ -n "$st" ] && [ "$OUT" = "$st" ] && pass || fail "--player 'Tinsley, M.F.' finds $OUT games, stats counts $st"
	run "$PDNKIT" query --db "$ODB" --player "Tinsley ,M.F." --format count
	[ "$OUT" = "$st" ] && pass || fail "--player 'Tinsley ,M.F.' (another spelling) finds $OUT games, stats counts $st"
	run "$PDNKIT" import --db "$T_TMP/skip.db" --duplicates skip --json "$CORPORA/OCA_2.0.pdn" "$CORPORA/tinsley.pdn"
	expect_out_has "\"stored\":$((23345 - copies)),\"duplicates\":0,\"copies\":$copies,\"copies_were\":\"skipped\"" "--duplicates skip"
	run "$PDNKIT" import --db "$T_TMP/skip.db" --duplicates twice "$CORPORA/tinsley.pdn"
	expect_rc 2 "--duplicates of another word"
	# an older store is migrated when opened, its copies marked as an import would
	cp "$ODB" "$T_TMP/v2.db"
	sqlite3 "$T_TMP/v2.db" "DROP TABLE position_block; CREATE TABLE position(part INTEGER NOT NULL, key INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, PRIMARY KEY(part, key, game, ply)) WITHOUT ROWID; DROP INDEX game_copy; ALTER TABLE game DROP COLUMN copy_of; DROP TABLE player; DROP TABLE alias; UPDATE game SET black_key = 'stale'; PRAGMA user_version = 2" 2>/dev/null &&
		{
			run "$PDNKIT" query --db "$T_TMP/v2.db" --format count
			expect_out "$g" "a version 2 store migrated by a query"
			[ "$(sqlite3 "$T_TMP/v2.db" "PRAGMA user_version")" = 4 ] && pass || fail "the migrated store's version"
			[ "$(sqlite3 "$T_TMP/v2.db" "SELECT count(*) FROM game WHERE black_key = 'stale'")" = 0 ] && pass ||
				fail "the migration makes the players' keys again"
			run "$PDNKIT" query --db "$T_TMP/v2.db" --player "M Tinsley" --format count
			[ "$OUT" = "$(sqlite3 "$ODB" "SELECT count(*) FROM game WHERE copy_of IS NULL AND (black_key = 'f m tinsley' OR white_key = 'f m tinsley')")" ] &&
				pass || fail "the migrated store knows the built-in aliases: $OUT games of M Tinsley"
		}
	run "$PDNKIT" stats --db "$ODB" --json --with-copies
	# Results as counted in corpora/README.txt: OCA 3626 / 4803 / 14192, tinsley 66 / 125 / 533.
	expect_out_has '"results":{"1-0":3692,"0-1":4928,"1/2-1/2":14725,"*":0}' "results of OCA + tinsley"
	want=$(awk '/^\[(Black|White) /{ if (tolower($0) ~ /tinsley/) hit=1 } /^\[Event /{ if (started && hit) n++; started=1; hit=0 } END { if (hit) n++; print n }' "$CORPORA/OCA_2.0.pdn" "$CORPORA/tinsley.pdn")
	run "$PDNKIT" query --db "$ODB" --player TINSLEY --format count --with-copies
	expect_out "$want" "--player count equals an awk count of the raw files"
	want=$(awk '/^1\. /{ if ($0 ~ /^1\. 11-15 23-19 2\. 8-11 /) n++ } END { print n }' "$CORPORA/OCA_2.0.pdn" "$CORPORA/tinsley.pdn")
	run "$PDNKIT" query --db "$ODB" --opening "11-15 23-19 8-11" --format count --with-copies
	expect_out "$want" "--opening count equals an awk count of the raw files"
	run "$PDNKIT" query --db "$ODB" --invalid --format json
	expect_out_has '"event":"Petal 1981, game 18"' "the one invalid game"
	"$PDNKIT" export --db "$ODB" --with-copies -o "$T_TMP/all.pdn" 2>/dev/null
	run "$PDNKIT" import --db "$T_TMP/all.db" --duplicates keep "$T_TMP/all.pdn"
	expect_err_has "23345 games read, 23345 stored, 0 duplicates skipped, 1 invalid" "whole export re-imported"
	"$PDNKIT" export --db "$T_TMP/all.db" -o "$T_TMP/all2.pdn" 2>/dev/null
	cmp -s "$T_TMP/all.pdn" "$T_TMP/all2.pdn" && pass || fail "OCA export, re-import, export differs"
fi
# A signal ends an import promptly whatever the input: an endless stream of NULs after a
# real file is stopped by SIGINT (exit 130) or SIGTERM (exit 143) within a second or so,
# and the games read before it are stored.
for sig in INT TERM; do
	rm -f "$T_TMP/zero.db"
	start=$(date +%s)
	cat "$F" /dev/zero | timeout -k 20 --preserve-status -s $sig 2 "$PDNKIT" import --db "$T_TMP/zero.db" - 2>"$T_TMP/err"
	RC=$?
	took=$(( $(date +%s) - start ))
	want=130; [ $sig = TERM ] && want=143
	[ $RC = $want ] && pass || fail "import of an endless stream stopped by SIG$sig: exit $RC, want $want"
	[ $took -le 6 ] && pass || fail "SIG$sig took effect after $took s"
	grep -q "interrupted; what was read is stored" "$T_TMP/err" && pass || fail "SIG$sig: no interruption summary"
	[ "$(sqlite3 "$T_TMP/zero.db" 'SELECT count(*) FROM game' 2>/dev/null || "$PDNKIT" query --db "$T_TMP/zero.db" --format count)" = 4 ] && pass || fail "SIG$sig: the games before the junk are not all stored"
done

# Hostile database files: not SQLite, another program's SQLite, a newer schema, a
# directory. Each is refused with the reason, and nothing is written to it.
FX="$TESTS_DIR/../corpora/fixtures"
echo "not a database at all" >"$T_TMP/junk.db"
run "$PDNKIT" import --db "$T_TMP/junk.db" "$FX/shots.pdn"
expect_rc 3 "import into a file that is not SQLite"
expect_err_has "file is not a database" "a non-SQLite file is named as such"
cp "$FX/other-program.sqlite" "$T_TMP/other.db"
run "$PDNKIT" import --db "$T_TMP/other.db" "$FX/shots.pdn"
expect_rc 3 "import into another program's SQLite file"
expect_err_has "not a pdnkit database: an SQLite file of another program" "another program's database is refused"
cmp -s "$FX/other-program.sqlite" "$T_TMP/other.db" && pass || fail "another program's database was changed"
cp "$FX/newer-schema.sqlite" "$T_TMP/newer.db"
run "$PDNKIT" query --db "$T_TMP/newer.db" --player x
expect_rc 3 "a newer schema"
expect_err_has "schema version 99 is newer than this pdnkit understands" "a newer schema is refused"
run "$PDNKIT" import --db "$T_TMP" "$FX/shots.pdn"
expect_rc 3 "a directory as the database"

# A store the user may read but not write (in a directory not theirs either): the
# reading commands work on it; the writing ones say it is read-only. Run as an
# unprivileged user when the tests run as root (root may write anything).
RO=$(mktemp -d /tmp/pdnkit-ro.XXXXXX)
cp "$PDNKIT" "$RO/pdnkit"
printf '[Event "one"]\n[Black "A"]\n[White "B"]\n1. 11-15 23-19 1-0\n\n[Event "two"]\n1. 9-14 22-17 *\n' >"$RO/g.pdn"
"$RO/pdnkit" import --db "$RO/g.db" "$RO/g.pdn" >/dev/null 2>&1
chmod 755 "$RO"
chmod 444 "$RO/g.db" "$RO/g.pdn"
chmod 555 "$RO"
as_reader() {
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		run setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		run "$@"
	fi
}
for cmd in "query --format count" "stats" "export" "blunders" "query --duplicates" "query --player A"; do
	# shellcheck disable=SC2086
	as_reader "$RO/pdnkit" $cmd --db "$RO/g.db"
	expect_rc 0 "$cmd on a read-only store"
	case $ERR in *readonly* | *read-only*) fail "$cmd on a read-only store: $ERR" ;; *) pass ;; esac
done
as_reader "$RO/pdnkit" query --format count --db "$RO/g.db"
expect_out "2" "the games of a read-only store counted"
as_reader "$RO/pdnkit" import --db "$RO/g.db" "$RO/g.pdn"
expect_rc 3 "import into a read-only store"
expect_err_has "database '$RO/g.db' is read-only for you, and this command writes to it" "import says the store is read-only"
as_reader "$RO/pdnkit" annotate --depth 1 --egdb none --db "$RO/g.db"
expect_rc 3 "annotate a read-only store"
expect_err_has "is read-only for you" "annotate says the store is read-only"
chmod 755 "$RO"
rm -rf "$RO"
# A mistyped file name leaves no empty store; a web page saved as .pdn is refused as
# a whole, and the other files are still imported.
run "$PDNKIT" import --db "$T_TMP/nosuch.db" "$T_TMP/nosuch.pdn"
expect_rc 3 "import of a missing file"
expect_err_has "no file to import; no database was created" "said"
[ ! -e "$T_TMP/nosuch.db" ] && pass || fail "an empty database was created for a missing file"
printf '<!DOCTYPE html>\n<html><head><title>Games</title></head>\n<body><p>Hello [world] 1. game {x}</p></body></html>\n' >"$T_TMP/page.pdn"
printf '[Event "real"]\n1. 11-15 23-19 *\n' >"$T_TMP/real.pdn"
run "$PDNKIT" import --db "$T_TMP/page.db" "$T_TMP/page.pdn" "$T_TMP/real.pdn"
expect_rc 3 "a web page among the files"
expect_err_has "page.pdn': not PDN: it begins like an HTML or XML document ('<!DOCTYPE html>')" "the page refused"
expect_err_has "1 games read, 1 stored" "the real file still imported"
run "$PDNKIT" validate "$T_TMP/page.pdn"
expect_rc 3 "validate of a web page"
# stats of a player: won, drawn and lost of the games with a result, and the score of
# those; an unfinished game counts among the games only.
printf '[Black "Ann"]\n[White "Bob"]\n[Result "1-0"]\n1. 11-15 1-0\n\n[Black "Cy"]\n[White "Ann"]\n[Result "1/2-1/2"]\n1. 9-14 1/2-1/2\n\n[Black "Ann"]\n[White "Cy"]\n[Result "*"]\n1. 10-14 *\n' >"$T_TMP/scores.pdn"
"$PDNKIT" import --db "$T_TMP/scores.db" "$T_TMP/scores.pdn" >/dev/null 2>&1
run "$PDNKIT" stats --db "$T_TMP/scores.db"
echo "$OUT" | grep -q '^  Ann  *3   75\.0%  +1 =1 -0$' && pass || fail "Ann's line in stats: $OUT"
echo "$OUT" | grep -q '^  Bob  *1    0\.0%  +0 =0 -1$' && pass || fail "Bob's line in stats: $OUT"
# Near-duplicates: the same game with a different last move (a typo in one source) is
# listed as one move apart; a game of other players along the same line is not.
line="1. 9-13 22-18 2. 12-16 24-20 3. 11-15 18x11 4. 8x15 20x11 5. 7x16 25-22 6. 6-9"
printf '[Event "Typo"]\n[Site "a"]\n[Black "Smith, J."]\n[White "Brown, K."]\n[Result "*"]\n\n%s 27-24 *\n' "$line" >"$T_TMP/ty1.pdn"
printf '[Event "Typo"]\n[Site "b"]\n[Black "J Smith"]\n[White "K Brown"]\n[Result "*"]\n\n%s 28-24 *\n' "$line" >"$T_TMP/ty2.pdn"
printf '[Event "Other"]\n[Black "Jones, A."]\n[White "Young, B."]\n[Result "*"]\n\n%s 28-24 *\n' "$line" >"$T_TMP/ty3.pdn"
"$PDNKIT" import --db "$T_TMP/ty.db" "$T_TMP/ty1.pdn" "$T_TMP/ty2.pdn" "$T_TMP/ty3.pdn" 2>/dev/null
run "$PDNKIT" query --db "$T_TMP/ty.db" --duplicates
expect_out_has "one move apart (12 plies; they differ at ply 12):
  1 " "a typo in one source listed"
expect_out_has "the same moves (12 plies), 2 games:
  2 " "the same moves under other headers listed"
[ "$(echo "$OUT" | grep -c '^one move apart')" = 1 ] && pass || fail "other players along the same line are no typo: $OUT"
run "$PDNKIT" query --db "$T_TMP/ty.db" --duplicates --json
expect_out_has '{"kind":"one-move","plies":12,"games":[1,2],"ply":12}' "one move apart in JSON"
run "$PDNKIT" query --db "$T_TMP/ty.db" --format count
expect_out 3 "none of the three is a copy"
# events and names sort as people read them: "game 2" before "game 10"
for n in 10 2 1 11; do printf '[Event "Match, game %s"]\n[Black "A"]\n[White "B"]\n[Result "*"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n' $n; done >"$T_TMP/nat.pdn"
"$PDNKIT" import --db "$T_TMP/nat.db" "$T_TMP/nat.pdn" >/dev/null 2>&1
run "$PDNKIT" query --db "$T_TMP/nat.db" --order event --format json
[ "$(echo "$OUT" | sed 's/.*"event":"Match, game \([0-9]*\)".*/\1/' | tr '\n' ' ')" = "1 2 10 11 " ] && pass ||
	fail "events in natural order: $(echo "$OUT" | sed 's/.*"event":"\([^"]*\)".*/\1/' | tr '\n' '|')"
run "$PDNKIT" query --db "$T_TMP/nat.db" --order event --desc --format json
[ "$(echo "$OUT" | head -1 | sed 's/.*"event":"Match, game \([0-9]*\)".*/\1/')" = 11 ] && pass || fail "natural order, descending"

done_testing
