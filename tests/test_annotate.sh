# annotate and blunders on the command line.
. "$TESTS_DIR/lib.sh"
SHOTS="$TESTS_DIR/../corpora/fixtures/shots.pdn"
G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"

# Moves that drop men to a simple shot are blunders; the forced replies are not searched.
run "$PDNKIT" annotate "$SHOTS" --depth 6 --json
expect_rc 0 "annotate the shots"
g1=$(echo "$OUT" | grep '"game":1,')
g2=$(echo "$OUT" | grep '"game":2,')
g3=$(echo "$OUT" | grep '"game":3,')
echo "$g1" | grep -q '{"ply":1,"move":"14-18","side":"black","best":"11-1[56]",[^}]*"class":"blunder"' && pass || fail "14-18 is a blunder: $g1"
echo "$g1" | grep -q '{"ply":2,"move":"22x8","side":"white","best":null,[^}]*"class":"forced","depth":0}' && pass || fail "22x8 forced: $g1"
echo "$g2" | grep -q '"move":"15-18","side":"black","best":"[^"]*","score_best":-*[0-9]*,"score_played":-[0-9]*,"loss":[0-9]*,"class":"blunder"' && pass || fail "15-18 hangs a man: $g2"
echo "$g3" | grep -q '"move":"15-19",[^}]*"class":"\(good\|inaccuracy\)","depth":6}' && pass || fail "15-19 keeps the man (good, or an inaccuracy at most): $g3"
echo "$OUT" | tail -1 | grep -q '^{"players":\[{"name":"test","games":3,' && pass || fail "players line: $(echo "$OUT" | tail -1)"

# Game 37 at a fixed depth: the same bytes every run, a PDN that validates cleanly and
# replays to the same moves.
"$PDNKIT" annotate "$G37" --depth 6 -o "$T_TMP/a.pdn" >"$T_TMP/s1" 2>/dev/null
"$PDNKIT" annotate "$G37" --depth 6 -o "$T_TMP/b.pdn" >"$T_TMP/s2" 2>/dev/null
cmp -s "$T_TMP/a.pdn" "$T_TMP/b.pdn" && pass || fail "annotation of game 37 differs between runs"
cmp -s "$T_TMP/s1" "$T_TMP/s2" && pass || fail "summary of game 37 differs between runs"
grep -q '\[%eval [-0-9.]*\] \[%depth 6\]' "$T_TMP/a.pdn" && pass || fail "eval comments"
run "$PDNKIT" validate "$T_TMP/a.pdn"
expect_rc 0 "annotated game 37 validates"
expect_err_has "1 valid, 0 with errors, 0 with warnings" "no warning either"
"$PDNKIT" convert --format json "$G37" 2>/dev/null | sed -E 's/.*"moves":(\[[^]]*\]).*/\1/' >"$T_TMP/m1"
"$PDNKIT" convert --format json "$T_TMP/a.pdn" 2>/dev/null | sed -E 's/.*"moves":(\[[^]]*\]).*/\1/' >"$T_TMP/m2"
cmp -s "$T_TMP/m1" "$T_TMP/m2" && [ -s "$T_TMP/m1" ] && pass || fail "annotated game replays to other moves"
# the comments and variations of the input stay
printf '[Event "c"]\n\n1. 9-14 {a comment} (1. 11-15 22-18) 23-18 *\n' >"$T_TMP/c.pdn"
run "$PDNKIT" annotate "$T_TMP/c.pdn" --depth 3 --variations all -o -
expect_out_has "{a comment}" "original comment kept"
expect_out_has "(1. 11-15 22-18)" "original variation kept"
# --variations none: no variation added; the default adds one after each mistake
run "$PDNKIT" annotate "$SHOTS" --depth 6 --variations none -o -
case $OUT in *"("*) fail "--variations none added one" ;; *) pass ;; esac
run "$PDNKIT" annotate "$SHOTS" --depth 6 -o -
expect_out_has '1. 14-18 $4 {[%eval ' "NAG and eval after a blunder"
expect_out_has '(1. 11-1' "best line as a variation"
expect_err_has "game 1:" "summary on stderr when the PDN goes to stdout"

# Two threads annotate two games at once: the same output.
"$PDNKIT" annotate "$SHOTS" "$G37" --depth 5 --json >"$T_TMP/t1" 2>/dev/null
"$PDNKIT" annotate "$SHOTS" "$G37" --depth 5 --json --threads 2 >"$T_TMP/t2" 2>/dev/null
cmp -s "$T_TMP/t1" "$T_TMP/t2" && pass || fail "--threads 2 changes the annotation"
[ "$(grep -c '"game"' "$T_TMP/t1")" -eq 4 ] && pass || fail "four games, in order"

