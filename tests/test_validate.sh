# pdnkit validate: exact findings on the project's fixtures, exit codes, inputs (stdin,
# zstd), hostile files, and the real collections in ../shared/corpora.
. "$TESTS_DIR/lib.sh"

# Human output, exactly.
run "$PDNKIT" validate corpora/fixtures/diagnostics.pdn
expect_rc 1 "a file with errors exits 1"
[ "$OUT" = "$(cat "$TESTS_DIR/expected/diagnostics.txt")" ] && pass || fail "diagnostics output differs: $(echo "$OUT" | diff - "$TESTS_DIR/expected/diagnostics.txt")"
expect_err_has "pdnkit validate: 8 games read: 5 valid, 3 with errors, 4 with warnings, 1 of other variants replayed under their rules;" "summary"
run "$PDNKIT" validate --quiet corpora/fixtures/diagnostics.pdn
[ "$(echo "$OUT" | grep -c ': error: ')" -eq 3 ] && [ "$(echo "$OUT" | grep -vc ': error: ')" -eq 0 ] && pass || fail "--quiet prints errors only: [$OUT]"
run "$PDNKIT" validate --max-errors 1 corpora/fixtures/diagnostics.pdn
[ "$(echo "$OUT" | grep -c ': error: ')" -eq 1 ] && pass || fail "--max-errors 1 stops after one error"
expect_err_has "stopped after 1 errors" "--max-errors says it stopped"

# The 1981 game 37 is valid.
run "$PDNKIT" validate corpora/tinsley-long-1981-game37.pdn
expect_rc 0 "game 37 valid"
expect_out "" "game 37 has no findings"
expect_err_has "1 game read: 1 valid, 0 with errors, 0 with warnings" "game 37 summary"

# JSON Lines: one object per game, with the fields scripts rely on.
run "$PDNKIT" validate --json corpora/fixtures/diagnostics.pdn
[ "$(echo "$OUT" | wc -l)" -eq 8 ] && pass || fail "one JSON line per game"
line1=$(echo "$OUT" | head -1)
expect_json='{"file":"corpora/fixtures/diagnostics.pdn","game":1,"line":1,"offset":0,"event":"squares reversed","date":null,"black":"A","white":"B","result":"*","variant":21,"replayed":true,"plies":2,"ok":false,"findings":[{"severity":"error","kind":"illegal-move","line":5,"col":19,"ply":3,"move":"13-9","message":"13-9 is not legal here (square 13 is empty); did you mean 9-13 (squares reversed)?","repeats":0,"suggest":["9-13"],"reasons":["squares reversed"]}]}'
[ "$line1" = "$expect_json" ] && pass || fail "JSON of game 1: $line1"
echo "$OUT" | sed -n 4p | grep -q '"ok":true,"findings":\[{"severity":"warning","kind":"ambiguous-move","line":27,"col":4,"ply":1,"move":"2x18"' && pass || fail "JSON of game 4"
echo "$OUT" | sed -n 8p | grep -q '"variant":20,"replayed":true,"plies":2,"ok":true' && pass || fail "JSON of the International game"

# Standard input and zstd-compressed input.
run sh -c "cat corpora/fixtures/diagnostics.pdn | '$PDNKIT' validate -"
expect_rc 1 "stdin"
expect_out_has "-:5:19: error: game 1 (squares reversed)" "stdin is named '-'"
"$PDNKIT" convert -o "$T_TMP/d.pdn.zst" corpora/fixtures/diagnostics.pdn 2>/dev/null
[ "$(head -c 4 "$T_TMP/d.pdn.zst" | od -An -tx1 | tr -d ' ')" = "28b52ffd" ] && pass || fail "convert -o .zst writes zstd"
run "$PDNKIT" validate "$T_TMP/d.pdn.zst"
expect_err_has "8 games read: 5 valid, 3 with errors" "validate reads zstd"

