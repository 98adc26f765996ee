# diagram, report and stats --html from the command line: the report of the 1981
# game 37 is well-formed, names every move, marks exactly the mistakes that annotate
# --json reports and draws a diagram before each; and a real browser (Chromium,
# headless) renders it without console errors, runs its script and paints a page that
# is not blank.
. "$TESTS_DIR/lib.sh"

G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"
XML() { "$BINDIR/test_report" --check-xml "$1" >/dev/null; }

# diagram
run "$PDNKIT" diagram --fen "W:WK10,18,19:B14,K23" --numbers -o "$T_TMP/d.svg"
expect_rc 0 "diagram of a FEN"
XML "$T_TMP/d.svg" && pass || fail "the diagram is not well-formed XML"
[ "$(grep -o '<g class="[a-z ]*" data-square' "$T_TMP/d.svg" | wc -l)" -eq 5 ] && pass || fail "the diagram does not hold the FEN's 5 pieces"
grep -q 'class="white king" data-square="10"' "$T_TMP/d.svg" && grep -q 'class="black king" data-square="23"' "$T_TMP/d.svg" &&
	pass || fail "kings not drawn as kings"
# An English board is numbered: no files a-h or ranks 1-8; with --numbers every square
# shows its number (an empty one in its middle, an occupied one in its corner).
grep -q '>[a-h]</text>' "$T_TMP/d.svg" && fail "file letters on an English board" || pass
[ "$(grep -o '>[0-9]*</text>' "$T_TMP/d.svg" | sort -u | wc -l)" -eq 32 ] && pass || fail "not 32 square numbers with --numbers"
# an SVG board is numbered by default, not with --no-numbers
run "$PDNKIT" diagram --fen "W:WK10,18,19:B14,K23"
[ "$(echo "$OUT" | grep -o '>[0-9]*</text>' | sort -u | wc -l)" -eq 32 ] && pass || fail "an SVG board not numbered by default"
run "$PDNKIT" diagram --fen "W:WK10,18,19:B14,K23" --no-numbers
echo "$OUT" | grep -q '>[0-9]*</text>' && fail "numbers with --no-numbers" || pass
run "$PDNKIT" diagram --fen "W:WK10,18,19:B14,K23" --numbers --no-numbers
expect_rc 2 "--numbers with --no-numbers"
run "$PDNKIT" diagram --moves "11-15" --format text --numbers
echo "$OUT" | grep -q ' a  *b  *c' && fail "files under the text board: $OUT" || pass
expect_out_has "11" "the emptied square 11 numbered"
run "$PDNKIT" diagram --moves "11-15 23-19 8-11 22-17" --format text
expect_rc 0 "text diagram"
expect_out_has "after 2... 22-17; Black to move" "the text diagram says the last move"
run "$PDNKIT" diagram "$G37" --ply 15 --arrow 11-15
expect_rc 0 "diagram of a game's ply"
expect_out_has 'class="arrow plain"' "the arrow of --arrow"
expect_out_has 'class="arrow played"' "the last move played"
run "$PDNKIT" diagram "$G37" --game 2
expect_rc 2 "a game the file does not have"
expect_err_has "has 1 game: no game 2" "the missing game is said"
run "$PDNKIT" diagram --fen "W:W33:B1"
expect_rc 2 "a bad FEN"
run "$PDNKIT" diagram --fen "B:W21:B1" --arrow 1-40
expect_rc 2 "a bad arrow"
expect_err_has "--arrow: '1-40' is neither a legal move here nor squares" "the bad arrow is named"