# A database: resumable, sharded, mergeable; then blunders.
DB="$T_TMP/a.db"
"$PDNKIT" import --db "$DB" "$SHOTS" "$G37" >/dev/null 2>&1
run "$PDNKIT" annotate --db "$DB" --depth 6 --quiet
expect_rc 0 "annotate a database"
expect_err_has "4 games annotated" "four games"
run "$PDNKIT" annotate --db "$DB" --depth 6 --quiet
expect_err_has "0 games annotated, 4 skipped" "a rerun skips what is done"
run "$PDNKIT" annotate --db "$DB" --depth 5 --quiet --event "Drops"
expect_err_has "1 games annotated" "other settings: annotated again"
run "$PDNKIT" annotate --db "$DB" --depth 6 --json --event "Hangs"
expect_out_has '"move":"15-18","side":"black"' "stored annotation read back"
expect_err_has "1 read back" "read back, not searched"
run "$PDNKIT" blunders --db "$DB" --min-loss 100000
expect_err_has "annotated games in the selection; no move of them lost 100000 or more" "no blunder of annotated games: not told to annotate them"
run "$PDNKIT" blunders --db "$DB" --event "no such event at all"
expect_err_has "no game of the selection is annotated" "no annotated game: told so"
run "$PDNKIT" blunders --db "$DB"
expect_rc 0 "blunders"
expect_out_has "14-18" "the double-jump blunder listed"
expect_out_has "15-18" "the hanging man listed"
first=$(echo "$OUT" | sed -n 3p | awk '{print $1}')
second=$(echo "$OUT" | sed -n 4p | awk '{print $1}')
[ -n "$first" ] && [ "$first" -ge "$second" ] && pass || fail "worst first: $OUT"
run "$PDNKIT" blunders --db "$DB" --format json --limit 1
[ "$(echo "$OUT" | wc -l)" -eq 1 ] && pass || fail "--limit 1"
expect_out_has '"fen":"B:W22,31:B1,11,14"' "the position before the move"
run "$PDNKIT" blunders --db "$DB" --format pdn
echo "$OUT" >"$T_TMP/b.pdn"
run "$PDNKIT" validate "$T_TMP/b.pdn"
expect_rc 0 "blunders as PDN validate"
expect_err_has "0 with errors, 0 with warnings" "blunder PDN clean"
run "$PDNKIT" blunders --db "$DB" --min-loss 100000
expect_err_has "no move of them lost" "nothing that bad"
run "$PDNKIT" blunders --db "$DB" --format xml
expect_rc 2 "bad format"

# Shards cover every game exactly once; their databases merge into one.
for k in 1 2 3; do
	cp "$DB" "$T_TMP/s$k.db"
	"$PDNKIT" annotate --db "$T_TMP/s$k.db" --depth 3 --shard $k/3 --json 2>/dev/null | grep '"game"' | sed -E 's/^\{"game":([0-9]+).*/\1/' >>"$T_TMP/ids"
done
[ "$(sort -n "$T_TMP/ids" | tr '\n' ' ')" = "1 2 3 4 " ] && pass || fail "shards: $(sort -n "$T_TMP/ids" | tr '\n' ' ')"
for k in 1 2 3; do "$PDNKIT" annotate --db "$DB" --merge "$T_TMP/s$k.db" >>"$T_TMP/merged" 2>&1; done
grep -c "merged the annotations" "$T_TMP/merged" | grep -q 3 && pass || fail "merge: $(cat "$T_TMP/merged")"
run "$PDNKIT" annotate --db "$DB" --depth 3 --quiet
expect_err_has "0 games annotated, 4 skipped" "merged shards count as done"

# Interrupted, then resumed: finished games are not redone. Two workers: one takes
# game 37 (longest first; several seconds at depth 18), the other the three short games,
# which take a fraction of a second. --progress says when those three are done (a line a
# game, standard error not a terminal); the interrupt comes then.
DB2="$T_TMP/b.db"
"$PDNKIT" import --db "$DB2" "$G37" "$SHOTS" >/dev/null 2>&1
"$PDNKIT" annotate --db "$DB2" --depth 18 --verify 0 --threads 2 --quiet --progress >/dev/null 2>"$T_TMP/int" &
apid=$!
k=0
while [ $k -lt 600 ] && ! grep -q "^annotate: 3/4 games done" "$T_TMP/int"; do
	sleep 0.1
	k=$((k + 1))
