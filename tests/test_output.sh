# Output that must always be valid, whatever the tags hold: invalid UTF-8 (surrogates,
# code points above U+10FFFF) never reaches JSON, the store or HTML; control characters
# never reach a terminal's table or an SVG; bidirectional overrides are closed.
. "$TESTS_DIR/lib.sh"

# no_bytes FILE LABEL: the file holds no surrogate, no code point above U+10FFFF, no ESC
no_bad_bytes() {
	if LC_ALL=C grep -q "$(printf '\355[\240-\277]')" "$1" || LC_ALL=C grep -q "$(printf '\364[\220-\277]')" "$1" ||
		LC_ALL=C grep -q "$(printf '\033')" "$1"; then
		fail "$2: invalid UTF-8 or ESC in the output"
	else
		pass
	fi
}

printf '[Event "surrogate \355\240\200 here \303\251 \033[2Jclear"]\n[Black "above \364\220\200\200 max \303\251"]\n[White "evil \342\200\256reversed"]\n[Date "1950.01.01"]\n1. 11-15 23-19 2. 9-14 22-17 1-0\n' >"$T_TMP/bad.pdn"
run "$PDNKIT" validate "$T_TMP/bad.pdn"
expect_out_has "invalid UTF-8 (a surrogate, a code point above U+10FFFF or a cut character) replaced by U+FFFD" "bad UTF-8 said"
echo "$OUT$ERR" >"$T_TMP/v.txt"
no_bad_bytes "$T_TMP/v.txt" "validate's messages"
"$PDNKIT" convert --format json "$T_TMP/bad.pdn" >"$T_TMP/bad.json" 2>/dev/null
no_bad_bytes "$T_TMP/bad.json" "convert --format json"
grep -q 'surrogate \\ufffd\|surrogate �' "$T_TMP/bad.json" && pass || fail "the surrogate replaced: $(cat "$T_TMP/bad.json")"
grep -q '\\u001b\[2Jclear' "$T_TMP/bad.json" && pass || fail "ESC escaped in JSON: $(cat "$T_TMP/bad.json")"
"$PDNKIT" import --db "$T_TMP/bad.db" "$T_TMP/bad.pdn" >/dev/null 2>&1
"$PDNKIT" query --db "$T_TMP/bad.db" >"$T_TMP/q.txt" 2>&1
no_bad_bytes "$T_TMP/q.txt" "query's table"
grep -q "$(printf '\342\200\256')" "$T_TMP/q.txt" && fail "a bidirectional override reaches the terminal" || pass
"$PDNKIT" stats --db "$T_TMP/bad.db" >"$T_TMP/s.txt" 2>&1
no_bad_bytes "$T_TMP/s.txt" "stats' table"
"$PDNKIT" query --db "$T_TMP/bad.db" --format json >"$T_TMP/q.json" 2>&1
no_bad_bytes "$T_TMP/q.json" "query --format json"
"$PDNKIT" export --db "$T_TMP/bad.db" >"$T_TMP/e.pdn" 2>/dev/null
LC_ALL=C grep -q "$(printf '\355[\240-\277]')" "$T_TMP/e.pdn" && fail "export passes a surrogate on" || pass
run "$PDNKIT" egdb probe --egdb none --json "$(printf 'B:W2\355\240\200:B1')"
echo "$OUT" >"$T_TMP/p.json"
no_bad_bytes "$T_TMP/p.json" "egdb probe --json echoing its input"
"$PDNKIT" diagram --fen "B:W21:B1" --caption "$(printf 'cap \033[2J \001 \355\240\200')" -o "$T_TMP/d.svg" 2>/dev/null
no_bad_bytes "$T_TMP/d.svg" "SVG caption"
LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037]')" "$T_TMP/d.svg" && fail "a control character in SVG" || pass
"$PDNKIT" report --depth 2 --egdb none -o "$T_TMP/r.html" "$T_TMP/bad.pdn" >/dev/null 2>&1
no_bad_bytes "$T_TMP/r.html" "the HTML report"
grep -q '<bdi>' "$T_TMP/r.html" && pass || fail "names not isolated in the report"
# the override in White's name is closed after it (U+202C)
grep -q "$(printf '\342\200\256reversed\342\200\254')" "$T_TMP/r.html" && pass || fail "the override is not closed"
# every JSON document a command writes has unique keys (a reader that takes the last of
# two would lose the first): each command's --json read by a strict parser
G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"
"$PDNKIT" import --db "$T_TMP/j.db" "$G37" >/dev/null 2>&1
"$PDNKIT" annotate --db "$T_TMP/j.db" --depth 4 --quiet --egdb none >/dev/null 2>&1
json_ok() {
	if "$BINDIR/jsoncheck" -l <"$T_TMP/j.out" 2>"$T_TMP/j.err"; then pass; else fail "$1: $(cat "$T_TMP/j.err")"; fi
}
for c in "analyze --depth 4 --json" "perft 4 --json" "validate --json $G37" "convert --format json $G37" \
	"solve --json --depth 6 $TESTS_DIR/../corpora/fixtures/shots.pdn" "import --db $T_TMP/j2.db --json $G37"; do
	# shellcheck disable=SC2086
	"$PDNKIT" $c >"$T_TMP/j.out" 2>/dev/null
	json_ok "$c"
done
for c in "query --format json" "stats --json" "players --json" "blunders --json --min-loss 0" "annotate --json --depth 4 --quiet"; do
	# shellcheck disable=SC2086
	"$PDNKIT" $c --db "$T_TMP/j.db" >"$T_TMP/j.out" 2>/dev/null
	json_ok "$c"
done

done_testing
