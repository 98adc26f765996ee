# turns: the deciding move of a decided game read from its moves' [%eval] scores, each
# side's scores taken apart (the one that stays first names the move), the sums per
# player, and the games that are not read (drawn, without scores, another variant, a
# file that cannot be read); JSON Lines.
. "$TESTS_DIR/lib.sh"

# Black (Alpha) wins. Alpha's own scores: 0.10 0.20 0.70 1.20 (they stay at 0.5 from
# ply 5, 3. 9-13); Beta's, from Black's view: 0.00 0.60 0.55 then a loss found for Black
# (#-9: never staying). So the advantage stayed from ply 5, and the deciding move is
# Beta's last before it, 2... 22-17, which Beta scored -0.60 for itself.
cat >"$T_TMP/m.pdn" <<'PDN'
[Event "t"]
[Round "7"]
[Black "Alpha"]
[White "Beta"]
[Result "1-0"]

1. 11-15 {[%eval 0.10] [%depth 12]} 23-19 {[%eval 0.00]} 2. 8-11 {[%eval 0.20]}
22-17 {[%eval 0.60]} 3. 9-13 {[%eval 0.70]} 17-14 {[%eval 0.55]} 4. 10x17
{[%eval 1.20]} 21x14 {[%eval #-9]} 1-0

[Event "t"]
[Round "8"]
[Black "Beta"]
[White "Alpha"]
[Result "0-1"]

1. 11-15 {book} 23-19 {[%eval -0.20]} 2. 8-11 {[%eval -0.70]} 22-17 {[%eval -0.40]}
3. 9-13 {[%eval -0.90]} 17-14 {[%eval -1.10]} 4. 10x17 {[%eval #-5]} 21x14
{[%eval #-4]} 0-1

[Event "t"]
[Black "Alpha"]
[White "Beta"]
[Result "1/2-1/2"]

1. 11-15 {[%eval 0.10]} 23-19 {[%eval 0.00]} 1/2-1/2

[Event "t"]
[Black "Alpha"]
[White "Beta"]
[Result "1-0"]

1. 11-15 23-19 1-0

[Event "t"]
[GameType "20"]
[Result "1-0"]

1. 32-28 {[%eval 0.10]} 19-23 {[%eval 0.20]} 1-0

[Event "t"]
[GameType "47"]
[Result "1-0"]

1. 32-28 {[%eval 0.10]} 19-23 {[%eval 0.20]} 1-0

[Event "t"]
[GameType "20"]
[White "Gamma"]
[Black "Delta"]
[Result "0-1"]

1. 32-28 {[%eval 0.10]} 19-23 {[%eval -0.20]} 2. 28x19 {[%eval -0.30]} 14x23
{[%eval -0.70]} 3. 37-32 {[%eval -0.80]} 10-14 {[%eval -0.90]} 0-1
PDN

run "$PDNKIT" turns "$T_TMP/m.pdn"
expect_rc 0 "turns of a record"
echo "$OUT" | grep -q '^1 .* 7 .*1-0 .*Beta .*White .*2\.\.\. 22-17 .*-0\.60 .*+0\.70 .*3\. .*-$' && pass ||
	fail "game 1's deciding move, scores and seen columns: [$OUT]"
# Game 2: White (Alpha) wins; Beta (Black) scores itself -0.70 after 2. 8-11 and stays
# below from there (its scores are the first to stay: ply 3), so the move before, its
# book move 1. 11-15 (no score of its own), decided; Alpha's scores stay at 0.5 only
# from ply 6 (3... 17-14), 3 plies after Beta's.
echo "$OUT" | grep -q '^2 .* 8 .*0-1 .*Beta .*Black .*1\. 11-15 .* - .*+0\.20 .*3\.\.\. .*2\.$' && pass ||
	fail "game 2: the loser's own scores first: [$OUT]"
expect_out_has "Beta: lost 2, a deciding move found in 2; its own score there -0.60 on average" "Beta's sums (the unscored book move left out of the mean)"
expect_out_has "its scores stayed with the winner 3.0 plies before its opponent's on average (1 game)" "the lag where both sides' scores stayed"
# International draughts (White moves first, its scores the first mover's, "0-1" Black's
# win): Delta's (Black's) scores stay from 2... 14x23, Gamma's from 3. 37-32; so
# Gamma's 2. 28x19, which it scored -0.30 for itself, decided. Game 5 (International
# too) is decided without a deciding move; GameType 47 is no variant pdnkit knows.
echo "$OUT" | grep -q '^7 .*0-1 .*Gamma .*White .*2\. 28x19 .*-0\.30 .*+0\.70 .*2\.\.\. .*3\.$' && pass ||
	fail "an International game's deciding move, in its notation and numbering: [$OUT]"
expect_out_has "Gamma: lost 1, a deciding move found in 1; its own score there -0.30 on average" "Gamma's sums"
expect_out_has "7 games: 4 decided with scores (1 without a deciding move" "the counts"
expect_out_has "1 decided without scores, 1 not decided, 1 of other variants (not read)" "the games not read, each said"

# A higher threshold: game 1's winner stays at a man only from ply 7, so 3... 17-14.
run "$PDNKIT" turns --threshold 100 --json "$T_TMP/m.pdn"
expect_rc 0 "turns --json"
echo "$OUT" | head -1 | grep -q '"round":"7".*"ply":6,"move_number":3,"move":"17-14","loser_score":"-0.55","winner_score":"+1.20","winner_saw":7,"loser_saw":null' &&
	pass || fail "game 1 at a man: [$(echo "$OUT" | head -1)]"
echo "$OUT" | grep -q '^{"player":"Alpha","won":2,"lost":0,"turned":0}$' && pass || fail "Alpha's sums in JSON: [$OUT]"
expect_out_has '{"games":7,"decided":4,"no_turn":2,"not_decided":1,"without_scores":1,"other_variants":1,"threshold":100,"min_depth":4}' "the JSON counts"

# A threshold no score reaches: no deciding move, said.
run "$PDNKIT" turns --threshold 10000 "$T_TMP/m.pdn"
echo "$OUT" | grep -q '^1 .*Beta .*White .*none' && pass || fail "game 1 without a deciding move at 100 men: [$OUT]"

# A shallow score (a forced move answered with a 2-ply search) is passed over: Alpha's
# scores stay from ply 3, so 1... 23-19 decided; read (--min-depth 0), its 0.20 at ply 5
# breaks the stay, which then begins at ply 7, and 3... 17-14 decided.
cat >"$T_TMP/d.pdn" <<'PDN'
[Black "Alpha"]
[White "Beta"]
[Result "1-0"]

1. 11-15 {[%eval 0.10] [%depth 20]} 23-19 {book} 2. 8-11 {[%eval 0.70] [%depth 20]}
22-17 3. 9-13 {[%eval 0.20] [%depth 2]} 17-14 4. 10x17 {[%eval 1.20] [%depth 21]} 1-0
PDN
run "$PDNKIT" turns "$T_TMP/d.pdn"
echo "$OUT" | grep -q 'Beta .*White .*1\.\.\. 23-19 ' && pass || fail "a shallow score not passed over: [$OUT]"
run "$PDNKIT" turns --min-depth 0 "$T_TMP/d.pdn"
echo "$OUT" | grep -q 'Beta .*White .*3\.\.\. 17-14 ' && pass || fail "--min-depth 0 does not read the shallow score: [$OUT]"

# Usage and input errors.
run "$PDNKIT" turns
expect_rc 2 "no file"
expect_err_has "give the PDN files to read" "the missing files are said"
run "$PDNKIT" turns --threshold 0 "$T_TMP/m.pdn"
expect_rc 2 "a threshold out of range"
run "$PDNKIT" turns "$T_TMP/none.pdn" "$T_TMP/m.pdn"
expect_rc 3 "a file that cannot be read"
expect_out_has "7 games: 4 decided" "the other file still read"
printf '[Event "x"]\n[Result "1-0"]\n\n1. 11-15 {[%%eval] [%%eval 1e9] [%%eval #}} 23-19 {[%%eval -]} 2. 8-11 {[%%eval 99999999999999]} 1-0\n' >"$T_TMP/bad.pdn"
run "$PDNKIT" turns "$T_TMP/bad.pdn"
expect_rc 0 "scores that do not read"
expect_out_has "1 game: 1 decided with scores" "a score too large taken as a win, the others passed over"

done_testing