# A file that cannot be read: exit 3, the other files are still checked.
run "$PDNKIT" validate "$T_TMP/missing.pdn" corpora/tinsley-long-1981-game37.pdn
expect_rc 3 "unreadable file"
expect_err_has "pdnkit validate: cannot open '$T_TMP/missing.pdn': No such file or directory" "unreadable file is named"
expect_err_has "1 game read: 1 valid" "the other file is still checked"
run "$PDNKIT" validate
expect_rc 2 "no file"
run "$PDNKIT" validate --max-errors 0 x.pdn
expect_rc 2 "bad --max-errors"

# Hostile input: findings and a summary, never a crash.
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%c", int(rand() * 256) }' > "$T_TMP/junk.bin"
run "$PDNKIT" validate "$T_TMP/junk.bin"
[ "$RC" -le 1 ] && pass || fail "binary junk: exit $RC"
expect_err_has "games read:" "binary junk: summary"
printf '[' > "$T_TMP/bracket.pdn"
run "$PDNKIT" validate "$T_TMP/bracket.pdn"
expect_rc 0 "a file of only ["
expect_out_has "bracket.pdn:1:1: warning: game 1: '[' not followed by a tag name; line skipped" "a file of only ["
printf '[Event "x"]\n1. 9-14 {unterminated' > "$T_TMP/trunc.pdn"
run "$PDNKIT" validate "$T_TMP/trunc.pdn"
expect_rc 1 "truncated comment"
expect_out_has "trunc.pdn:2:9: error: game 1 (x): comment opened here is never closed" "truncated comment located"
printf '1. 9-14\0\0\0 23-18 *\n[Event "next"]\n1. 10-14 *\n' > "$T_TMP/nul.pdn"
run "$PDNKIT" validate "$T_TMP/nul.pdn"
expect_out_has "NUL bytes in the input (3 here)" "NUL bytes reported"
expect_err_has "2 games read" "the game after the NULs is read"

# Other variants: the error names the variant, the move by the variant's numbering and
# the side, and the legal moves; a Russian man crowned in a capture goes on as a king.
run "$PDNKIT" validate corpora/fixtures/variants.pdn
expect_rc 1 "a variant game with an error"
expect_out_has "variants.pdn:3:40: error: game 1 (International, an illegal capture), move 3 (Black): 23x34: not legal here under the rules of International draughts (Black to move; square 34 is occupied by a White man; legal: 9-14," "the variant's error, and why"
expect_out_has "did you mean 23-28 (the only legal move of that piece)?" "what was probably meant"
expect_err_has "2 games read: 1 valid, 1 with errors, 0 with warnings, 2 of other variants replayed" "both replayed"

