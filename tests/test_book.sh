# pdnkit book on the command line, and the engine's use of books.
. "$TESTS_DIR/lib.sh"
G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"
DUPS="$TESTS_DIR/../corpora/fixtures/duplicates.pdn"
B="$T_TMP/a.book"

run "$PDNKIT" book build "$G37" "$DUPS" --plies 12 -o "$B" --json
expect_rc 0 "build"
expect_out_has '"moves":' "summary"
run "$PDNKIT" book stats --json "$B"
expect_rc 0 "stats"
for f in positions moves bytes bits_per_move stats_bits_per_move; do
	expect_out_has "\"$f\":" "stats field $f"
done
run "$PDNKIT" book stats --measure --json "$B"
expect_out_has '"probe_us":' "stats --measure times probes"
expect_out_has '"text_zstd_bytes":' "stats --measure compares with zstd text"
# the root: every game's first move, counted
run "$PDNKIT" book probe "$B" --json
expect_out_has '{"fen":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","moves":[{"move":"9-14","games":' "probe the root"
# game 37's line, three plies in
run "$PDNKIT" book probe "$B" --moves "9-14 23-18 14x23" --json
expect_out_has '{"move":"27x18","games":' "probe after moves"
run "$PDNKIT" book probe "$B" --moves "12-16 24-20"
expect_out_has "not in the book" "a position outside the book"
# dump: text, and PDN that validates
run "$PDNKIT" book dump "$B"
expect_out_has "1. 9-14" "text dump"
"$PDNKIT" book dump --format pdn "$B" >"$T_TMP/d.pdn"
run "$PDNKIT" validate "$T_TMP/d.pdn"
expect_rc 0 "the PDN dump validates"

# Damaged and truncated books are refused with the reason.
size=$(wc -c <"$B")
cp "$B" "$T_TMP/bad.book"
printf '\377' | dd of="$T_TMP/bad.book" bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null
run "$PDNKIT" book stats "$T_TMP/bad.book"
expect_rc 3 "damaged book"
expect_err_has "checksum mismatch" "damage named"
head -c $((size - 10)) "$B" >"$T_TMP/short.book"
run "$PDNKIT" book probe "$T_TMP/short.book"
expect_rc 3 "truncated book"
expect_err_has "truncated" "truncation named"
printf 'not a book at all, just text that is long enough to pass the size test...\n' >"$T_TMP/text.book"
run "$PDNKIT" book stats "$T_TMP/text.book"
expect_err_has "not a pdnkit book" "not a book"

# Usage errors.
run "$PDNKIT" book
expect_rc 2 "no subcommand"
run "$PDNKIT" book frobnicate
expect_rc 2 "unknown subcommand"
run "$PDNKIT" book build "$G37"
expect_rc 2 "no -o"
run "$PDNKIT" book build "$G37" --min-score 2 -o "$T_TMP/x.book"
expect_rc 2 "bad --min-score"
run "$PDNKIT" book build "$G37" --side red -o "$T_TMP/x.book"
expect_rc 2 "bad --side"
run "$PDNKIT" book dump --format xml "$B"
expect_rc 2 "bad dump format"

# From the store, with a filter.
"$PDNKIT" import --db "$T_TMP/s.db" "$G37" "$DUPS" >/dev/null 2>&1
run "$PDNKIT" book build --db "$T_TMP/s.db" --player Tinsley --plies 6 -o "$T_TMP/t.book" --json
expect_rc 0 "build from the store"
expect_out_has '"moves":6,' "one game's six plies"

# The engine: analyze and match answer from a book; annotate marks book moves.
run "$PDNKIT" analyze --book "$B" --moves "9-14 23-18"
expect_out_has "book 14x23 " "analyze lists the book moves"
expect_out_has "bestmove 14x23 (book)" "analyze answers from the book"
run "$PDNKIT" annotate "$G37" --depth 3 --book "$B" --json
expect_out_has '{"ply":2,"move":"23-18","side":"white","best":null,"score_best":null,"score_played":null,"loss":null,"class":"book","depth":0}' "annotate marks book moves"
run "$PDNKIT" annotate "$G37" --depth 3 --book none --json
case $OUT in *'"class":"book"'*) fail "--book none still marks book moves" ;; *) pass ;; esac
run "$PDNKIT" match --a "--depth 2 --book $B" --b "--depth 2" --games 2
expect_rc 0 "match with a book"
expect_out_has "book moves played: A " "book moves counted"
run "$PDNKIT" analyze --book "$T_TMP/missing.book"
expect_rc 3 "missing book"

# expand: deterministic at a fixed depth.
"$PDNKIT" book expand --engine-options "--depth 4" --positions 8 --quiet -o "$T_TMP/e1.book" >/dev/null
"$PDNKIT" book expand --engine-options "--depth 4" --positions 8 --quiet -o "$T_TMP/e2.book" >/dev/null
cmp -s "$T_TMP/e1.book" "$T_TMP/e2.book" && pass || fail "expand differs between runs"
run "$PDNKIT" book probe "$T_TMP/e1.book" --json
expect_out_has '"score":' "expanded moves carry engine scores"
run "$PDNKIT" book expand --engine-options "--depth x" -o "$T_TMP/e3.book"
expect_rc 2 "bad engine options"

# A book rooted at a White-to-move position: its dumps number White's move 1... and
# Black's reply 2. (they used to count from the root as if Black moved first).
run "$PDNKIT" book build "$DUPS" --fen "W:W21-32:B1-8,10,11,12,14" --plies 6 -o "$T_TMP/w.book"
expect_rc 0 "book rooted at White to move"
run "$PDNKIT" book dump "$T_TMP/w.book"
expect_out_has "1... 23-18  4 games" "text dump: White's first move is 1..."
expect_out_has "  2. 14x23" "text dump: Black's reply is 2."
"$PDNKIT" book dump --format pdn "$T_TMP/w.book" > "$T_TMP/w.pdn"
run "$PDNKIT" validate "$T_TMP/w.pdn"
expect_rc 0 "PDN dump of a White-rooted book validates"
expect_err_has "1 valid, 0 with errors, 0 with warnings" "no move-number warning"

done_testing