done
kill -INT $apid
wait $apid
rc=$?
[ "$rc" -eq 130 ] && pass || fail "interrupted: exit $rc, $(cat "$T_TMP/int")"
grep -q "^annotate: 1/4 games done, [0-9]* positions, [0-9.]* s$" "$T_TMP/int" && pass || fail "--progress: a line a game: $(cat "$T_TMP/int")"
grep -q "interrupted" "$T_TMP/int" && pass || fail "says it was interrupted"
grep -q "3 games annotated" "$T_TMP/int" && pass || fail "the short games finished: $(cat "$T_TMP/int")"
run "$PDNKIT" annotate --db "$DB2" --depth 18 --verify 0 --quiet --black test
expect_err_has "0 games annotated, 3 skipped" "resumed without redoing the finished games"

# Games of other variants: annotated by their engine, in their notation.
cat >"$T_TMP/intl.pdn" <<'EOF'
[Event "International"]
[White "w"]
[Black "b"]
[GameType "20"]
[Result "*"]

1. 32-28 17-22 2. 28x17 12x21 3. 31-26 {a comment} 7-12 4. 26x17 12x21 *
EOF
run "$PDNKIT" annotate "$T_TMP/intl.pdn" --depth 4 --json
expect_rc 0 "annotate an International game"
expect_out_has '"gametype":20' "its GameType"
expect_out_has '{"ply":1,"move":"32-28","side":"white","best":"' "White moves first, numeric squares"
expect_out_has '{"ply":3,"move":"28x17","side":"white","best":null,' "a forced capture is not searched"
expect_out_has '{"ply":4,"move":"12x21","side":"black","best":"' "a choice of captures is searched"
"$PDNKIT" annotate "$T_TMP/intl.pdn" --depth 4 --variations all -o "$T_TMP/intl-a.pdn" >/dev/null 2>&1
grep -q '1\. 32-28 {\[%eval [-0-9.]*\] \[%depth 4\]} 1\.\.\. 17-22' "$T_TMP/intl-a.pdn" && pass ||
	fail "Black's reply after a comment is numbered 1...: $(cat "$T_TMP/intl-a.pdn")"
grep -q '{a comment}' "$T_TMP/intl-a.pdn" && pass || fail "the game's own comment kept"
run "$PDNKIT" validate "$T_TMP/intl-a.pdn"
expect_err_has "1 valid, 0 with errors, 0 with warnings, 1 of other variants" "the annotated game validates as International"
"$PDNKIT" convert --format json "$T_TMP/intl.pdn" 2>/dev/null | sed -E 's/.*"moves":(\[[^]]*\]).*/\1/' >"$T_TMP/vm1"
"$PDNKIT" convert --format json "$T_TMP/intl-a.pdn" 2>/dev/null | sed -E 's/.*"moves":(\[[^]]*\]).*/\1/' >"$T_TMP/vm2"
cmp -s "$T_TMP/vm1" "$T_TMP/vm2" && grep -q '26x17' "$T_TMP/vm1" && pass || fail "annotated International game replays to other moves"
if have_corpora "Russian blunders"; then
	# Game 94 of the 1947 championship: 31... b6-c5 loses at once; after c3-b2 a search
	# of 10 plies sees no loss, one of 16 does: with the default two rounds of checks
	# (which search the moves before it to 16 plies) the move is no blunder, with one it
	# is. Found through the store, by the position before it, and shown as a set-up in
	# Russian.
	VDB="$T_TMP/ru.db"
	"$PDNKIT" import --db "$VDB" "$CORPORA/ussr1947.pdn" >/dev/null 2>&1
	cp "$VDB" "$T_TMP/ru2.db"
	run "$PDNKIT" annotate --db "$T_TMP/ru2.db" --variant russian --position 'B:Wh6,a5,e3,Kh2:Bb6,c3' --depth 4 --json
	expect_rc 0 "annotate a stored Russian game, two rounds of checks"
	echo "$OUT" | grep -o '{"ply":62[^}]*}' | grep -q '"class":"blunder"' && fail "b6-c5 a blunder after the second round: $OUT" || pass
	run "$PDNKIT" annotate --db "$VDB" --variant russian --position 'B:Wh6,a5,e3,Kh2:Bb6,c3' --depth 4 --verify-rounds 1 --json
	expect_rc 0 "annotate a stored Russian game"
	expect_out_has '{"ply":62,"move":"b6-c5","side":"black","best":"c3-b2",' "the losing move and the saving one"
	echo "$OUT" | grep -o '{"ply":62[^}]*}' | grep -q '"class":"blunder"' && pass || fail "b6-c5 is a blunder: $OUT"
	run "$PDNKIT" blunders --db "$VDB" --min-loss 1000 --format pdn
	expect_rc 0 "blunders of Russian games"
	expect_out_has '[GameType "25"]' "the set-up names its variant"
	expect_out_has '[FEN "B:Wh6,a5,e3,Kh2:Bb6,c3"]' "the position before the move, in the variant's FEN (file and rank)"
	expect_out_has '1... c3-b2 (1... b6-c5 $4)' "Black's move numbered 1... (White opens Russian numbers)"
	echo "$OUT" >"$T_TMP/ru-bl.pdn"
	run "$PDNKIT" validate "$T_TMP/ru-bl.pdn"
	expect_err_has "0 with errors" "the set-up validates as Russian"
	run "$PDNKIT" blunders --db "$VDB" --min-loss 1000 --format json
	expect_out_has '"game":94,"gametype":25,' "JSON names the GameType"
	# the report draws every variant's board: Russian games are reported on theirs
	awk '/^\[Event/ { n++ } n <= 4' "$CORPORA/ussr1947.pdn" >"$T_TMP/ru4.pdn"
	run "$PDNKIT" report --depth 2 -o "$T_TMP/ru.html" "$T_TMP/ru4.pdn"
	expect_err_has "report: 4 games in" "the report takes Russian games"
	grep -q 'data-board=.{"rows":8,"cols":8' "$T_TMP/ru.html" && pass || fail "no board for the Russian games' stepper"
