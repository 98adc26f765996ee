# Other engines: pdnkit engines check/list, and pdnkit match between pdnkit and engines
# driven through Hub (pdnkit engine, the misbehaving tests/fake_engine) and the
# CheckerBoard interface (libpdnkit-cb.so in pdnkit engine --cb).
. "$TESTS_DIR/lib.sh"
FAKE="$BINDIR/fake_engine"
CBSO="$BINDIR/../libpdnkit-cb.so"

run "$PDNKIT" engines check pdnkit
expect_rc 0 "check the built-in engine"
expect_out_has "from the start it played" "the built-in engine plays a move"
expect_out_has "russian" "its variants"
run "$PDNKIT" engines check "hub:$PDNKIT engine" -j
expect_rc 0 "check pdnkit engine through Hub"
expect_out_has '"name":"pdnkit ' "its name"
expect_out_has '"status":"ok"' "its move"
expect_out_has 'param name=hash' "its parameters"
run "$PDNKIT" engines check "cb:$CBSO" --time 0.05
expect_rc 0 "check libpdnkit-cb.so"
expect_out_has "a CheckerBoard library in a process of its own" "how it runs"
expect_out_has "from the start it played" "it plays a move"
run "$PDNKIT" engines check "hub:$FAKE crash 1"
expect_rc 3 "an engine that crashes at once"
expect_out_has "signal 6" "the crash is named"
run "$PDNKIT" engines check "hub:/nonexistent/engine"
expect_rc 3 "an engine that does not exist"
expect_err_has "cannot start '/nonexistent/engine'" "says so"
run "$PDNKIT" engines check "hub:sh -c 'exit 3'"
expect_rc 3 "an engine that ends before it reads its input"
expect_err_has "sh exited with status 3 while starting" "how it ended is said"
run "$PDNKIT" engines check "dxp:127.0.0.1:1"
expect_rc 3 "a DXP engine that is not listening"
expect_err_has "cannot connect" "says so"
run "$PDNKIT" engines check "uci:stockfish"
expect_rc 2 "an unknown kind of engine"
expect_err_has "is no engine" "says what an engine is"
run "$PDNKIT" engines chek
expect_rc 2 "a mistyped subcommand"
expect_err_has "did you mean" "suggests"

# the engines file
cat > "$T_TMP/engines" <<EOT
# test engines
[self]
spec = hub:$PDNKIT engine
hash = 16
[faulty]
spec = hub:$FAKE illegal 2
EOT
run "$PDNKIT" engines list --engines "$T_TMP/engines"
expect_rc 0 "list the engines file"
expect_out_has "self" "names the first"
expect_out_has "(hash=16)" "with its parameters"
run env PDNKIT_ENGINES="$T_TMP/engines" "$PDNKIT" engines check self
expect_rc 0 "an engine of the file named by \$PDNKIT_ENGINES"
run "$PDNKIT" engines check nobody --engines "$T_TMP/engines"
expect_rc 2 "a name not in the file"
expect_err_has "no engine 'nobody'" "says so"

# match: pdnkit against pdnkit through Hub, on the ACF deck
run "$PDNKIT" match --engine "pdnkit:--depth 3" --engine self --engines "$T_TMP/engines" --time 0.02 --ballots acf3 \
	--games 4 -c 2 -j -o "$T_TMP/m.pdn" --adjudicate none
expect_rc 0 "a match against a Hub engine"
expect_out_has '"games":4' "four games"
expect_out_has '"pairs":2' "two pairs"
expect_out_has '"illegal_moves":0' "no illegal move"
expect_out_has '"name":"pdnkit 0.1.0"' "the Hub engine's name"
run "$PDNKIT" validate "$T_TMP/m.pdn"
expect_err_has "4 games read: 4 valid, 0 with errors, 0 with warnings" "its games are clean PDN"
grep -q '\[Opening "ACF 1: 9-13 21-17 5-9 (Edinburgh)"\]' "$T_TMP/m.pdn" && pass || fail "the deck's first ballot named, with the classic opening it falls under"
grep -q '\[WhiteSeconds "' "$T_TMP/m.pdn" && pass || fail "time used in the games"