# diagrams of the other variants: their own boards, numbering and orientation
run "$PDNKIT" diagram --variant international --numbers -o "$T_TMP/i.svg"
expect_rc 0 "International diagram"
XML "$T_TMP/i.svg" && pass || fail "the International diagram is not well-formed XML"
[ "$(grep -o '<g class="[a-z ]*" data-square' "$T_TMP/i.svg" | wc -l)" -eq 40 ] && pass || fail "not 40 pieces on the International start"
[ "$(grep -o '>[0-9]*</text>' "$T_TMP/i.svg" | sort -u | wc -l)" -eq 50 ] && pass || fail "not 50 square numbers on a 10x10 board"
grep -q 'width="484"' "$T_TMP/i.svg" && pass || fail "the 10x10 board is not ten squares wide"
grep -q 'class="black man" data-square="1"' "$T_TMP/i.svg" && grep -q 'class="white man" data-square="50"' "$T_TMP/i.svg" &&
	pass || fail "square 1 not Black's, 50 not White's"
run "$PDNKIT" diagram --variant international --moves "32-28 17-22 28x17" --format text
expect_rc 0 "International text diagram of moves"
expect_out_has "after 2. 28x17; Black to move" "the last move said with its number"
[ "$(echo "$OUT" | grep -c '[·⛀⛁⛂⛃]')" -eq 10 ] && pass || fail "not ten rows: $OUT"
run "$PDNKIT" diagram --variant russian --moves "c3-d4 f6-e5" --arrow d4:f6 -o "$T_TMP/ru.svg"
expect_rc 0 "Russian diagram with an arrow"
grep -q '>a</text>' "$T_TMP/ru.svg" && grep -q '>8</text>' "$T_TMP/ru.svg" && pass || fail "no files and ranks on a Russian board"
grep -q 'class="white man" data-square="d4"' "$T_TMP/ru.svg" && pass || fail "squares not named as Russian notation does"
grep -q 'class="arrow played"' "$T_TMP/ru.svg" && grep -q 'class="arrow plain"' "$T_TMP/ru.svg" && pass || fail "the arrows"
WK="$CORPORA/wk2003.pdn"
if [ -f "$WK" ]; then
	run "$PDNKIT" diagram "$WK" --game 3 --ply 40 --format text
	expect_rc 0 "a ply of an International game from a file"
	expect_out_has "after 20... 14-19; White to move" "its move and number"
	run "$PDNKIT" diagram "$WK" --game 3 --ply 100000
	expect_rc 2 "a ply past the end of an International game"
else
	note "wk2003.pdn not in $CORPORA: International games from a file not drawn"
fi
run "$PDNKIT" diagram --variant international --fen "W:W51:B1"
expect_rc 2 "a square the board does not have: refused"
run "$PDNKIT" diagram --variant international --arrow 1-99
expect_rc 2 "an arrow off the 10x10 board"

# report of game 37, against annotate --json at the same settings. The check of the
# mistakes' diagrams needs a move classed a mistake: at depth 10 the search without the
# enhanced transposition cutoff and the reduction without a table move (etc=0,iir=0)
# classes one, the default search none.
run "$PDNKIT" report "$G37" --depth 10 --features etc=0,iir=0 --book none -o "$T_TMP/r.html"
expect_rc 0 "report of game 37"
expect_err_has "report: 1 games in" "the report's summary"
XML "$T_TMP/r.html" && pass || fail "the report is not well-formed: $("$BINDIR/test_report" --check-xml "$T_TMP/r.html")"
grep -q '<span class="opening">Double Corner</span>' "$T_TMP/r.html" && pass || fail "game 37's opening (9-14) not named in the report"
"$PDNKIT" annotate "$G37" --depth 10 --features etc=0,iir=0 --book none --json 2>/dev/null | head -1 |
	grep -o '"ply":[0-9]*,"move":"[^"]*","side":"[a-z]*","best":[^}]*"class":"[a-z]*"' |
	sed 's/"ply":\([0-9]*\),"move":"\([^"]*\)".*"class":"\([a-z]*\)"/\1 \2 \3/' >"$T_TMP/notes"
[ "$(wc -l <"$T_TMP/notes")" -gt 80 ] && pass || fail "annotate --json gave $(wc -l <"$T_TMP/notes") moves"
missing=0
while read -r ply move cls; do
	grep -q "data-ply=\"$ply\"[^>]*>$move" "$T_TMP/r.html" || { missing=$((missing + 1)); echo "missing ply $ply $move" >&2; }