fi

# Usage errors.
run "$PDNKIT" annotate
expect_rc 2 "nothing to annotate"
run "$PDNKIT" annotate "$SHOTS" --db "$DB"
expect_rc 2 "files and --db"
run "$PDNKIT" annotate "$SHOTS" --blunder 10 --mistake 50
expect_rc 2 "thresholds out of order"
run "$PDNKIT" annotate "$SHOTS" --shard 4/3
expect_rc 2 "bad shard"
run "$PDNKIT" annotate "$SHOTS" --variations some
expect_rc 2 "bad --variations"
run "$PDNKIT" annotate "$T_TMP/missing.pdn"
expect_rc 3 "missing file"

# blunders --player lists that player's own moves only, whichever colour they had.
if have_corpora "blunders --player"; then
	PDB="$T_TMP/petal.db"
	"$PDNKIT" import --db "$PDB" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
	"$PDNKIT" annotate --db "$PDB" --event "Petal 1981" --depth 4 --egdb none -q >/dev/null 2>&1
	run "$PDNKIT" blunders --db "$PDB" --player Long --min-loss 20
	rows=$(echo "$OUT" | grep -c 'Petal 1981')
	[ "$rows" -gt 5 ] && pass || fail "blunders --player Long: too few rows: $OUT"
	wrong=$(echo "$OUT" | grep 'Petal 1981' | awk '{ mv = $3; long_black = index($0, "AA Long - ") > 0;
		if ((long_black && mv ~ /\.\.\.$/) || (!long_black && mv !~ /\.\.\.$/)) print }')
	[ -z "$wrong" ] && pass || fail "blunders --player Long lists the opponent's moves: $wrong"
	run "$PDNKIT" blunders --db "$PDB" --black Long --min-loss 20
	echo "$OUT" | grep 'Petal 1981' | awk '{ if ($3 ~ /\.\.\.$/) bad = 1 } END { exit bad }' && pass || fail "--black Long lists White's moves: $OUT"