# match against a CheckerBoard library
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine "cb:$CBSO" --time 0.02 --ballots acf3 --games 2 -c 1 --adjudicate none
expect_rc 0 "a match against a CheckerBoard library"
expect_out_has "2 games" "two games"

# faults lose the game, the match goes on; --on-fault stop ends it
for mode in crash hang illegal garbage nomove; do
	run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine "hub:$FAKE $mode 3" --time 0.02 --margin 0.3 \
		--ballots acf3 --games 4 -c 2 --adjudicate none -j
	expect_rc 0 "a match against an engine that goes wrong ($mode)"
	expect_out_has '"wins":4' "A wins every game ($mode)"
done
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine faulty --engines "$T_TMP/engines" --time 0.02 --ballots acf3 --games 2 -c 1 --adjudicate none
expect_out_has "played 1-2, which is not a legal move here" "the illegal move is named"
expect_out_has "B faults: 0 crashed, 0 on time, 2 illegal" "and counted"
# a record's faults count as faults when the match is resumed from it
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine faulty --engines "$T_TMP/engines" --time 0.02 --ballots acf3 --games 2 -c 1 --adjudicate none -o "$T_TMP/faulty.pdn"
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine faulty --engines "$T_TMP/engines" --time 0.02 --ballots acf3 --games 2 -c 1 --adjudicate none -o "$T_TMP/faulty.pdn" --resume
expect_out_has "resumed: 2 of 2 games" "a finished record resumed"
expect_out_has "B faults: 0 crashed, 0 on time, 2 illegal" "its faults counted again"
expect_out_has "played 1-2, which is not a legal move here" "and what the engine did"
# -o -: the games on standard output after the result, no file named "-"
here=$(pwd)
cd "$T_TMP" || exit 1
run "$PDNKIT" match --a "--depth 2" --b "--depth 1" --ballots acf3 --games 2 --adjudicate none -o -
cd "$here" || exit 1
expect_out_has '[Event "pdnkit match, game 2"]' "-o - writes the games to standard output"
[ ! -e "$T_TMP/-" ] && pass || fail "-o - made a file named -"
run "$PDNKIT" match --a "--depth 2" --b "--depth 1" --games 2 -o - --resume
expect_rc 2 "--resume with -o - refused"
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine "hub:$FAKE crash 2" --time 0.02 --ballots acf3 --games 20 -c 1 --on-fault stop --adjudicate none -j
expect_out_has '"games":1,' "--on-fault stop ends the run after the fault"
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine "hub:$FAKE slow" --startup 0.3 --games 2
expect_rc 3 "an engine that does not start in time"
expect_err_has "did not answer 'wait' within 0.3 s" "says so at once"
run "$PDNKIT" match --engine "pdnkit:--depth 2" --engine "hub:$FAKE variant" --games 2
expect_rc 3 "an engine of another variant"
expect_err_has "not English draughts" "says so"
[ -z "$(pgrep -f "$FAKE" 2>/dev/null)" ] && pass || fail "no fake engine left running"

# annotate with another engine: its move and score before each move, the position
# after a move it would not play scored too
G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"
run "$PDNKIT" annotate "$G37" --engine "hub:$PDNKIT engine --no-book" -t 0.02 --book none -j
expect_rc 0 "annotate with a Hub engine"
expect_out_has '"class":"' "the moves are classed"
run "$PDNKIT" annotate "$G37" --engine "cb:$CBSO,eval-side=mover,book=0" -t 0.05 --book none
expect_rc 0 "annotate with a CheckerBoard library (its score read from its status line)"
expect_out_has "average loss" "a summary"
run "$PDNKIT" annotate "$G37" --engine "hub:$FAKE crash 5" -t 0.02 --book none
expect_err_has "not annotated: " "a crash is said"
expect_err_has "signal 6" "with how it ended"
run "$PDNKIT" annotate "$G37" --engine "hub:$FAKE ok" --depth 3
expect_rc 2 "another engine is given seconds, not a depth"
# blunders --second-opinion: another engine's move in each listed position; a flag is
# disputed exactly when that move is the move played
run "$PDNKIT" import --db "$T_TMP/so.db" "$G37"
run "$PDNKIT" annotate --db "$T_TMP/so.db" --depth 4 --book none -q
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 6 --second-opinion "hub:$FAKE ok" --second-time 0.05 -j
expect_rc 0 "blunders with a second opinion"
expect_err_has "blunders: second opinion of " "its summary"
n=0
bad=0
while IFS= read -r line; do
	n=$((n + 1))
	played=$(printf '%s' "$line" | sed -E 's/.*"side":"[a-z]+","move":"([^"]*)".*/\1/')
	other=$(printf '%s' "$line" | sed -E 's/.*"second":\{[^}]*"move":"([^"]*)".*/\1/')
	disp=$(printf '%s' "$line" | sed -E 's/.*"disputed":(true|false).*/\1/')
	if [ "$played" = "$other" ]; then [ "$disp" = true ] || bad=$((bad + 1)); else [ "$disp" = false ] || bad=$((bad + 1)); fi
