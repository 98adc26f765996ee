# pdnkit egdb --variant: another variant's databases built (resumable), probed (each
# move's value, JSON, standard input, errors), summarised, and at work in analyze; the
# options that only English draughts' builder takes are refused.
. "$TESTS_DIR/lib.sh"
D="$T_TMP/vegdb"

run "$PDNKIT" egdb build --variant international --pieces 3 --egdb "$D"
expect_rc 0 "International databases up to 3 pieces"
[ "$(ls "$D/international"/*.vdb | wc -l)" -eq 16 ] && pass || fail "16 classes up to 3 pieces: $(ls "$D/international")"
expect_err_has "MM-M" "each class is said as it is built"
expect_err_has "every position of up to 3 pieces, complete in $D/international" "the end is said"
[ -z "$(ls "$D/international" | grep -v '\.vdb$')" ] && pass || fail "no temporary files left"

# resumable: a removed class is built again, the others kept
rm "$D/international/MK-K.vdb"
run "$PDNKIT" egdb build --variant international --pieces 3 --egdb "$D" --json
expect_rc 0 "resume"
expect_out_has '{"class":"K-K","positions":5000,' "a JSON line a class"
expect_out_has '"class":"MK-K","positions":250000,' "the removed class is built"
kept=$(grep -c '"kept":true' "$T_TMP/out")
[ "$kept" -eq 15 ] && pass || fail "15 classes kept: $kept"

run "$PDNKIT" egdb build --variant frisian --pieces 3 --egdb "$D"
expect_rc 3 "Frisian refused"
expect_err_has "king-move counts" "why Frisian has none"
run "$PDNKIT" egdb build --variant international --pieces 7 --egdb "$D"
expect_rc 2 "--pieces past 6 for a variant"
run "$PDNKIT" egdb build --variant international --plan json --egdb "$D"
expect_rc 2 "--plan is the English builder's"
run "$PDNKIT" egdb build --variant nosuch --egdb "$D"
expect_rc 2 "an unknown variant"

# probe: the value for the side to move, each move's value
run "$PDNKIT" egdb probe --variant international --egdb "$D" "W:W28:B3"
expect_rc 0 "probe"
expect_out "W:W28:B3: White wins in 5 plies" "a man race won in 5 plies"
run "$PDNKIT" egdb probe --variant international --egdb "$D" --moves "W:W28:B3"
expect_out_has "28-23        White wins in 5 plies" "the quickest move first"
expect_out_has "28-22        White wins in 15 plies" "the slower one after it"
run "$PDNKIT" egdb probe --variant international --egdb "$D" --json "W:WK46,K47:BK3"
expect_out '{"fen":"W:WK46,K47:BK3","pieces":3,"value":"draw"}' "two kings cannot catch one (JSON)"
run "$PDNKIT" egdb probe --variant international --egdb "$D" "B:W28:B23"
expect_out "B:W28:B23: Black wins in 1 plies" "a capture that ends the game"
printf 'W:W28:B3\nnot a fen\nW:W28,29,30:B3,4\n' >"$T_TMP/in"
run sh -c "'$PDNKIT' egdb probe --variant international --egdb '$D' <'$T_TMP/in'"
expect_rc 1 "standard input with bad lines"
expect_out_has "W:W28:B3: White wins in 5 plies" "the good line answered"
expect_out_has "5 pieces: the International draughts databases hold up to 3" "too many pieces said"
expect_out_has "not a fen: error:" "a bad FEN said"

# stats
run "$PDNKIT" egdb stats --variant international --egdb "$D"
expect_rc 0 "stats"
expect_out_has "every position of up to 3 pieces" "stats: the level"
expect_out_has "MM-M            3          85580" "stats: a class's positions"
run "$PDNKIT" egdb stats --variant international --egdb "$D" --json
expect_out_has '{"class":"K-K","pieces":2,"positions":4900,' "stats in JSON"

