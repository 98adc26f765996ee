# pdnkit players: players as identities (the spellings of one name, the alias file),
# their listing, the probable aliases, and an alias file applied to a store.
. "$TESTS_DIR/lib.sh"

DB="$T_TMP/p.db"
cat >"$T_TMP/p.pdn" <<'EOF'
[Event "Club 1990"]
[Date "1990.05.01"]
[Black "Smith, J.A."]
[White "Brown, K."]
[Result "1-0"]

1. 11-15 23-19 2. 8-11 22-17 1-0

[Event "Club 1990"]
[Date "1990.05.02"]
[Black "JA Smith"]
[White "Brown, Karl"]
[Result "0-1"]

1. 9-13 22-18 0-1

[Event "Club 1991"]
[Date "1991.05.02"]
[Black "Smith, J."]
[White "K. Brown"]
[Result "1/2-1/2"]

1. 10-14 22-18 1/2-1/2

[Event "Club 1950"]
[Date "1950.05.02"]
[Black "Smith, Jim"]
[White "MUELLER_ACCENTED"]
[Result "1/2-1/2"]

1. 12-16 24-20 1/2-1/2

[Event "Club 1950"]
[Date "1950.05.03"]
[Black "Muller, Jerome"]
[White "Smith, Jim"]
[Result "1/2-1/2"]

1. 12-16 24-19 1/2-1/2
EOF
# accents: the name written with them (printf makes the UTF-8 bytes)
sed "s/MUELLER_ACCENTED/$(printf 'M\303\274ller, J\303\251r\303\264me')/" "$T_TMP/p.pdn" >"$T_TMP/p2.pdn" && mv "$T_TMP/p2.pdn" "$T_TMP/p.pdn"
"$PDNKIT" import --db "$DB" "$T_TMP/p.pdn" 2>/dev/null
run "$PDNKIT" players --db "$DB"
expect_rc 0 "players lists"
# "Smith, J.A." and "JA Smith" are one key (initials written together); accents fold
echo "$OUT" | grep -Eq '^(Smith, J\.A\.|JA Smith) +2 +1-0-1 +- +1990 ' && pass || fail "JA Smith is Smith, J.A.; won one (1-0 as Black), lost one (0-1): $OUT"
echo "$OUT" | grep -Eq '^M.ller, J.r.me +2 +0-2-0 +- +1950 ' && pass || fail "accents: one player: $OUT"
run "$PDNKIT" players --db "$DB" --json
expect_out_has '"games":2,"won":0,"drawn":2,"lost":0,"annotated_moves":0,"average_loss":null,"first_year":1950,"last_year":1950,"spellings":["' "JSON"
[ "$(echo "$OUT" | wc -l)" -ge 5 ] && pass || fail "one JSON line a player: $OUT"

# probable aliases: same surname, initials that fit, years that overlap (or come within
# five years)
run "$PDNKIT" players --db "$DB" --suggest
expect_rc 0 "suggest"
echo "$OUT" | awk '/^(Smith, J\.A\.|JA Smith)$/ { p = 1; next } p && /^\tSmith, J\.$/ { ok = 1 } /^[^\t#]/ { p = 0 } END { exit !ok }' &&
	pass || fail "Smith, J. (1991) suggested as Smith, J.A. (1990): $OUT"
echo "$OUT" | grep -q 'Smith, Jim' && fail "Smith, Jim (1950) is not Smith, J. A. of 1990: $OUT" || pass
echo "$OUT" | grep -q 'Brown, Karl' && pass || fail "Brown, Karl (1990) and Brown, K. (1990-1991) suggested: $OUT"

# an alias file: applied, the players are one, the tags stay as imported
cat >"$T_TMP/aliases.txt" <<'EOF'
# the club's players
Smith, J.A.
	Smith, J.

Brown, Karl
	Brown, K.
	K Brown
EOF
run "$PDNKIT" players --check "$T_TMP/aliases.txt"
expect_rc 0 "--check of a good file"
run "$PDNKIT" players --db "$DB" --apply "$T_TMP/aliases.txt"
expect_rc 0 "--apply"
expect_out_has "the players of 2 games changed" "the games whose players changed (games 1 and 3)"
run "$PDNKIT" players --db "$DB"
echo "$OUT" | grep -Eq '^Smith, J\.A\. +3 +1-1-1 +- +1990-1991 ' && pass || fail "Smith, J.A. has three games: $OUT"
echo "$OUT" | grep -Eq '^Brown, Karl +3 +1-1-1 +- +1990-1991 ' && pass || fail "Brown, Karl has three games under his canonical name: $OUT"
run "$PDNKIT" query --db "$DB" --player "Smith, J." --format count
expect_out 3 "--player of an alias finds the player's games"
run "$PDNKIT" query --db "$DB" --player "K Brown" --format count
expect_out 3 "--player of another alias"
[ "$(sqlite3 "$DB" "SELECT group_concat(white, '|') FROM game WHERE id <= 3")" = "Brown, K.|Brown, Karl|K. Brown" ] && pass ||
	fail "the tags are kept as imported"
