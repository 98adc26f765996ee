# pdnkit convert: canonical output, idempotence, same moves after conversion, --fix,
# --full-jumps, JSON and zstd.
. "$TESTS_DIR/lib.sh"

run "$PDNKIT" convert corpora/tinsley-long-1981-game37.pdn
expect_rc 0 "convert game 37"
[ "$OUT" = "$(cat "$TESTS_DIR/expected/game37.pdn")" ] && pass || fail "canonical game 37 differs: $(echo "$OUT" | diff - "$TESTS_DIR/expected/game37.pdn")"
expect_err_has "pdnkit convert: 1 game written, 0 with errors" "convert summary"

run "$PDNKIT" convert --full-jumps corpora/tinsley-long-1981-game37.pdn
expect_out_has "10. 20x27 32x23x14x5" "--full-jumps writes whole paths"

# Jumps written as hops come out as one move; prose glued to a move stays as a comment.
printf '[FEN "B:W14,23,30:B9"]\n1. 9x18 18x27 30-26 27-32Wellplayed 1-0\n' > "$T_TMP/hops.pdn"
run "$PDNKIT" convert "$T_TMP/hops.pdn"
expect_out_has '1. 9x27 30-26 2. 27-32 {Wellplayed} 1-0' "hops joined, glued text kept"

# Idempotent, and the same moves, on the fixtures.
for f in corpora/fixtures/diagnostics.pdn corpora/tinsley-long-1981-game37.pdn; do
	"$PDNKIT" convert "$f" > "$T_TMP/c1.pdn" 2>/dev/null
	"$PDNKIT" convert "$T_TMP/c1.pdn" > "$T_TMP/c2.pdn" 2>/dev/null
	cmp -s "$T_TMP/c1.pdn" "$T_TMP/c2.pdn" && pass || fail "convert is not idempotent on $f"
done

# --fix repairs a move with exactly one suggestion and says so in a comment.
run "$PDNKIT" convert --fix corpora/fixtures/diagnostics.pdn
expect_out_has "2. 9-13 {pdnkit: '13-9' corrected to '9-13' (squares reversed)} *" "--fix squares reversed"
expect_out_has "{pdnkit: '11-51' corrected to '11-15' (two digits swapped)}" "--fix digits swapped"
expect_out_has "1. 11-15 22-18 2. 15x22
{pdnkit: '9-13' corrected to '15x22' (a compulsory capture)} *" "--fix compulsory capture"
expect_err_has "8 games written, 3 moves fixed, 0 with errors" "--fix count"
expect_err_has "diagnostics.pdn:5:19: fixed: game 1 (squares reversed): '13-9' -> '9-13' (squares reversed)" "each fix said: where, what it was, what it became"
[ "$(echo "$ERR" | grep -c ': fixed: ')" = 3 ] && pass || fail "three fixes said: $ERR"

# The same for another variant's game (one replay for every variant).
printf '[GameType "20"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x91 14x23 2-0\n' > "$T_TMP/vfix.pdn"
run "$PDNKIT" convert --fix "$T_TMP/vfix.pdn"
expect_out_has "2. 28x19
{pdnkit: '28x91' corrected to '28x19' (two digits swapped)} 2... 14x23" "--fix an International move"
expect_err_has "vfix.pdn:3:19: fixed: game 1: '28x91' -> '28x19' (two digits swapped)" "--fix said for the variant"

# JSON form.
run "$PDNKIT" convert --format json corpora/tinsley-long-1981-game37.pdn
expect_out_has '"replayed":true,"complete":true,"result":"1-0","moves":["9-14","23-18","14x23"' "JSON moves"
expect_out_has '"ordinals":[1,' "JSON ordinals"
run "$PDNKIT" convert --format xml x.pdn
expect_rc 2 "bad --format"
expect_err_has "--format must be pdn or json, not 'xml'" "bad --format named"

# zstd output reads back to the same text.
"$PDNKIT" convert -o "$T_TMP/g.pdn.zst" corpora/tinsley-long-1981-game37.pdn 2>/dev/null
"$PDNKIT" convert "$T_TMP/g.pdn.zst" > "$T_TMP/g2.pdn" 2>/dev/null
cmp -s "$T_TMP/g2.pdn" "$TESTS_DIR/expected/game37.pdn" && pass || fail "zstd round trip"
run "$PDNKIT" convert -o /nonexistent/dir/x.pdn corpora/tinsley-long-1981-game37.pdn
expect_rc 3 "unwritable output"
expect_err_has "cannot create '/nonexistent/dir/x.pdn'" "unwritable output named"