done <<EOF2
$OUT
EOF2
[ "$n" = 6 ] && [ "$bad" = 0 ] && pass || fail "disputed exactly when the engine plays the move played: $n rows, $bad wrong: $OUT"
k=$(printf '%s\n' "$OUT" | grep -c '"disputed":true')
expect_err_has "it plays $k of the 6 moves listed itself" "the summary counts the disputed flags"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 4 --second-opinion "hub:$FAKE crash 2" --second-time 0.05
expect_rc 3 "a second opinion that crashes"
expect_err_has "positions without its move" "is said"
expect_out_has "(no move)" "the rows without its move are marked"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 3 --second-opinion faulty --engines "$T_TMP/engines" --second-time 0.05
expect_err_has "blunders: second opinion of fake-illegal" "an engine named in the engines file"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --second-time 1
expect_rc 2 "--second-time alone"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --second-opinion pdnkit
expect_rc 2 "--second-opinion takes another engine"
run "$PDNKIT" book expand -E "hub:$PDNKIT engine" --engine-options "--movetime 0.05" -n 2 -o "$T_TMP/z.book" -q
expect_rc 0 "an engine answering from its book"
expect_err_has "without a score (from its opening book?)" "its unscored moves said"
# in a store: the engine is part of the run's settings, so two engines' results never mix
run "$PDNKIT" import --db "$T_TMP/a.db" "$G37"
run "$PDNKIT" annotate --db "$T_TMP/a.db" --engine "hub:$PDNKIT engine --no-book" -t 0.02 --book none -q
expect_rc 0 "annotate a store with a Hub engine"
run "$PDNKIT" annotate --db "$T_TMP/a.db" --engine "hub:$PDNKIT engine --no-book" -t 0.02 --book none -q
expect_err_has "1 skipped (done before with these settings)" "a second run with the same engine skips the game"
run "$PDNKIT" annotate --db "$T_TMP/a.db" --depth 2 --book none -q
expect_err_has "annotate: 1 games annotated" "pdnkit's own run does not take the other engine's"

# analyze with another engine
run "$PDNKIT" analyze -E "hub:$PDNKIT engine --no-book" -t 0.05 -m "11-15 23-19" -j
expect_rc 0 "analyze with a Hub engine"
expect_out_has '"status":"ok","best":"' "its move"
expect_out_has '"score":' "and score"
run "$PDNKIT" analyze -E "hub:$FAKE hang 1" -t 0.05
expect_rc 3 "analyze with an engine that hangs"
expect_err_has "gave no move within" "says so"
run "$PDNKIT" analyze -E "hub:$FAKE ok" -d 5
expect_rc 2 "another engine is given seconds, not a depth"
# blunders --second-opinion: another engine's move in each listed position; a flag is
# disputed exactly when that move is the move played
run "$PDNKIT" import --db "$T_TMP/so.db" "$G37"
run "$PDNKIT" annotate --db "$T_TMP/so.db" --depth 4 --book none -q
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 6 --second-opinion "hub:$FAKE ok" --second-time 0.05 -j
expect_rc 0 "blunders with a second opinion"
expect_err_has "blunders: second opinion of " "its summary"
n=0
bad=0
while IFS= read -r line; do
	n=$((n + 1))
	played=$(printf '%s' "$line" | sed -E 's/.*"side":"[a-z]+","move":"([^"]*)".*/\1/')
	other=$(printf '%s' "$line" | sed -E 's/.*"second":\{[^}]*"move":"([^"]*)".*/\1/')
	disp=$(printf '%s' "$line" | sed -E 's/.*"disputed":(true|false).*/\1/')
	if [ "$played" = "$other" ]; then [ "$disp" = true ] || bad=$((bad + 1)); else [ "$disp" = false ] || bad=$((bad + 1)); fi
