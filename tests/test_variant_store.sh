# The other variants in the store: import replays them under their rules and indexes
# their positions; query (--variant, --opening, --position, --after), stats and export
# work on them. Counts are checked against independent counts of the raw files.
. "$TESTS_DIR/lib.sh"
have_corpora "the variant store checks" || { done_testing; exit $?; }
DB="$T_TMP/v.db"
export PDNKIT_DB="$DB"
WK="$CORPORA/wk2003.pdn"
RU="$CORPORA/ussr1947.pdn"

# Independent counts: games by their tags, moves by their tokens (numeric squares for
# International draughts, "c3-d4"/"d4:b6" for Russian; results such as "2-0" are not
# moves).
wk_games=$(grep -c '^\[Event ' "$WK")
ru_games=$(grep -c '^\[Event ' "$RU")
wk_moves=$(awk '!/^\[/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+[-x][0-9]+/ && $i !~ /^[0-2]-[0-2]$/) n++ } END { print n }' "$WK")
ru_moves=$(awk '!/^\[/ { for (i = 1; i <= NF; i++) if ($i ~ /^[a-h][1-8][-:][a-h][1-8]/) n++ } END { print n }' "$RU")
# games whose first line of moves begins "1. 32-28 17-22"
wk_opening=$(awk '/^\[/ { t = 1; next } t && NF { t = 0; if (index($0, "1. 32-28 17-22") == 1) n++ } END { print n + 0 }' "$WK")
plies_of() { awk -F'"plies":' '{ split($2, a, ","); s += a[1] } END { print s + 0 }'; }

run "$PDNKIT" import "$WK" "$RU"
expect_rc 0 "import International and Russian games"
all=$((wk_games + ru_games))
expect_err_has "$all games read, $all stored, 0 duplicates skipped, 0 invalid (stored, flagged), $all of other variants (replayed under their rules);" "every game replayed under its variant"

run "$PDNKIT" query --variant international --format count
expect_out "$wk_games" "--variant international: the games of wk2003.pdn"
run "$PDNKIT" query --variant 25 --format count
expect_out "$ru_games" "--variant by GameType: the games of ussr1947.pdn"
run "$PDNKIT" query --variant international --format json
[ "$(printf '%s\n' "$OUT" | plies_of)" = "$wk_moves" ] && pass || fail "International plies stored ($(printf '%s\n' "$OUT" | plies_of)) = move tokens of the file ($wk_moves)"
expect_out_has '"status":"valid","gametype":20}' "json rows name the variant"
run "$PDNKIT" query --variant russian --format json
[ "$(printf '%s\n' "$OUT" | plies_of)" = "$ru_moves" ] && pass || fail "Russian plies stored ($(printf '%s\n' "$OUT" | plies_of)) = move tokens of the file ($ru_moves)"
w=$("$PDNKIT" query --variant international --result 1-0 --format count)
run "$PDNKIT" query --variant international --result white --format count
expect_out "$w" "--result white is 1-0 where White moves first"
run "$PDNKIT" query --variant english --format count
expect_out "0" "no English games among them"

# Openings are read in the variant's notation and rules.
run "$PDNKIT" query --variant international --opening "32-28 17-22" --format count
expect_out "$wk_opening" "--opening of International draughts = games of the file opening 32-28 17-22"
run "$PDNKIT" query --opening "9-14" --format count
expect_out "0" "an English opening finds no variant game"
run "$PDNKIT" query --variant international --opening "32-27 17-22 27x18"
expect_rc 2 "an opening that does not replay"
expect_err_has "--opening: 27x18" "names the move that fails"

# Positions: the start of every game at ply 0; the same position by two move orders.
run "$PDNKIT" query --variant international --position "W:W31-50:B1-20" --format count
expect_out "$wk_games" "--position of the International start: every game"
run "$PDNKIT" query --variant russian --after "c3-d4 f6-g5 g3-f4" --format count
a=$OUT
run "$PDNKIT" query --variant russian --after "g3-f4 f6-g5 c3-d4" --format count
[ "$a" = "$OUT" ] && [ "$a" -gt 0 ] && pass || fail "--after in two move orders: $a and $OUT games"
o1=$("$PDNKIT" query --variant russian --opening "c3-d4 f6-g5 g3-f4" --format count)
o2=$("$PDNKIT" query --variant russian --opening "g3-f4 f6-g5 c3-d4" --format count)
[ "$o1" -gt 0 ] && [ "$o2" -gt 0 ] && [ "$a" -ge $((o1 + o2)) ] && pass ||
	fail "--after finds both move orders: $a games, openings $o1 and $o2"