if have_corpora "the OCA 2.0 round trip"; then
	for f in OCA_2.0.pdn tinsley.pdn 11_man_english.pdn; do
		"$PDNKIT" convert "$CORPORA/$f" > "$T_TMP/c1.pdn" 2>/dev/null
		"$PDNKIT" convert "$T_TMP/c1.pdn" > "$T_TMP/c2.pdn" 2>/dev/null
		cmp -s "$T_TMP/c1.pdn" "$T_TMP/c2.pdn" && pass || fail "convert is not idempotent on $f"
		"$PDNKIT" convert --format json "$CORPORA/$f" 2>/dev/null | sed 's/"file":"[^"]*",//; s/"tags":{[^}]*},//' > "$T_TMP/j1"
		"$PDNKIT" convert --format json "$T_TMP/c1.pdn" 2>/dev/null | sed 's/"file":"[^"]*",//; s/"tags":{[^}]*},//' > "$T_TMP/j2"
		cmp -s "$T_TMP/j1" "$T_TMP/j2" && pass || fail "converted $f does not replay to the same moves"
	done
	run "$PDNKIT" convert --fix "$CORPORA/tinsley.pdn"
	expect_err_has "724 games written, 1 move fixed, 0 with errors" "--fix on tinsley.pdn"
	echo "$OUT" > "$T_TMP/fixed.pdn"
	run "$PDNKIT" validate "$T_TMP/fixed.pdn"
	expect_err_has "724 games read: 724 valid, 0 with errors, 0 with warnings" "fixed tinsley.pdn validates clean"
fi
# Other writers' conventions: English moves numbered from White's side ("1... 11-15 2.
# 23-19"), dots apart from their number ("1. ... 11-15"), International scores in the
# variants (2-0, 1-1, 0-2); and --plain for simple readers.
cat >"$T_TMP/conventions.pdn" <<'EOF2'
[Event "from White"]
[Result "1-0"]
1... 11-15 2. 23-19 8-11 3. 22-17 9-13 1-0

[Event "dots apart"]
1. ... 11-15 2. 23-19 *

[GameType "20"]
[Result "2-0"]
1. 32-28 19-23 2. 28x19 14x23 2-0

[GameType "25"]
[Result "0-2"]
1. c3-d4 f6-g5 0-2

[GameType "26"]
[Result "1-1"]
1. c3-d4 f6-g5 1-1
EOF2
run "$PDNKIT" validate "$T_TMP/conventions.pdn"
expect_err_has "5 games read: 5 valid, 0 with errors, 0 with warnings" "other writers' conventions read without a warning"
expect_out_has "conventions.pdn:3:1: note: game 1 (from White), move 1 (Black): moves numbered from White's side" "numbering from White noted"
run "$PDNKIT" convert --format json "$T_TMP/conventions.pdn"
[ "$(echo "$OUT" | grep -o '"result":"[^"]*"' | tr '\n' ' ')" = '"result":"1-0" "result":"*" "result":"1-0" "result":"0-1" "result":"1/2-1/2" ' ] &&
	pass || fail "results as their writers meant them: $OUT"
echo "$OUT" | head -1 | grep -q '"moves":\["11-15","23-19","8-11","22-17","9-13"\]' && pass || fail "the game numbered from White replays: $OUT"
printf '1... 11-15 2. 23-19 8-11 22-17 *\n' >"$T_TMP/missing.pdn"
run "$PDNKIT" validate "$T_TMP/missing.pdn"
expect_out_has "warning: game 1, move 2 (White): move number 3 missing before 22-17" "numbered from White: a missing number still found"
if have_corpora "convert --plain"; then
	awk 'BEGIN{RS="";ORS="\n\n"} NR<=3' "$CORPORA/tinsley.pdn" >"$T_TMP/t3.pdn"
	"$PDNKIT" annotate --depth 3 --egdb none -q -o "$T_TMP/ann.pdn" "$T_TMP/t3.pdn" >/dev/null 2>&1
	grep -q '\.\.\. ' "$T_TMP/ann.pdn" && grep -q '{' "$T_TMP/ann.pdn" && pass || fail "the annotated file has N... numbers and comments"
	run "$PDNKIT" convert --plain "$T_TMP/ann.pdn"
	expect_rc 0 "convert --plain"
	body=$(echo "$OUT" | grep -v '^\[')
	case $body in *'...'* | *'{'* | *'('* | *'$'*) fail "plain form has N..., comments, variations or NAGs: $body" ;; *) pass ;; esac
	echo "$OUT" >"$T_TMP/plain.pdn"
	a=$("$PDNKIT" convert --format json "$T_TMP/ann.pdn" 2>/dev/null | grep -o '"moves":\[[^]]*\]')
	b=$("$PDNKIT" convert --format json "$T_TMP/plain.pdn" 2>/dev/null | grep -o '"moves":\[[^]]*\]')
	[ -n "$a" ] && [ "$a" = "$b" ] && pass || fail "the plain form replays to the same moves"
	run "$PDNKIT" convert --plain "$CORPORA/ussr1947.pdn"
	echo "$OUT" >"$T_TMP/ru-plain.pdn"
	run "$PDNKIT" validate "$T_TMP/ru-plain.pdn"
	expect_err_has "0 with errors" "a variant's plain form validates"
fi
done_testing