done <<EOF2
$OUT
EOF2
[ "$n" = 6 ] && [ "$bad" = 0 ] && pass || fail "disputed exactly when the engine plays the move played: $n rows, $bad wrong: $OUT"
k=$(printf '%s\n' "$OUT" | grep -c '"disputed":true')
expect_err_has "it plays $k of the 6 moves listed itself" "the summary counts the disputed flags"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 4 --second-opinion "hub:$FAKE crash 2" --second-time 0.05
expect_rc 3 "a second opinion that crashes"
expect_err_has "positions without its move" "is said"
expect_out_has "(no move)" "the rows without its move are marked"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 3 --second-opinion faulty --engines "$T_TMP/engines" --second-time 0.05
expect_err_has "blunders: second opinion of fake-illegal" "an engine named in the engines file"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --second-time 1
expect_rc 2 "--second-time alone"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --second-opinion pdnkit
expect_rc 2 "--second-opinion takes another engine"
run "$PDNKIT" book expand -E "hub:$PDNKIT engine" --engine-options "--movetime 0.05" -n 2 -o "$T_TMP/z.book" -q
expect_rc 0 "an engine answering from its book"
expect_err_has "without a score (from its opening book?)" "its unscored moves said"

# solve with another engine
printf '[Event "p1"]\n[Result "1-0"]\n[SetUp "1"]\n[FEN "B:W30:BK1,K5,K9"]\n\n*\n\n[Event "p2"]\n[Result "1-0"]\n[SetUp "1"]\n[FEN "B:W30:BK1,K5,K9"]\n\n*\n' > "$T_TMP/probs.pdn"
run "$PDNKIT" solve -E "hub:$PDNKIT engine --no-book" -t 0.05 "$T_TMP/probs.pdn" -j
expect_rc 0 "solve with a Hub engine"
expect_out_has '"positions":2,"correct":2' "both judged right"
run "$PDNKIT" solve -E "hub:$FAKE crash 2" -t 0.05 "$T_TMP/probs.pdn" -q
expect_err_has "signal 6" "a crash is said"
expect_out_has "of 2 positions" "and the position counted"

# a clock with an increment: passed to a Hub engine as level time= inc=, a flag that
# falls loses the game
run "$PDNKIT" match -E "pdnkit" -E "hub:$PDNKIT engine" --clock 2+0.05 --ballots acf3 --games 2 -c 1 --adjudicate none -o "$T_TMP/clk.pdn" -j
expect_rc 0 "a match with a clock"
expect_out_has '"time_losses":0' "nobody loses on time"
grep -q '^\[TimeControl "2+0.05"\]' "$T_TMP/clk.pdn" && pass || fail "the time control in the games"
run "$PDNKIT" match -E "pdnkit" -E "hub:$FAKE hang 3" --clock 0.5 --margin 0.2 --ballots acf3 --games 2 -c 1 --adjudicate none
# its earlier moves took a little of the 0.5 s (more under a sanitizer): the clock left is said
case $OUT in *"gave no move within 0."[0-7]?" s (0."[0-5]?" s on its clock and a margin of 0.20 s)"*) pass ;;
	*) fail "an engine that hangs loses on its clock: $OUT" ;; esac
run "$PDNKIT" match -E pdnkit -E pdnkit --clock 60+x
expect_rc 2 "a clock that is no clock"