if have_corpora "validating the real collections"; then
	# Other variants, replayed under their rules: every game of the World Championship
	# 2003 (International), the USSR championship (Russian, alphanumeric, no GameType)
	# and the succeed/ half of the PDN test corpus.
	run "$PDNKIT" validate -q "$CORPORA/wk2003.pdn"
	expect_err_has "23 games read: 23 valid, 0 with errors, 0 with warnings, 23 of other variants replayed" "wk2003.pdn"
	run "$PDNKIT" validate --all "$CORPORA/ussr1947.pdn"
	expect_err_has "153 games read: 153 valid, 0 with errors, 0 with warnings, 153 of other variants replayed" "ussr1947.pdn"
	[ "$(echo "$OUT" | grep -c 'replayed as Russian draughts')" -eq 153 ] && pass || fail "ussr1947.pdn is not all taken for Russian"
	# without --all, a kind of note or warning shows its first three games, then a count
	run "$PDNKIT" validate "$CORPORA/ussr1947.pdn"
	[ "$(echo "$OUT" | grep -c 'replayed as Russian draughts')" -eq 3 ] && pass || fail "the note shown in more than three games"
	expect_out_has "warnings and notes by kind" "the count by kind"
	echo "$OUT" | grep -Eq '^  note +[a-z-]+ +153 in 153 games$' && pass || fail "153 notes in 153 games counted: $OUT"
	if [ -f "$CORPORA/tinsley.pdn" ]; then
		run "$PDNKIT" validate "$CORPORA/tinsley.pdn"
		[ "$(echo "$OUT" | wc -l)" -lt 40 ] && pass || fail "validate tinsley.pdn prints $(echo "$OUT" | wc -l) lines"
		expect_out_has "error: game 541" "its error shown"
	fi
	run "$PDNKIT" validate -q "$CORPORA"/wiegerw-pdn-games/succeed/*
	expect_err_has ", 0 with errors," "wiegerw succeed/: no errors"
	expect_err_has "714 of other variants replayed under their rules" "wiegerw succeed/: the variant games"
	# OCA 2.0: every game valid, no findings at all.
	run "$PDNKIT" validate "$CORPORA/OCA_2.0.pdn"
	expect_rc 0 "OCA 2.0"
	expect_out "" "OCA 2.0 has no findings"
	expect_err_has "22621 games read: 22621 valid, 0 with errors, 0 with warnings;" "OCA 2.0 summary"

	# Tinsley's games: one wrong move (game 541), and these warnings exactly.
	run "$PDNKIT" validate "$CORPORA/tinsley.pdn"
	expect_rc 1 "tinsley.pdn"
	expect_err_has "724 games read: 723 valid, 1 with errors, 719 with warnings;" "tinsley summary"
	[ "$(echo "$OUT" | grep ': error: ')" = "$CORPORA/tinsley.pdn:5588:5: error: game 541 (Petal 1981, game 18), move 62 (Black): 32-28 is not legal here (square 32 is empty); did you mean 28-32 (squares reversed)?" ] && pass || fail "tinsley error line"
	run "$PDNKIT" validate --json "$CORPORA/tinsley.pdn"
	kinds=$(echo "$OUT" | grep -o '"kind":"[a-z-]*"' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
	[ "$kinds" = ' 2 "kind":"glued-text"; 1 "kind":"illegal-move"; 386 "kind":"move-number"; 714 "kind":"x-on-plain-move";' ] && pass || fail "tinsley finding kinds: $kinds"

	# The PDN 3.0 reader corpus: succeed/ without errors, fail/ each with a finding.
	for f in "$CORPORA"/wiegerw-pdn-games/succeed/*.pdn; do
		run "$PDNKIT" validate "$f"
		[ "$RC" -eq 0 ] && pass || fail "succeed/$(basename "$f"): exit $RC: $(echo "$OUT" | grep ': error: ' | head -1)"
	done
	for f in "$CORPORA"/wiegerw-pdn-games/fail/*.pdn; do
		run "$PDNKIT" validate "$f"
		[ -n "$OUT" ] && [ "$RC" -le 1 ] && pass || fail "fail/$(basename "$f"): no finding (exit $RC)"
	done
	# A truncated real file: the complete games are read, the cut one is reported.
	head -c 100000 "$CORPORA/OCA_2.0.pdn" > "$T_TMP/cut.pdn"
	run "$PDNKIT" validate "$T_TMP/cut.pdn"
	expect_err_has "games read:" "truncated OCA"
fi
# A result token in the middle of a game's moves ("1-1", "0-0", "2-0" followed by more
# moves of the same game) is a finding on that game, not its end: the file still has
# five games, numbered as written, and game 5 (after "1-0" and a new "1.") is apart.
M=corpora/fixtures/result-in-moves.pdn
run "$PDNKIT" validate "$M"
expect_rc 1 "mistyped results are findings"
expect_err_has "5 games read: 2 valid, 3 with errors" "five games, not eight"
expect_out_has "result-in-moves.pdn:9:33: warning: game 1 (one): '1-1' reads as a result, but the game's moves go on after it: taken as a move" "1-1 in game 1"
expect_out_has "result-in-moves.pdn:9:33: error: game 1 (one), move 3 (Black): 1-1 is not legal here" "1-1 is an illegal move of game 1"
expect_out_has "game 2 (two), move 2 (Black): 0-0 is not legal here" "0-0 in game 2"
expect_out_has "game 3 (three): '2-0' reads as a result" "2-0 at a line end in game 3"
run "$PDNKIT" validate --json "$M"
[ "$(echo "$OUT" | sed -n 's/.*"game":\([0-9]*\),.*"event":"\([a-z]*\)".*/\1 \2/p' | tr '\n' ' ')" = "1 one 2 two 3 three 4 four " ] && pass || fail "games keep their numbers and events"
[ "$(echo "$OUT" | sed -n 5p | grep -c '"game":5,"line":24')" = 1 ] && pass || fail "a result then '1.' starts a new game"