# verify: every stored value against its moves' values; as many positions as stats counts
run "$PDNKIT" egdb verify --variant international --egdb "$D"
expect_rc 0 "verify"
total=$("$PDNKIT" egdb stats --variant international --egdb "$D" --json | sed 's/.*"positions":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s }')
expect_out_has "verified 16 classes of International draughts: $total positions checked, 0 wrong" "verify checks every position stats counts ($total)"
run "$PDNKIT" egdb verify --variant international --egdb "$D" --sample 100 --json
expect_out_has '{"class":"MM-M","checked":' "a JSON line a class"
[ "$(echo "$OUT" | grep -c '"wrong":0}')" -eq 16 ] && pass || fail "a sample of each class: $OUT"
run "$PDNKIT" egdb verify --variant russian --egdb "$D"
expect_rc 3 "verify without the variant's databases"
expect_err_has "no Russian draughts databases" "said"

# a damaged file is refused with its name
printf 'PKVDB1\njunk' >"$D/international/K-M.vdb"
run "$PDNKIT" egdb probe --variant international --egdb "$D" "W:W28:B3"
expect_rc 3 "damaged file"
expect_err_has "K-M.vdb: not a International draughts database" "the damaged file named"
run "$PDNKIT" egdb build --variant international --pieces 3 --egdb "$D"
expect_rc 3 "the build does not pass over a damaged file"
rm "$D/international/K-M.vdb"
run "$PDNKIT" egdb build --variant international --pieces 3 --egdb "$D" -q
expect_rc 0 "rebuilt after removal"

# the search: a database win is a win at once, with its distance; none without them
run "$PDNKIT" analyze --variant international --fen "W:W28:B3" --depth 3 --egdb "$D"
expect_out_has "score White wins in 5" "analyze with the databases"
run "$PDNKIT" analyze --variant international --fen "W:W28:B3" --depth 3 --egdb none
case $OUT in *"score win"*) fail "a win without the databases at depth 3" ;; *) pass ;; esac
run env PDNKIT_EGDB="$D" "$PDNKIT" analyze --variant international --fen "W:W28:B3" --depth 3
expect_out_has "score White wins in 5" "the databases of \$PDNKIT_EGDB"

# --moves: the game's counts go with it. Game 1 of corpora/matches/scan-1min-tied.pdn.zst
# to its 206th ply (a king and a man against a king: FMJD's 5-move ending, reached by
# the capture 7x45), then seven plies of it: Black to move with three plies of the
# count left, lost in four by the databases: a draw by the rule, as a position alone a loss
M206="32-28 17-22 28x17 12x21 33-28 7-12 39-33 1-7 44-39 21-26 50-44 16-21 37-32 26x37 42x31 11-16 47-42
19-23 28x19 14x23 34-29 23x34 39x30 20-25 44-39 25x34 40x29 10-14 31-26 5-10 26x17 12x21 45-40 21-26
35-30 16-21 32-28 18-22 28x17 21x12 36-31 26x37 41x32 14-19 29-24 6-11 40-35 10-14 42-37 12-18 33-28
7-12 46-41 14-20 39-33 20x29 33x24 9-14 38-33 14-20 43-38 20x29 33x24 3-9 38-33 12-17 49-43 9-14
43-38 18-22 37-31 13-18 24x13 18x9 32-27 8-13 27x18 13x22 41-36 15-20 31-27 22x31 36x27 11-16 33-29
20-25 30-24 14-19 24x13 9x18 48-42 4-9 42-37 2-7 37-32 7-11 29-24 17-21 38-33 21-26 28-22 18-23
33-28 11-17 22x11 16x7 28x19 7-12 32-28 25-30 24-20 30-34 27-22 34-39 19-14 9-13 14-10 39-44 28-23
44-49 23-18 12x23 22-17 49-21 17-11 21-38 20-15 26-31 11-6 13-19 10-4 31-37 4-9 37-42 35-30 42-47
9-25 38-29 25-3 29-45 30-25 47-41 3-8 19-24 8x35 23-29 35-30 29-34 30x39 45-1 39-11 41-19 11-2 19-32
2-35 32-28 35-13 28-37 13-30 37-23 30-48 23-5 25-20 5-28 48-43 28-19 43-30 19x35 15-10 35-40 20-15
40-23 10-5 23-46 15-10 46-19 10-4 19-23 5x28 1-7 28-19 7-1 19-35 1-23 4-22 23-5 22-50 5-10 50-11
10-5 11-17 5-32 35-30 32-27 17-50 27-21 30-48 21-16 48-39 16-7 50-44 7-2 44-35 2-7 35-40 7x45"
run "$PDNKIT" analyze --variant international --moves "$M206 6-1 45-50 39-6 50-45 6-17 45-50 17-6" --depth 6 --egdb "$D"
expect_out_has "the game so far: 7 of the 10 plies of this ending played" "analyze --moves says the ending's count"
expect_out_has "score +0" "a win the count ends first is a draw"
run "$PDNKIT" analyze --variant international --fen "B:WK1,K6:BK50" --depth 6 --egdb "$D"
expect_out_has "score White wins in 4" "the same position alone: lost"