# play against another engine
printf '11-15\n8-11\nmoves\n' | "$PDNKIT" play --line -q -E "hub:$PDNKIT engine" -l 0 >"$T_TMP/out" 2>&1
OUT=$(cat "$T_TMP/out")
expect_out_has '[White "pdnkit 0.1.0"]' "the other engine is White"
case $OUT in *"1. 11-15 2"[0-9]"-1"[0-9]" 2. 8-11 "*) pass ;; *) fail "play against a Hub engine: $OUT" ;; esac
printf '11-15\n' | "$PDNKIT" play --line -q -E "hub:$FAKE illegal 1" -l 0 >"$T_TMP/out" 2>&1
OUT=$(cat "$T_TMP/out")
expect_out_has "engine failed (illegal)" "an engine's illegal move ends the game"

# the report with another engine's annotation
run "$PDNKIT" report "$G37" -E "hub:$PDNKIT engine --no-book" -t 0.02 --book none -o "$T_TMP/r.html"
expect_rc 0 "a report annotated by a Hub engine"
grep -q "the engine hub:" "$T_TMP/r.html" && pass || fail "the page names the engine"

# a round robin of three engines
run "$PDNKIT" match -E "pdnkit:--depth 2" -E "pdnkit:--depth 4" -E "hub:$FAKE ok" --time 0.02 --ballots acf3 --games 2 -c 1 \
	--adjudicate none -o "$T_TMP/rr.pdn" -j
expect_rc 0 "a round robin"
expect_out_has '"pairs":[{"a":"pdnkit --depth 2","b":"pdnkit --depth 4"' "the pairs"
expect_out_has '{"name":"fake-ok 1","games":4,' "each engine's games"
run "$PDNKIT" validate "$T_TMP/rr.pdn"
expect_err_has "6 games read: 6 valid, 0 with errors, 0 with warnings" "all pairs' games written"
[ "$(grep -c '^\[Event "pdnkit match, B-C, game' "$T_TMP/rr.pdn")" = 2 ] && pass || fail "each game named by its pair: $(grep Event "$T_TMP/rr.pdn")"
run "$PDNKIT" match -E "pdnkit:--depth 2" -E "pdnkit:--depth 3" -E "pdnkit:--depth 1" --ballots acf3 --games 2 -c 1 --adjudicate none -o -
expect_rc 0 "a round robin written to standard output"
[ "$(echo "$OUT" | grep -c '^\[Event "pdnkit match, ')" = 6 ] && pass || fail "six games on standard output: $OUT"
# a round robin killed in its first pair keeps the games it finished
"$PDNKIT" match -E "pdnkit:--depth 4" -E "pdnkit:--depth 4" -E "pdnkit:--depth 4" --gauntlet --ballots acf3 -c 1 \
	--adjudicate none -o "$T_TMP/killed.pdn" >/dev/null 2>&1 &
MPID=$!
i=0
while [ $i -lt 600 ] && ! grep -q '^\[Result' "$T_TMP/killed.pdn" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -9 $MPID 2>/dev/null
wait $MPID 2>/dev/null
run "$PDNKIT" validate "$T_TMP/killed.pdn"
case $ERR in *" read: "*" valid, 0 with errors"*) pass ;; *) fail "the killed round robin's games: $ERR" ;; esac
grep -q '^\[Event "pdnkit match, A-B, game' "$T_TMP/killed.pdn" && pass || fail "the killed round robin's first game not written"

run "$PDNKIT" match -E "pdnkit:--depth 2" -E "pdnkit:--depth 4" -E "pdnkit:--depth 3" --gauntlet --ballots acf3 --games 2 -c 1 --adjudicate none
expect_out_has "A-C" "a gauntlet: the first against the third"
case $OUT in *"B-C"*) fail "a gauntlet plays no B-C pair" ;; *) pass ;; esac

# usage
run "$PDNKIT" match --engine pdnkit
expect_rc 2 "one engine only"
expect_err_has "give it twice" "says so"
run "$PDNKIT" match --engine pdnkit --engine pdnkit --a "--depth 2"
expect_rc 2 "--engine with --a"
run "$PDNKIT" match --engine pdnkit --engine pdnkit --sprt 10,0
expect_rc 2 "a backwards SPRT"
expect_err_has "ELO0 < ELO1" "says how"
run "$PDNKIT" match --engine pdnkit --engine pdnkit --ballots acf4
expect_rc 2 "an unknown deck"
expect_err_has "neither acf3, all3, all2 nor a PDN file" "names the decks"
run "$PDNKIT" match --engine pdnkit --engine pdnkit --time 0
expect_rc 2 "a zero time"