done <"$T_TMP/notes"
[ $missing -eq 0 ] && pass || fail "$missing moves not named in the report"
awk '$3 == "blunder" || $3 == "mistake" { print $1 }' "$T_TMP/notes" | sort -n >"$T_TMP/want"
grep -o 'class="m \(blunder\|mistake\)" data-ply="[0-9]*"' "$T_TMP/r.html" | sed 's/.*data-ply="\([0-9]*\)"/\1/' | sort -n >"$T_TMP/got"
[ -s "$T_TMP/want" ] && pass || fail "annotate reports no mistake in game 37 (the test needs one)"
cmp -s "$T_TMP/want" "$T_TMP/got" && pass || fail "the report marks plies [$(tr '\n' ' ' <"$T_TMP/got")], annotate [$(tr '\n' ' ' <"$T_TMP/want")]"
[ "$(grep -o '<figure id=' "$T_TMP/r.html" | wc -l)" -eq "$(wc -l <"$T_TMP/want")" ] && pass || fail "not one diagram per mistake"
# each diagram numbered: its first figure holds the 32 square numbers
awk '/<figure id=/ { f++ } f == 1' "$T_TMP/r.html" | awk '/<\/figure>/ { exit } { print }' |
	grep -o '>[0-9]*</text>' | sort -u >"$T_TMP/nums"
[ "$(wc -l <"$T_TMP/nums")" -eq 32 ] && pass || fail "a mistake's diagram without its square numbers ($(wc -l <"$T_TMP/nums"))"
grep -q 'class="graph"' "$T_TMP/r.html" && pass || fail "no evaluation graph"
grep -q '<script>' "$T_TMP/r.html" && pass || fail "no stepper script"
run "$PDNKIT" report "$G37" --depth 10 --features etc=0,iir=0 --book none --no-script -o "$T_TMP/r2.html"
grep -q '<script' "$T_TMP/r2.html" && fail "--no-script still writes a script" || pass
grep -q 'http' "$T_TMP/r2.html" && grep -v 'xmlns="http://www.w3.org/2000/svg"' "$T_TMP/r2.html" | grep -q 'https\?://' &&
	fail "the report refers to something online" || pass

# International games: their boards, the first mover (White) named first, moves numbered
# from White's, one diagram a mistake on a 10x10 board
if [ -f "$WK" ]; then
	awk '/^\[Event/ { n++ } n <= 3' "$WK" >"$T_TMP/wk3.pdn"
	run "$PDNKIT" report "$T_TMP/wk3.pdn" --depth 8 --book none -o "$T_TMP/intl.html"
	expect_rc 0 "report of International games"
	expect_err_has "report: 3 games in" "every International game reported (none left out)"
	XML "$T_TMP/intl.html" && pass || fail "the International report is not well-formed"
	grep -q '<h2><bdi>Ndjofang, J.M.</bdi> – <bdi>Heusdens, R.</bdi>' "$T_TMP/intl.html" && pass ||
		fail "White, who moves first, not named first"
	grep -q 'data-board=.{"rows":10,"cols":10' "$T_TMP/intl.html" && pass || fail "the stepper is not told of a 10x10 board"
	grep -q "men, White's view" "$T_TMP/intl.html" && pass || fail "the graph not from White's view"
	grep -q '<span class="n">1\.</span> <span class="m [a-z]*" data-ply="1">32-28' "$T_TMP/intl.html" && pass ||
		fail "White's first move not numbered 1."
	figs=$(grep -o '<figure id=' "$T_TMP/intl.html" | wc -l)
	marks=$(grep -o 'class="m \(blunder\|mistake\)"' "$T_TMP/intl.html" | wc -l)
	[ "$figs" -eq "$marks" ] && pass || fail "$figs diagrams for $marks mistakes and blunders"
	if [ "$figs" -gt 0 ]; then
		[ "$(grep -c '<svg [^>]*class="board" width="404"' "$T_TMP/intl.html")" -eq "$figs" ] && pass ||
			fail "a mistake's diagram not on a 10x10 board"
	fi
