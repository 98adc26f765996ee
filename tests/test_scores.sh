# One way to read a score (pdnkit(1), "Scores"): every command that prints a score names
# the side it is for, a win found by the search is "Black wins in 7" (plies), and no raw
# win code (29,000 and more) reaches the reader.
. "$TESTS_DIR/lib.sh"

# no line says a bare "win in" / "loss in" without the side, nor a raw win code
convention() {
	bad=$(printf '%s\n' "$OUT" | grep -E '(^|[^s] )(win|loss) in [0-9]|[+-]?(29|30)[0-9]{3}([^0-9]|$)' |
		grep -v -E 'wins in [0-9]+|"(score|win_in)":' | head -3)
	[ -z "$bad" ] && pass || fail "$1: a score without its side or a raw code: $bad"
}

# analyze: the table's header names the side; a win names the winner
run "$PDNKIT" analyze --fen "W:W20,K15:B12,K28" --depth 12 --egdb none
expect_rc 0 "analyze"
expect_out_has "(1/100 man, White's view)" "analyze: the header names the side"
convention "analyze"
run "$PDNKIT" analyze --variant russian --fen "W:W29,30:B4" --depth 10 --egdb none
expect_out_has "score White wins in" "analyze: a win found names the winner"
convention "analyze --variant"
run "$PDNKIT" analyze --fen "B:WK10,K14,K18:BK32" --depth 14 --egdb none
case $OUT in *"score White wins in"*|*"score "[+-][0-9]*) pass ;; *) fail "analyze of a lost position: $OUT" ;; esac
convention "analyze, the losing side to move"

# solve: each miss with its score for a named side
cat >"$T_TMP/p.pdn" <<'EOF'
[Event "two against one"]
[FEN "W:W20,K15:B12,K28"]
[Result "1/2-1/2"]
*

[Event "lost for Black"]
[FEN "B:WK10,K14,K18:BK32"]
[Result "1-0"]
*
EOF
run "$PDNKIT" solve --depth 8 --egdb none "$T_TMP/p.pdn"
judged=$(printf '%s\n' "$OUT" | grep -c 'expected .* judged')
named=$(printf '%s\n' "$OUT" | grep -c -E 'expected .* judged [^ ]+ \(([+-][0-9]+\.[0-9]{2} for (Black|White)|(Black|White) wins in [0-9]+) at depth')
[ "$judged" -ge 1 ] && [ "$judged" -eq "$named" ] && pass || fail "solve: $named of $judged misses name their side: $OUT"
convention "solve"

# egdb probe: "White wins in N plies"
D="$T_TMP/egdb"
"$PDNKIT" egdb build --pieces 3 --egdb "$D" -q 2>/dev/null
run "$PDNKIT" egdb probe --egdb "$D" --moves "B:WK1:BK10,K15"
expect_out_has "B:WK1:BK10,K15: Black wins in" "egdb probe names the winner"
convention "egdb probe"

# play (line mode): the engine's view in men with the side's name
printf 'hint\nquit\n' >"$T_TMP/in"
run sh -c "'$PDNKIT' play --line --depth 6 --book none --egdb none <'$T_TMP/in'"
case $OUT in *" for Black"*|*" for White"*|*"wins in"*) pass ;; *) fail "play: the hint's score names no side: $OUT" ;; esac
convention "play"

# play: every score of the game for the same side, the player's (Black by default)
printf '11-15\nhint\nquit\n' >"$T_TMP/in"
run sh -c "'$PDNKIT' play --line --depth 6 --book none --egdb none <'$T_TMP/in'"
sides=$(printf '%s\n' "$OUT" | grep -o -E 'for (Black|White)' | sort -u | tr '\n' ' ')
[ "$sides" = "for Black " ] && pass || fail "play: scores for one side, the player's: [$sides] $OUT"
expect_out_has "hint: 15x22 (the only legal move)" "play: a forced hint says so, without a stale line"

done_testing