# the SPRT decides: a depth-4 engine against a depth-1 one is better by far
run "$PDNKIT" match --engine "pdnkit:--depth 5" --engine "pdnkit:--depth 1" --sprt 0,50 --ballots acf3 -c 2 -j --adjudicate none
expect_rc 0 "an SPRT run"
expect_out_has '"decision":"H1"' "accepts H1 before the deck's end"
case $OUT in *'"games":312'*) fail "the SPRT did not stop early" ;; *) pass ;; esac

# book expand with another engine: its moves become book moves with its scores; one
# that fails stops the expansion with the reason
run "$PDNKIT" book expand -E "hub:$PDNKIT engine --no-book" --engine-options "--movetime 0.05" -n 3 --width 2 -o "$T_TMP/x.book" -q -j
expect_rc 0 "book expand with a Hub engine"
case $ERR in *"without a score"*) fail "scores from an engine without its book" ;; *) pass ;; esac
expect_out_has '"positions":' "the book's summary"
run "$PDNKIT" book dump "$T_TMP/x.book"
expect_out_has "1. " "the engine's first move is in the book"
run "$PDNKIT" book expand -E "hub:$FAKE crash 2" --engine-options "--movetime 0.05" -n 3 -o "$T_TMP/y.book" -q
expect_rc 3 "an engine that crashes ends the expansion"
expect_err_has "--engine" "and says which engine"
run "$PDNKIT" book expand -E "hub:$PDNKIT engine" --engine-options "--depth 4" -n 3 -o "$T_TMP/y.book"
expect_rc 2 "another engine is given seconds, not a depth"
# blunders --second-opinion: another engine's move in each listed position; a flag is
# disputed exactly when that move is the move played
run "$PDNKIT" import --db "$T_TMP/so.db" "$G37"
run "$PDNKIT" annotate --db "$T_TMP/so.db" --depth 4 --book none -q
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 6 --second-opinion "hub:$FAKE ok" --second-time 0.05 -j
expect_rc 0 "blunders with a second opinion"
expect_err_has "blunders: second opinion of " "its summary"
n=0
bad=0
while IFS= read -r line; do
	n=$((n + 1))
	played=$(printf '%s' "$line" | sed -E 's/.*"side":"[a-z]+","move":"([^"]*)".*/\1/')
	other=$(printf '%s' "$line" | sed -E 's/.*"second":\{[^}]*"move":"([^"]*)".*/\1/')
	disp=$(printf '%s' "$line" | sed -E 's/.*"disputed":(true|false).*/\1/')
	if [ "$played" = "$other" ]; then [ "$disp" = true ] || bad=$((bad + 1)); else [ "$disp" = false ] || bad=$((bad + 1)); fi
done <<EOF2
$OUT
EOF2
[ "$n" = 6 ] && [ "$bad" = 0 ] && pass || fail "disputed exactly when the engine plays the move played: $n rows, $bad wrong: $OUT"
k=$(printf '%s\n' "$OUT" | grep -c '"disputed":true')
expect_err_has "it plays $k of the 6 moves listed itself" "the summary counts the disputed flags"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 4 --second-opinion "hub:$FAKE crash 2" --second-time 0.05
expect_rc 3 "a second opinion that crashes"
expect_err_has "positions without its move" "is said"
expect_out_has "(no move)" "the rows without its move are marked"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --min-loss 0 --limit 3 --second-opinion faulty --engines "$T_TMP/engines" --second-time 0.05
expect_err_has "blunders: second opinion of fake-illegal" "an engine named in the engines file"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --second-time 1
expect_rc 2 "--second-time alone"
run "$PDNKIT" blunders --db "$T_TMP/so.db" --second-opinion pdnkit
expect_rc 2 "--second-opinion takes another engine"
run "$PDNKIT" book expand -E "hub:$PDNKIT engine" --engine-options "--movetime 0.05" -n 2 -o "$T_TMP/z.book" -q
expect_rc 0 "an engine answering from its book"
expect_err_has "without a score (from its opening book?)" "its unscored moves said"