fi
# --verify: a mistake or blunder is searched again deeper; it can only drop or keep a
# flagged move, never flag a new one, and a move still flagged carries the deeper depth.
"$PDNKIT" annotate "$G37" --depth 6 --verify 0 --json 2>/dev/null | tr '{' '\n' | grep '"class":"\(mistake\|blunder\)"' >"$T_TMP/v0"
"$PDNKIT" annotate "$G37" --depth 6 --verify 4 --verify-rounds 1 --json 2>/dev/null | tr '{' '\n' | grep '"class":"\(mistake\|blunder\)"' >"$T_TMP/v4"
[ -s "$T_TMP/v0" ] && pass || fail "game 37 at depth 6 has no mistake to check"
sed -E 's/.*"ply":([0-9]+),.*/\1/' "$T_TMP/v0" | sort >"$T_TMP/p0"
sed -E 's/.*"ply":([0-9]+),.*/\1/' "$T_TMP/v4" | sort >"$T_TMP/p4"
[ -z "$(comm -13 "$T_TMP/p0" "$T_TMP/p4")" ] && pass || fail "--verify flagged a move the first search did not: $(comm -13 "$T_TMP/p0" "$T_TMP/p4")"
[ "$(wc -l <"$T_TMP/v4")" -lt "$(wc -l <"$T_TMP/v0")" ] && pass || fail "--verify 4 dropped none of $(wc -l <"$T_TMP/v0") flagged moves"
! grep -v '"depth":10' "$T_TMP/v4" | grep -q . && pass || fail "a checked move without the deeper depth: $(cat "$T_TMP/v4")"
# a second round (the default) checks what is still flagged 2 plies deeper again: on
# game 37 at depth 4, of the 3 moves still flagged after a check 2 plies deeper, one
# is flagged after the second, at depth 4 + 2 + 2
"$PDNKIT" annotate "$G37" --depth 4 --verify 2 --verify-rounds 1 --json 2>/dev/null | tr '{' '\n' | grep '"class":"\(mistake\|blunder\)"' >"$T_TMP/v21"
"$PDNKIT" annotate "$G37" --depth 4 --verify 2 --json 2>/dev/null | tr '{' '\n' | grep '"class":"\(mistake\|blunder\)"' >"$T_TMP/v22"
sed -E 's/.*"ply":([0-9]+),.*/\1/' "$T_TMP/v21" | sort >"$T_TMP/p21"
sed -E 's/.*"ply":([0-9]+),.*/\1/' "$T_TMP/v22" | sort >"$T_TMP/p22"
[ "$(wc -l <"$T_TMP/p21")" -gt "$(wc -l <"$T_TMP/p22")" ] && [ -s "$T_TMP/p22" ] && pass ||
	fail "the second round dropped no flag, or all: $(wc -l <"$T_TMP/p21") and $(wc -l <"$T_TMP/p22")"
[ -z "$(comm -13 "$T_TMP/p21" "$T_TMP/p22")" ] && pass || fail "the second round flagged a move the first did not: $(comm -13 "$T_TMP/p21" "$T_TMP/p22")"
! grep -v '"depth":8' "$T_TMP/v22" | grep -q . && pass || fail "a move checked twice without the depth of the second round: $(cat "$T_TMP/v22")"
! grep -v '"depth":6' "$T_TMP/v21" | grep -q . && pass || fail "a move checked once without the depth of the first round: $(cat "$T_TMP/v21")"
run "$PDNKIT" annotate "$G37" --verify-rounds 5
expect_rc 2 "--verify-rounds 5 refused"
run "$PDNKIT" annotate "$G37" --engine hub:/bin/false --verify-rounds 2
expect_rc 2 "--verify-rounds with another engine refused"
run "$PDNKIT" annotate "$G37" --verify 21
expect_rc 2 "--verify 21 refused"
run "$PDNKIT" annotate "$G37" --engine hub:/bin/false --verify 4
expect_rc 2 "--verify with another engine refused"
expect_err_has "not checked deeper" "says why"
if [ -n "$DB" ] && [ -f "$DB" ]; then
	run sqlite3 "$DB" "SELECT settings FROM annotation_run"
	expect_out_has " verify=6x2 " "the plies checked and the rounds (the default) are in the stored settings"
	# International games are searched with its built-in network: a run names it
	sum=$(sed -n 's/.*checksum \([0-9a-f]\{8\}\).*/\1/p' "$TESTS_DIR/../book/vnet-international.txt")
	expect_out_has " net-international=$sum" "the stored settings name International's built-in network"
fi
# the summary says which moves it counts, and why a decisive move can have lost nothing
run "$PDNKIT" annotate "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --depth 6 --egdb none
expect_out_has "moves scored (book and forced moves left out)" "the moves counted said"
case $OUT in *"decisive: "*", loss 0 ("*"lost earlier"*|*"decisive: "*", loss "[1-9]*) pass ;; *"decisive"*) fail "a decisive move without its loss: $OUT" ;; *) pass ;; esac

done_testing