# self-play and matches adjudicated by the variant's databases: a draw there ends the
# game, a win only when no draw count can end it first (tests/test_vegdb.c has the rule)
cat >"$T_TMP/adj.pdn" <<'EOF2'
[Event "a man race"]
[GameType "20"]
[FEN "W:W28:B3"]
[Result "*"]

*

[Event "two kings against one"]
[GameType "20"]
[FEN "W:WK46,K47:BK3"]
[Result "*"]

*
EOF2
run "$PDNKIT" selfplay --variant international --openings "$T_TMP/adj.pdn" --random 0 -n 2 -d 2 -c 1 --adjudicate "$D" -o "$T_TMP/spadj.pdn"
expect_rc 0 "selfplay --variant adjudicated by the databases"
grep -q 'Termination "adjudicated: a win in the endgame databases"' "$T_TMP/spadj.pdn" && pass || fail "the man race adjudicated a win: $(cat "$T_TMP/spadj.pdn")"
grep -q 'Termination "adjudicated: a draw in the endgame databases"' "$T_TMP/spadj.pdn" && pass || fail "two kings against one adjudicated a draw"
grep -q '^\[Result "1-0"\]' "$T_TMP/spadj.pdn" && pass || fail "the man race won by White, the first mover"
run "$PDNKIT" match --variant international --a "--depth 2" --b "--depth 1" --openings "$T_TMP/adj.pdn" -c 1 --adjudicate "$D" -o "$T_TMP/madj.pdn"
expect_rc 0 "match --variant adjudicated by the databases"
[ "$(grep -c 'adjudicated: a' "$T_TMP/madj.pdn")" -eq 4 ] && pass || fail "the four games adjudicated: $(grep Termination "$T_TMP/madj.pdn")"
run "$PDNKIT" selfplay --variant international --openings "$T_TMP/adj.pdn" --random 0 -n 2 -d 2 -c 1 --adjudicate none -o "$T_TMP/spnone.pdn"
expect_rc 0 "selfplay --variant --adjudicate none"
grep -q 'adjudicated' "$T_TMP/spnone.pdn" && fail "adjudicated with --adjudicate none" || pass
run "$PDNKIT" selfplay --variant international -n 2 -d 2 --adjudicate "$T_TMP/nowhere" -o "$T_TMP/x.pdn"
expect_rc 2 "--adjudicate: a directory that does not exist"
expect_err_has "no endgame databases at $T_TMP/nowhere" "said"
run "$PDNKIT" selfplay --variant russian --openings "$T_TMP/adj.pdn" -n 1 -d 1 --adjudicate "$D" -o "$T_TMP/x.pdn"
expect_err_has "no Russian draughts endgame databases in $D: games are not adjudicated" "a variant without them: warned"
# the engine's own options for the variant: patterns and databases
run "$PDNKIT" selfplay --variant international --openings "$T_TMP/adj.pdn" --random 0 -n 2 -d 2 -c 1 --patterns none --egdb "$D" --adjudicate none -o "$T_TMP/sppat.pdn"
expect_rc 0 "selfplay --variant with --patterns and --egdb"
grep -q '^\[Result "1-0"\]' "$T_TMP/sppat.pdn" && pass || fail "the man race won with the engine's databases"