# adjudication by the engines' scores
run "$PDNKIT" match --a "--depth 6" --b "--depth 2" --ballots acf3 --games 8 --adjudicate none --adjudicate-win 2,3 -o "$T_TMP/adjw.pdn" -j
expect_rc 0 "a match with --adjudicate-win"
grep -q "both engines' scores agreed on a win" "$T_TMP/adjw.pdn" && pass || fail "games won by agreed scores"
run "$PDNKIT" match --a "--depth 4" --b "--depth 4" --ballots acf3 --games 4 --adjudicate none --adjudicate-draw 0,10,1 -o "$T_TMP/adjd.pdn" -j
expect_rc 0 "a match with --adjudicate-draw"
expect_out_has '"wins":0,"draws":4,"losses":0' "every game drawn by agreement after a move each"
[ "$(grep -c "agreed on a draw" "$T_TMP/adjd.pdn")" = 4 ] && pass || fail "each said so in the PDN"
run "$PDNKIT" match --a "--depth 2" --b "--depth 2" --adjudicate-win 3
expect_rc 2 "--adjudicate-win without MOVES"
run "$PDNKIT" match --a "--depth 2" --b "--depth 2" --adjudicate-draw 80,0.1,0
expect_rc 2 "--adjudicate-draw with no moves"
run "$PDNKIT" match --variant international --a "--depth 2" --b "--depth 2" --adjudicate-win 3,0
expect_rc 2 "--adjudicate-win with no moves, in another variant too"

# DXP: pdnkit engine --dxp as the follower (a process a connection), pdnkit as the
# initiator in engines check and match; a hostile initiator does not take it down
"$PDNKIT" engine --dxp 127.0.0.1:0 --movetime 0.02 2>"$T_TMP/dxp.log" &
DXP_PID=$!
port=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	port=$(sed -n 's/.*DXP (International draughts) on 127.0.0.1:\([0-9]*\)$/\1/p' "$T_TMP/dxp.log")
	[ -n "$port" ] && break
	sleep 0.2
done
if [ -z "$port" ]; then
	fail "pdnkit engine --dxp says its port"