run "$PDNKIT" query --variant russian --after "c3-d4 f6-g5 g3-f4" --order ply --format json --limit 1
expect_out_has '"ply":3' "reached at ply 3"
run "$PDNKIT" query --variant international --position "W:W51:B1"
expect_rc 2 "a FEN that does not fit the board"
expect_err_has "not a position of International draughts" "says which variant"
run "$PDNKIT" query --position "W:W31-50:B1-20"
expect_rc 2 "a 10x10 FEN without --variant"
expect_err_has "give --variant" "suggests --variant"
run "$PDNKIT" query --variant checkers-chess
expect_rc 2 "a variant pdnkit does not know"
expect_err_has "not a variant pdnkit knows" "an unknown --variant refused"

# stats: results from the first mover's side, openings and explorer in the variant.
run "$PDNKIT" stats --variant russian
expect_out_has "1-0 (White won)" "1-0 is White's win in Russian draughts"
expect_out_has "openings of Russian draughts" "Russian openings"
expect_out_has "c3-d4 f6-g5 b2-c3" "the opening as Russian players write it"
run "$PDNKIT" stats
printf '%s\n' "$OUT" | grep -Eq "^  20 +International draughts +$wk_games " && pass || fail "games per variant: [$OUT]"
printf '%s\n' "$OUT" | grep -Eq "^  25 +Russian draughts +$ru_games " && pass || fail "games per variant (2): [$OUT]"
run "$PDNKIT" stats --variant russian --after "c3-d4 f6-g5" --json
expect_out_has '"explorer":{"moves":[{"move":"b2-c3"' "explorer in Russian notation"
run "$PDNKIT" stats --variant international --position "W:W31-50:B1-20"
expect_out_has "moves played from W:W31,32" "explorer from the International start"
expect_out_has "32-28" "its moves"

# Export and read back: the same games, still valid.
run "$PDNKIT" export --variant russian -o "$T_TMP/ru.pdn"
expect_rc 0 "export the Russian games"
run "$PDNKIT" validate "$T_TMP/ru.pdn"
expect_rc 0 "the export validates"
run "$PDNKIT" import --db "$T_TMP/ru.db" --json "$T_TMP/ru.pdn"
expect_out_has "\"stored\":$ru_games,\"duplicates\":0,\"copies\":0,\"copies_were\":\"marked\",\"invalid\":0,\"not_replayed\":0,\"other_variants\":$ru_games" "the export imports whole"
run "$PDNKIT" query --db "$T_TMP/ru.db" --variant russian --after "c3-d4 f6-g5 g3-f4" --format count
expect_out "$a" "the same positions found in the copy"

# Re-import: the fingerprints are stable, nothing is added.
run "$PDNKIT" import --json "$WK"
expect_out_has "\"stored\":0,\"duplicates\":$wk_games" "re-import adds nothing"

# English games beside them: their openings as in a database of their own.
FIX="$TESTS_DIR/../corpora/fixtures/duplicates.pdn"
"$PDNKIT" import --db "$T_TMP/en.db" "$FIX" 2>/dev/null
want=$("$PDNKIT" query --db "$T_TMP/en.db" --opening "9-14" --format count)
run "$PDNKIT" import "$FIX"
run "$PDNKIT" query --opening "9-14" --format count
expect_out "$want" "English openings among variant games"
run "$PDNKIT" stats
expect_out_has "1-0 (first won)" "results of several variants: from the first mover's side"

# Two games of the same moves from different set-ups are two games, not duplicates.
printf '[GameType "25"]\n1. c3-d4 *\n\n[GameType "25"]\n[FEN "W:Wc3:Bf6"]\n1. c3-d4 *\n\n[GameType "25"]\n[FEN "W:Wc3,e3:Bf6"]\n1. c3-d4 *\n\n[GameType "25"]\n[FEN "W:W99:Bf6"]\n1. c3-d4 *\n\n[GameType "25"]\n[FEN "W:W98:Bf6"]\n1. c3-d4 *\n' >"$T_TMP/setups.pdn"
run "$PDNKIT" import --db "$T_TMP/setups.db" "$T_TMP/setups.pdn"
expect_err_has "5 games read, 5 stored, 0 duplicates skipped, 2 invalid" "set-ups tell games apart"
done_testing