# validate and import --egdb: a recorded result against the final position
cat >"$T_TMP/end.pdn" <<'EOF2'
[Event "a man race"]
[GameType "20"]
[FEN "W:W28:B3"]
[Result "1-0"]

1. 28-23 3-9 2. 23-18 9-14 3. 18-12 1-0

[Event "a man race, wrong result"]
[GameType "20"]
[FEN "W:W28:B3"]
[Result "0-1"]

0-1

[Event "two kings against one"]
[GameType "20"]
[FEN "W:WK46,K47:BK3"]
[Result "1-0"]

1-0

[Event "two kings against one, drawn by the 5-move rule"]
[GameType "20"]
[FEN "W:WK1,K28:BK50"]
[Result "1/2-1/2"]

1/2-1/2
EOF2
run "$PDNKIT" validate --egdb "$D" "$T_TMP/end.pdn"
expect_rc 0 "validate --egdb of International games"
expect_out_has "game 2 (a man race, wrong result): result 0-1, but White wins here in 5 plies (International draughts endgame database)" "a wrong result named"
expect_out_has "game 3 (two kings against one): result 1-0, but the final position is a draw" "a win that is a draw named"
case $OUT in *"game 1 "*|*"game 4 "*) fail "a right result, or one a count may have drawn, flagged: $OUT" ;; *) pass ;; esac
expect_err_has "3 results checked against the endgame databases (the variants' own): 2 contradicted" "the summary (a draw a count may have made is not judged)"
run "$PDNKIT" import --db "$T_TMP/v.db" --egdb "$D" "$T_TMP/end.pdn"
expect_rc 0 "import --egdb"
expect_err_has "3 results checked against the endgame databases: 2 contradicted" "import judges them too"

# serve: the position's and each move's value in the databases (the explorer's column)
if command -v curl >/dev/null 2>&1; then
	"$PDNKIT" serve --db "$T_TMP/v.db" --port 0 --port-file "$T_TMP/port" --egdb "$D" >"$T_TMP/serve.out" 2>"$T_TMP/serve.err" &
	SPID=$!
	i=0
	while [ ! -s "$T_TMP/port" ] && [ $i -lt 100 ] && kill -0 $SPID 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	U="http://127.0.0.1:$(cat "$T_TMP/port")"
	OUT=$(curl -s --max-time 20 "$U/api/position?variant=international&fen=W:W28:B3")
	expect_out_has '"move":"28-23","from":28,"path":[23],"fen":"B:W23:B3","egdb":{"value":"win","plies":5}}' "serve: a move's value for its side"
	expect_out_has '"move":"28-22","from":28,"path":[22],"fen":"B:W22:B3","egdb":{"value":"win","plies":15}}' "serve: the slower win"
	expect_out_has '],"egdb":{"value":"win","plies":5}}' "serve: the position's value"
	OUT=$(curl -s --max-time 20 "$U/api/explorer?variant=international&fen=W:WK46,K47:BK3")
	expect_out_has '"egdb":{"value":"draw","plies":null}' "the explorer's moves with their values"
	kill $SPID
	wait $SPID 2>/dev/null
else
	echo "SKIP $T_NAME: serve's database values: curl not installed (apt-get install curl)"
fi

done_testing