else
	pass
	run "$PDNKIT" engines check "dxp:127.0.0.1:$port" -j
	expect_rc 0 "engines check of a DXP engine"
	expect_out_has '"name":"pdnkit ' "its name from GAMEACC"
	expect_out_has '"kind":"dxp"' "its kind"
	expect_out_has '"status":"ok"' "its move"
	run "$PDNKIT" match --variant international --engine "pdnkit:--depth 2" --engine "dxp:127.0.0.1:$port" --clock 60 \
		--games 4 -c 2 -o "$T_TMP/dxp.pdn" -j
	expect_rc 0 "a match against a DXP engine, two games at once"
	expect_out_has '"games":4' "all four played"
	expect_out_has '"crashes":0,"time_losses":0,"illegal_moves":0,"garbage":0,"no_move":0}]' "without a fault"
	run "$PDNKIT" validate "$T_TMP/dxp.pdn"
	expect_err_has "4 valid, 0 with errors" "its games are legal International draughts"
	grep -q '^\[White "pdnkit [0-9]' "$T_TMP/dxp.pdn" && pass || fail "the DXP engine's name in the games"
	# --resume: the DXP engine's name is known from its games only; the file's is taken
	# (two games at once: the file has them in the order they ended)
	awk '/^\[Event / { keep = /game [12]"/ } keep' "$T_TMP/dxp.pdn" > "$T_TMP/dxp-half.pdn"
	run "$PDNKIT" match --variant international --engine "pdnkit:--depth 2" --engine "dxp:127.0.0.1:$port" --clock 60 \
		--games 4 -c 2 -o "$T_TMP/dxp-half.pdn" --resume
	expect_rc 0 "a match against a DXP engine resumed"
	expect_out_has "resumed: 2 of 4 games" "its first two games read back"
	[ "$(grep -c '^\[Event "pdnkit match, game' "$T_TMP/dxp-half.pdn")" = 4 ] && pass || fail "the resumed file has all four games"
	# A game lost on time, read back: in International draughts White moves first, and
	# "0-1" is the first mover's loss (game 1: B, the DXP engine, has White)
	awk '/^\[Event / { keep = /game 1"/ } !keep { next }
	     /^\[Result / { print "[Result \"0-1\"]"; print "[Termination \"time forfeit\"]"; next }
	     /^\[Termination/ { next } { print }' "$T_TMP/dxp.pdn" > "$T_TMP/dxp-forfeit.pdn"
	run "$PDNKIT" match --variant international --engine "pdnkit:--depth 2" --engine "dxp:127.0.0.1:$port" --clock 60 \
		--games 2 -c 1 -o "$T_TMP/dxp-forfeit.pdn" --resume
	expect_rc 0 "a match with a time forfeit resumed"
	expect_out_has "B faults: 0 crashed, 1 on time" "the forfeit read back is the DXP engine's (White, the first mover)"
	case $OUT in *"A faults"*) fail "the forfeit is not pdnkit's: $OUT" ;; *) pass ;; esac
	# garbage, then a silent close, from a hostile initiator
	if command -v bash >/dev/null 2>&1; then
		bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; printf 'garbage\\001\\377\\000' >&3; sleep 0.2" 2>/dev/null
		bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; exec 3>&-" 2>/dev/null
		sleep 0.3
		grep -q "no DXP message" "$T_TMP/dxp.log" && pass || fail "garbage from an initiator is named"
		run "$PDNKIT" engines check "dxp:127.0.0.1:$port"
		expect_rc 0 "the follower still serves after a hostile initiator"
	fi
	kill "$DXP_PID" 2>/dev/null
	wait "$DXP_PID" 2>/dev/null
fi
# A DXP engine that takes far longer than asked: engines check says so in seconds (ten
# times the time asked and 5 s), not after the whole clock of the game it asked for.
"$PDNKIT" engine --dxp 127.0.0.1:0 --movetime 60 --no-book 2>"$T_TMP/dxps.log" &
DXPS_PID=$!
port=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
	port=$(sed -n 's/.*DXP (International draughts) on 127.0.0.1:\([0-9]*\)$/\1/p' "$T_TMP/dxps.log" 2>/dev/null)
	[ -n "$port" ] && break
	sleep 0.3
done
if [ -n "$port" ]; then
	t0=$(date +%s)
	run "$PDNKIT" engines check "dxp:127.0.0.1:$port" -t 0.1
	t1=$(date +%s)
	expect_rc 3 "a slow DXP engine fails the check"
	expect_out_has "gave no move within 7.00 s" "the wait is said"
	[ $((t1 - t0)) -le 20 ] && pass || fail "a slow DXP engine is said within seconds: $((t1 - t0)) s"
else
	fail "pdnkit engine --dxp (slow) says its port"
fi
kill "$DXPS_PID" 2>/dev/null
wait "$DXPS_PID" 2>/dev/null
run "$PDNKIT" match --engine pdnkit --engine "dxp:127.0.0.1:9" --clock 60
expect_rc 2 "DXP without --variant international"
expect_err_has "add --variant international" "says so"
run "$PDNKIT" match --variant international --engine pdnkit --engine "dxp:127.0.0.1:9" --time 1
expect_rc 2 "DXP with a time a move"
expect_err_has "whole minutes" "says a DXP engine plays on a clock"
run "$PDNKIT" match --variant international --engine pdnkit --engine "dxp:127.0.0.1:9" --clock 90
expect_rc 2 "DXP with a clock of no whole minutes"
run "$PDNKIT" engine --dxp 127.0.0.1:99999
expect_rc 2 "a port out of range"
run "$PDNKIT" engine --dxp 127.0.0.1:0 --pdn-moves
expect_rc 2 "--dxp with a Hub option"
expect_err_has "only --hash, --threads, --egdb, --no-book," "the options that go with it named"

done_testing