fi

# stats --html, and the report of a stored game (annotated first, then read back)
"$PDNKIT" import --db "$T_TMP/g.db" "$G37" >/dev/null 2>&1
run "$PDNKIT" stats --db "$T_TMP/g.db" --html "$T_TMP/s.html"
expect_rc 0 "stats --html"
XML "$T_TMP/s.html" && pass || fail "the stats page is not well-formed"
grep -q 'Tinsley' "$T_TMP/s.html" && pass || fail "the stats page lacks the players"
run "$PDNKIT" report --db "$T_TMP/g.db" --depth 6 -o "$T_TMP/r3.html"
expect_err_has "(1 annotated now, 0 read back)" "a stored game is annotated first"
run "$PDNKIT" report --db "$T_TMP/g.db" --depth 6 -o "$T_TMP/r3.html"
expect_err_has "(0 annotated now, 1 read back)" "then read back"
run "$PDNKIT" report "$G37"
expect_rc 2 "report without -o"

# a real browser
if command -v chromium >/dev/null 2>&1; then
	B="chromium --headless --no-sandbox --disable-gpu --user-data-dir=$T_TMP/chromium"
	timeout 120 $B --enable-logging=stderr --log-level=0 --window-size=1100,2400 \
		--screenshot="$T_TMP/r.png" "file://$T_TMP/r.html" >/dev/null 2>"$T_TMP/console"
	[ -s "$T_TMP/r.png" ] && pass || fail "chromium wrote no screenshot"
	size=$(wc -c <"$T_TMP/r.png")
	[ "$size" -gt 40000 ] && pass || fail "the screenshot is $size bytes: a blank page?"
	grep -i 'CONSOLE' "$T_TMP/console" | grep -qi 'error\|uncaught' &&
		fail "console errors: $(grep -i 'CONSOLE' "$T_TMP/console" | head -3)" || pass
	timeout 120 $B --dump-dom "file://$T_TMP/r.html" 2>/dev/null >"$T_TMP/dom"
	[ "$(grep -o '<button' "$T_TMP/dom" | wc -l)" -eq 4 ] && pass || fail "the stepper's script did not run (no buttons in the DOM)"
	if [ -s "$T_TMP/intl.html" ]; then
		# the International stepper draws a 10x10 board with the start's 40 pieces
		timeout 120 $B --enable-logging=stderr --log-level=0 --dump-dom "file://$T_TMP/intl.html" 2>"$T_TMP/console3" >"$T_TMP/dom3"
		grep -q "viewBox=\"0 0 300 300\"" "$T_TMP/dom3" && pass || fail "the International stepper's board is not 10x10"
		[ "$(grep -o 'class="pc"' "$T_TMP/dom3" | wc -l)" -ge 40 ] && pass || fail "the International stepper drew $(grep -o 'class="pc"' "$T_TMP/dom3" | wc -l) pieces"
		grep -i 'CONSOLE' "$T_TMP/console3" | grep -qi 'error\|uncaught' &&
			fail "console errors in the International report: $(grep -i 'CONSOLE' "$T_TMP/console3" | head -3)" || pass
	fi
	printf '<html><body><script>foo.bar();</script></body></html>' >"$T_TMP/bad.html"
	timeout 120 $B --enable-logging=stderr --log-level=0 --dump-dom "file://$T_TMP/bad.html" >/dev/null 2>"$T_TMP/console2"
	grep -i 'CONSOLE' "$T_TMP/console2" | grep -qi 'uncaught' && pass || fail "a console error is not seen (the check cannot fail)"
else
	echo "SKIP $T_NAME: the browser checks: chromium not installed (apt-get install chromium)"
fi

grep -q "men, Black's view" "$T_TMP/r.html" && grep -q '>move</text>' "$T_TMP/r.html" && pass || fail "the evaluation graph's axes are not labelled"
done_testing