run "$PDNKIT" stats --db "$DB"
expect_out_has "Brown, Karl" "stats names the canonical name"
# a game imported after the file was applied is its player's too
printf '[Event "Club 1992"]\n[Black "K Brown"]\n[White "Smith, J."]\n[Result "*"]\n\n1. 11-15 *\n' >"$T_TMP/later.pdn"
"$PDNKIT" import --db "$DB" "$T_TMP/later.pdn" 2>/dev/null
run "$PDNKIT" query --db "$DB" --player "Brown, Karl" --format count
expect_out 4 "a later import knows the aliases"
# round trip: the store's aliases written out by --suggest's format are read back the same
run "$PDNKIT" players --db "$DB" --apply "$T_TMP/aliases.txt"
expect_out_has "the players of 0 games changed" "applying the same file again changes nothing"

# bad files: said with the line
printf '\tSmith, J.\n' >"$T_TMP/bad1.txt"
run "$PDNKIT" players --check "$T_TMP/bad1.txt"
expect_rc 1 "a spelling before any player"
expect_err_has "line 1" "the line named"
printf 'Smith, J.A.\n\tSmith, J.\nSmyth, Jon\n\tSmith, J.\n' >"$T_TMP/bad2.txt"
run "$PDNKIT" players --db "$DB" --apply "$T_TMP/bad2.txt"
expect_rc 1 "a spelling of two players"
expect_err_has "both claim the spelling 'j smith'" "the clash said"
run "$PDNKIT" players --db "$DB"
echo "$OUT" | grep -Eq '^Smith, J\.A\. +4 ' && pass || fail "a bad file changes nothing: $OUT"
printf 'Smith\0x\n' >"$T_TMP/bad3.txt"
run "$PDNKIT" players --check "$T_TMP/bad3.txt"
expect_rc 3 "a binary file"
run "$PDNKIT" players --check "$T_TMP/none.txt"
expect_rc 3 "a missing file"
run "$PDNKIT" players --check "$T_TMP/aliases.txt" --suggest
expect_rc 2 "--check with --suggest"

# one alias at a time: --alias SPELLING=PLAYER
run "$PDNKIT" players --db "$DB" --alias "Smith, Jim=Smith, J.A."
expect_rc 0 "--alias"
expect_out_has "the players of 2 games changed" "Jim Smith's two games are J.A. Smith's now"
run "$PDNKIT" query --db "$DB" --player "Smith, J.A." --format count
expect_out 6 "--player finds the merged player's games"
run "$PDNKIT" query --db "$DB" --player "Smith, Jim" --format count
expect_out 6 "and by the new spelling"
run "$PDNKIT" players --db "$DB" --alias "Smith, Jim=Smith, J.A."
expect_rc 3 "the same alias again"
expect_err_has "already a spelling" "said so"
run "$PDNKIT" players --db "$DB" --alias "Smith, Jim"
expect_rc 2 "--alias without '='"
run "$PDNKIT" players --db "$DB" --alias "...=Smith, J.A."
expect_rc 3 "a spelling without letters"
expect_err_has "holds no name" "said so"
run "$PDNKIT" players --db "$DB" --alias "Smith, Jim=Brown, Karl" --json
expect_out '{"spelling":"Smith, Jim","player":"Brown, Karl","games_changed":2}' "a spelling moved to another player; JSON"
run "$PDNKIT" players --db "$DB" --apply "$T_TMP/aliases.txt"
expect_out_has "the players of 2 games changed" "--apply replaces the aliases added one at a time"

# the corpora: every spelling of Tinsley is one player, and the built-in aliases hold
if have_corpora "the players of OCA 2.0 and tinsley.pdn"; then
	"$PDNKIT" import --db "$T_TMP/o.db" "$CORPORA/OCA_2.0.pdn" "$CORPORA/tinsley.pdn" 2>/dev/null
	[ "$(sqlite3 "$T_TMP/o.db" "SELECT count(DISTINCT k) FROM (SELECT black_key k, black n FROM game UNION SELECT white_key, white FROM game) WHERE n LIKE '%tinsley%'")" = 1 ] &&
		pass || fail "the spellings of Tinsley are more than one player"
	run "$PDNKIT" players --db "$T_TMP/o.db" -n 3 --json
	expect_out_has '{"player":"Tinsley, M.F.","key":"f m tinsley","games":917,' "Tinsley's games, copies counted once"
	for n in "M Tinsley" "MF Tinsley" "Tinsley ,M.F." "Tinsley, M.F."; do
		run "$PDNKIT" query --db "$T_TMP/o.db" --player "$n" --format count
		expect_out 917 "--player '$n'"
	done
fi
# a player's name that finds nothing: the names near it are suggested
if [ -f "$CORPORA/tinsley.pdn" ]; then
	"$PDNKIT" import --db "$T_TMP/near.db" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
	run "$PDNKIT" query --db "$T_TMP/near.db" --player Tinslee
	expect_rc 0 "a misspelt player"
	expect_err_has "no game of 'Tinslee'; did you mean Tinsley" "the nearest name suggested"
	run "$PDNKIT" query --db "$T_TMP/near.db" --player Zzyzx
	expect_err_has "no player's name is near 'Zzyzx'" "none near said"
	run "$PDNKIT" query --db "$T_TMP/near.db" --player Tinsley --format count
	case $ERR in *"did you mean"*) fail "a suggestion when games were found" ;; *) pass ;; esac
fi

done_testing