# Junk without PDN: said once per megabyte and skipped, and the rest of the file is read.
{ head -c 1500000 /dev/zero; printf '\n'; cat corpora/fixtures/shots.pdn; } > "$T_TMP/zeros.pdn"
run "$PDNKIT" validate "$T_TMP/zeros.pdn"
expect_out_has "zeros.pdn:1:1: error: game 1: no tag, comment, move number or move in the first 1 MiB from here: not PDN" "a megabyte of NULs is not PDN"
expect_err_has "4 games read" "the games after the junk are read"

# A zstd file cut short (a copy broken off mid-transfer): an error naming the truncation,
# never a quiet success with the last games missing.
"$PDNKIT" convert -o "$T_TMP/d.pdn.zst" corpora/fixtures/diagnostics.pdn 2>/dev/null
size=$(wc -c <"$T_TMP/d.pdn.zst")
head -c $((size - 8)) "$T_TMP/d.pdn.zst" >"$T_TMP/cut.pdn.zst"
run "$PDNKIT" validate "$T_TMP/cut.pdn.zst"
expect_rc 3 "a truncated zstd file"
expect_err_has "truncated zstd data: the file ends inside a frame" "the truncation is named"

# GameType's full form: read, checked against the variant of its number; a form that
# cannot be read or says another board or first mover is a warning, the game is still
# replayed under its type's rules.
cat > "$T_TMP/gt.pdn" <<'EOF'
[Event "a"]
[GameType "20,W,10,10,N2,0"]
1. 32-28 19-23 *

[Event "b"]
[GameType "25,B,10,10,A1,0"]
1. c3-d4 f6-g5 *

[Event "c"]
[GameType "20,W,10"]
1. 32-28 19-23 *

[Event "d"]
[GameType "21,B,8,8,N1,0"]
1. 11-15 23-19 *
EOF
run "$PDNKIT" validate "$T_TMP/gt.pdn"
expect_rc 0 "GameType full forms"
expect_err_has "4 games read: 4 valid, 0 with errors, 2 with warnings, 3 of other variants replayed" "all replayed; two warned"
expect_out_has 'gt.pdn:6:1: warning: game 2 (b): GameType "25,B,10,10,A1,0" says Black moves first on a 10x10 board, but Russian draughts has White move first on 8x8' "a contradicting form named"
expect_out_has 'GameType "20,W,10": its full form is six fields' "a short form named"
[ "$(echo "$OUT" | grep -c 'game 1 \|game 4 ')" -eq 0 ] && pass || fail "consistent forms pass quietly: $OUT"

# An unclosed comment ends at the next game's tag pairs after a blank line, with a
# warning where it opened: the games after it are read, not swallowed.
printf '[Event "a"]\n1. 11-15 {oops unterminated 23-19 *\n\n[Event "b"]\n1. 9-14 *\n\n[Event "c"]\n1. 10-14 {fine} 22-17 *\n\n[Event "d"]\n1. 12-16 {closes} *\n' >"$T_TMP/unclosed.pdn"
run "$PDNKIT" validate "$T_TMP/unclosed.pdn"
expect_err_has "4 games read" "the games after an unclosed comment are read"
expect_out_has "unclosed.pdn:2:10: warning: game 1 (a): comment opened here is not closed before the tag pairs of line 4: it ends there" "where the comment opened"
run "$PDNKIT" convert --format json "$T_TMP/unclosed.pdn"
echo "$OUT" | grep -q '"Event":"c"},.*"moves":\["10-14","22-17"\]' && pass || fail "game c intact: $OUT"
printf '1. 11-15 {a comment\n\nwith a blank line and [brackets] in it} 23-19 *\n' >"$T_TMP/blank-in-comment.pdn"
run "$PDNKIT" validate "$T_TMP/blank-in-comment.pdn"
expect_err_has "1 game read: 1 valid, 0 with errors, 0 with warnings" "a blank line inside a closed comment is no game's end"
done_testing
