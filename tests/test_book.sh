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

# probe names the side whose score it gives, and counts it from that side's results in
# a variant where White moves first: from the start of International draughts, White's
# wins, draws and losses and White's score
if have_corpora "an International book"; then
	run "$PDNKIT" book build --variant international "$CORPORA/wk2003.pdn" -o "$T_TMP/ib.book"
	run "$PDNKIT" book probe "$T_TMP/ib.book"
	expect_out_has "move          games    white    draws    black   White%" "the columns by the side that moves first"
	echo "$OUT" | awk 'NR == 3 { w = $3; d = $4; b = $5; want = sprintf("%.1f%%", 100 * (w + d / 2) / (w + d + b)); exit !($6 == want) }' &&
		pass || fail "White's score from White's results: $OUT"
	run "$PDNKIT" book probe "$T_TMP/ib.book" --moves "32-28"
	expect_out_has "   Black%" "Black's score after White's move"
fi

# expand --variant: a book of International draughts grown by its engine, deterministic,
# its moves the engine's, played by analyze and the match from it
"$PDNKIT" book expand --variant international --engine-options "--depth 4" --positions 6 --quiet -o "$T_TMP/i1.book" >/dev/null
"$PDNKIT" book expand --variant international --engine-options "--depth 4" --positions 6 --quiet -o "$T_TMP/i2.book" >/dev/null
cmp -s "$T_TMP/i1.book" "$T_TMP/i2.book" && pass || fail "expand --variant differs between runs"
run "$PDNKIT" book probe "$T_TMP/i1.book" --json
expect_out_has '"score":' "International book moves carry engine scores"
run "$PDNKIT" book dump "$T_TMP/i1.book"
expect_out_has "1... " "the dump has the replies"
run "$PDNKIT" analyze --variant international --book "$T_TMP/i1.book" --depth 4 --json
expect_out_has '"book":true' "analyze answers from the International book"
# the book's move goes through the engine's book features as in English draughts:
# book-min leaves out moves of too few games (a grown book's moves have none: always
# left out at book-min=1), book-check searches the book move beside the others
run "$PDNKIT" analyze --variant international --book "$T_TMP/i1.book" --depth 4 --features book-min=1 --json
expect_rc 0 "analyze --variant with book-min"
case $OUT in *'"book":true'*) fail "book-min=1 took a move of no games from the International book" ;; *) pass ;; esac
printf '[GameType "20"]\n[Result "*"]\n\n*\n' > "$T_TMP/io.pdn"
run "$PDNKIT" match --variant international --a "--depth 3 --book $T_TMP/i1.book --features book-check=30" --b "--depth 3 --book $T_TMP/i1.book" --openings "$T_TMP/io.pdn" -o "$T_TMP/im.pdn" --games 1
expect_rc 0 "International match, one side's book moves checked by search"
case $OUT in *"book moves played: A 0, B 0"*|*"book moves played: A 0,"*) fail "no book move kept with book-check: $OUT" ;; *"book moves played: A "*) pass ;; *) fail "no book count: $OUT" ;; esac
# each ply's note: B's book moves are instant ({book}), A's checked ones carry a search
grep -q '{book}' "$T_TMP/im.pdn" && pass || fail "no unsearched book move by B"
tr '\n' ' ' < "$T_TMP/im.pdn" | grep -q '1\.\.\. [0-9x-]* {\[%eval' && pass || fail "A's first move not searched: $(cat "$T_TMP/im.pdn")"

# expand --openings: grown from the positions after a file's openings, their moves path
# moves (never book moves); games from elsewhere counted and left out
printf '[GameType "20"]\n[Result "*"]\n\n1. 32-28 17-22 2. 28x17 *\n\n[GameType "20"]\n[FEN "W:W27,28:B8,9"]\n[Result "*"]\n\n1. 28-22 *\n' > "$T_TMP/iop.pdn"
run "$PDNKIT" book expand --variant international --openings "$T_TMP/iop.pdn" --engine-options "--depth 4" -n 4 -q -o "$T_TMP/iop.book"
expect_rc 0 "expand --openings"
expect_err_has "1 game left out: not from the book's start" "the game from a FEN left out, said"
run "$PDNKIT" book probe "$T_TMP/iop.book" --json
case $OUT in *'"moves":[]'*) pass ;; *) fail "a path move probed as a book move: $OUT" ;; esac
run "$PDNKIT" book probe "$T_TMP/iop.book" --moves "32-28 17-22 28x17" --json
expect_out_has '"score":' "the opening's position grown by the engine"
printf '[GameType "20"]\n[FEN "W:W27,28:B8,9"]\n[Result "*"]\n\n1. 28-22 *\n' > "$T_TMP/iop2.pdn"
run "$PDNKIT" book expand --variant international --openings "$T_TMP/iop2.pdn" --engine-options "--depth 4" -n 4 -q -o "$T_TMP/iop2.book"
expect_rc 2 "--openings without an opening from the start"
expect_err_has "no opening of International draughts from the book's start" "said"
run "$PDNKIT" book expand --ballots acf3 --openings "$T_TMP/iop.pdn" -o "$T_TMP/x.book"
expect_rc 2 "--ballots with --openings"

# the shipped International book: the engine's default (analyze --book default, match's
# --engine pdnkit, play, the Hub and DXP engines), none with --book none or --no-book
run "$PDNKIT" analyze --variant international --book default --json
expect_out_has '"book":true' "the shipped International book answers at the start"
run "$PDNKIT" analyze --variant international --book default --moves "32-28 17-22 28x17 11x22" --json
expect_out_has '"book":true' "the shipped book goes past the first moves"
OUT=$(printf 'set-param name=variant value=normal\ninit\npos start\nlevel depth=2\ngo\nquit\n' | "$PDNKIT" engine --egdb none 2>/dev/null)
expect_out_has "book=true" "the Hub engine answers International draughts from its book"
# commands read while it searches run in their order, a quit among them last (piped at
# once, they arrive during the first, instant, search)
OUT=$(printf 'set-param name=variant value=normal\ninit\npos start\nlevel depth=2\ngo\npos start moves="32-28 17-22 28x17"\ngo\nnew-game\nquit\n' | "$PDNKIT" engine --egdb none 2>/dev/null)
[ "$(echo "$OUT" | grep -c '^done move=')" = 2 ] && pass || fail "two go commands piped before quit: $OUT"
OUT=$(printf 'set-param name=variant value=normal\ninit\npos start\nlevel depth=2\ngo\nquit\n' | "$PDNKIT" engine --egdb none --no-book 2>/dev/null)
case $OUT in *"book=true"*) fail "--no-book still answered from the book" ;; *"done move="*) pass ;; *) fail "no move: $OUT" ;; esac
run "$PDNKIT" analyze --variant russian --book default
expect_rc 3 "no shipped book of Russian draughts"
expect_err_has "no book of Russian draughts is built in" "the reason named"

run "$PDNKIT" book expand --variant international --fen "W:W27,28:B8,9" --engine-options "--depth 4" -n 3 -q -o "$T_TMP/i3.book"
expect_rc 0 "expand --variant from a FEN of the variant"
run "$PDNKIT" book expand --variant international --ballots acf3 -o "$T_TMP/x.book"
expect_rc 2 "--variant with the English ballots"
run "$PDNKIT" book expand --variant chess -o "$T_TMP/x.book"
expect_rc 2 "an unknown variant"

# expand --ballots: grown from the deck's positions; the ballots' moves are path moves,
# never played from the book
run "$PDNKIT" book expand --ballots acf3 --engine-options "--depth 4" --positions 200 --width 1 --quiet -o "$T_TMP/deck.book" --json
expect_rc 0 "expand --ballots acf3"
run "$PDNKIT" book probe "$T_TMP/deck.book"
expect_out_has "not in the book" "the start has only path moves: nothing to play"
run "$PDNKIT" book probe "$T_TMP/deck.book" --moves "11-15 23-19"
expect_out_has "not in the book" "nor the ballot's second position"
run "$PDNKIT" book probe "$T_TMP/deck.book" --moves "11-15 23-19 8-11" --json
expect_out_has '"score":' "a ballot's position has an engine move"
N=0
while read -r b; do
	"$PDNKIT" book probe "$T_TMP/deck.book" --moves "$b" --json 2>/dev/null | grep -q '"score":' && N=$((N + 1))
done <<'EOF2'
9-13 21-17 5-9
10-15 21-17 11-16
12-16 24-20 8-12
11-16 22-18 16-19
EOF2
[ $N = 4 ] && pass || fail "deck positions with a book move: $N of 4"
run "$PDNKIT" book dump --format pdn "$T_TMP/deck.book"
expect_out_has "9-13" "the dump walks the path moves"
run "$PDNKIT" analyze --book "$T_TMP/deck.book" --moves "11-15 23-19 8-11" --depth 4 --json
expect_out_has '"book":true' "analyze answers from the deck book at a ballot's position"
run "$PDNKIT" analyze --book "$T_TMP/deck.book" --depth 4 --json
case $OUT in *'"book":true'*) fail "a path move played from the book: $OUT" ;; *) pass ;; esac
run "$PDNKIT" book expand --ballots xyz -o "$T_TMP/x.book"
expect_rc 2 "an unknown deck"
run "$PDNKIT" book expand --ballots acf3 --fen "W:W21-32:B1-12" -o "$T_TMP/x.book"
expect_rc 2 "--ballots with --fen"

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

# Books of the other variants: from files (the first replayed game's variant, or
# --variant) and from the store, each root move counted as a query of the store counts it.
WK="$CORPORA/wk2003.pdn"
RU="$CORPORA/ussr1947.pdn"
if [ -f "$WK" ] && [ -f "$RU" ]; then
	run "$PDNKIT" book build "$WK" -o "$T_TMP/wk.book" --json
	expect_rc 0 "International book from a file"
	expect_out_has '"gametype":20' "the book is International draughts'"
	DB="$T_TMP/v.db"
	"$PDNKIT" import --db "$DB" "$WK" "$RU" 2>/dev/null
	run "$PDNKIT" book build --db "$DB" --variant international -o "$T_TMP/wk2.book"
	expect_rc 0 "International book from the store"
	cmp -s "$T_TMP/wk.book" "$T_TMP/wk2.book" && pass || fail "file and store books differ"
	"$PDNKIT" book probe "$T_TMP/wk.book" | awk 'NR > 2 { print $1, $2 }' > "$T_TMP/root.txt"
	[ -s "$T_TMP/root.txt" ] && pass || fail "no root moves in the International book"
	while read -r mv games; do
		n=$("$PDNKIT" query --db "$DB" --variant international --opening "$mv" --format count)
		[ "$n" = "$games" ] && pass || fail "International book: $mv in $games games, the store finds $n"
	done < "$T_TMP/root.txt"
	run "$PDNKIT" book build --variant russian "$WK" "$RU" --plies 16 -o "$T_TMP/ru.book"
	expect_rc 0 "Russian book from mixed files"
	expect_err_has "23 games left out: of another variant than Russian draughts" "the other variant's games counted"
	# probe in the variant's notation, after moves
	run "$PDNKIT" book probe "$T_TMP/ru.book" --moves "c3-d4 f6-g5" --json
	expect_out_has '{"move":"b2-c3","games":' "Russian probe after moves"
	total=$(printf '%s' "$OUT" | tr ',' '\n' | sed -n 's/.*"games":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }')
	n=$("$PDNKIT" query --db "$DB" --variant russian --after "c3-d4 f6-g5" --format count)
	[ "$n" = "$total" ] && pass || fail "Russian book: $total games after c3-d4 f6-g5, the store finds $n"
	# dumps: text numbered from White's first move, PDN that validates under the variant
	run "$PDNKIT" book dump "$T_TMP/ru.book"
	expect_out_has "1. c3-d4" "Russian text dump"
	expect_out_has "  1... f6-g5" "Black's reply is 1..."
	"$PDNKIT" book dump --format pdn "$T_TMP/ru.book" > "$T_TMP/ru.pdn"
	run "$PDNKIT" validate "$T_TMP/ru.pdn"
	expect_rc 0 "the Russian PDN dump validates"
	expect_err_has "1 valid, 0 with errors, 0 with warnings, 1 of other variants replayed" "replayed as Russian"
	run "$PDNKIT" book stats --measure "$T_TMP/ru.book"
	expect_out_has "game          Russian draughts (GameType 25)" "stats names the game"
	expect_out_has "found" "stats --measure probes a variant book"
	# the engine plays from it; a book of another game is refused
	run "$PDNKIT" analyze --variant russian --book "$T_TMP/ru.book" --moves "c3-d4 f6-g5"
	expect_out_has "bestmove b2-c3 (book)" "analyze --variant answers from its book"
	run "$PDNKIT" analyze --variant international --book "$T_TMP/ru.book"
	expect_rc 3 "a Russian book for International draughts"
	expect_err_has "is a book of Russian draughts, not of International draughts" "the mismatch named"
	run "$PDNKIT" analyze --book "$T_TMP/ru.book" --depth 2
	expect_rc 3 "a Russian book for English draughts"
	printf '[GameType "25"]\n[Result "*"]\n\n1. c3-d4 *\n' > "$T_TMP/ro.pdn"
	run "$PDNKIT" match --variant russian --a "--depth 2 --book $T_TMP/ru.book" --b "--depth 2" --openings "$T_TMP/ro.pdn" -o "$T_TMP/rm.pdn"
	expect_rc 0 "Russian match with a book"
	case $OUT in *"book moves played: A 0,"*) fail "no book move played in a Russian match" ;; *"book moves played: A "*) pass ;; *) fail "no book count: $OUT" ;; esac
	# annotate marks the book moves of the book's own game's games
	run "$PDNKIT" annotate --db "$DB" --variant russian -n 1 --depth 2 --book "$T_TMP/ru.book" --json
	expect_out_has '"ply":1,"move":"c3-d4","side":"white","best":null,"score_best":null,"score_played":null,"loss":null,"class":"book"' "a Russian game's book move"
	run "$PDNKIT" annotate --db "$DB" --variant russian -n 1 --depth 2 --book none --json
	case $OUT in *'"class":"book"'*) fail "book moves marked without a book" ;; *) pass ;; esac
	# damage is refused as for English books
	size=$(wc -c <"$T_TMP/ru.book")
	cp "$T_TMP/ru.book" "$T_TMP/rubad.book"
	printf '\377' | dd of="$T_TMP/rubad.book" bs=1 seek=$((size - 5)) conv=notrunc 2>/dev/null
	run "$PDNKIT" book stats "$T_TMP/rubad.book"
	expect_rc 3 "damaged Russian book"
else
	echo "SKIP $T_NAME: variant books: $WK or $RU not found"
fi

# The engine's book move by the games' results (search feature book-score, 30 by
# default): 11-15 was played three times and lost each time, 9-14 twice and drawn; the
# most played is taken unless its score for Black (1/8) is below the bar, and with no
# move above it the position is searched.
: >"$T_TMP/res.pdn"
for r in 0-1 0-1 0-1; do printf '[Result "%s"]\n\n1. 11-15 23-19 %s\n\n' "$r" "$r" >>"$T_TMP/res.pdn"; done
for r in 1/2-1/2 1/2-1/2; do printf '[Result "%s"]\n\n1. 9-14 22-18 %s\n\n' "$r" "$r" >>"$T_TMP/res.pdn"; done
run "$PDNKIT" book build "$T_TMP/res.pdn" -o "$T_TMP/res.book"
expect_rc 0 "a book of five games"
run "$PDNKIT" analyze --book "$T_TMP/res.book" --features book-score=0
expect_out_has "bestmove 11-15 (book)" "book-score=0: the most played move, whatever its results"
run "$PDNKIT" analyze --book "$T_TMP/res.book"
expect_out_has "bestmove 9-14 (book)" "book-score=30 (the default) passes over three lost games for two drawn"
run "$PDNKIT" analyze --book "$T_TMP/res.book" --features book-score=60 --depth 2
case $OUT in *"(book)"*) fail "book-score=60: a book move played: [$OUT]" ;; *bestmove*) pass ;; *) fail "book-score=60: no move: [$OUT]" ;; esac
printf 'hint\nquit\n' >"$T_TMP/hint.txt"
run "$PDNKIT" play --line --book "$T_TMP/res.book" --depth 2 <"$T_TMP/hint.txt"
expect_out_has "hint: 9-14 (from the book)" "play's hint takes the engine's book move"

# Books that are devices, FIFOs or large junk: refused at once, never read whole.
mkfifo "$T_TMP/fifo.book"
head -c 50000000 /dev/zero >"$T_TMP/zeros.book"
for b in /dev/zero "$T_TMP/fifo.book" "$T_TMP/zeros.book"; do
	run timeout 10 "$PDNKIT" book probe "$b"
	expect_rc 3 "book probe $b"
	run timeout 10 "$PDNKIT" analyze --book "$b" --depth 1
	expect_rc 3 "analyze --book $b"
done
expect_err_has "not a pdnkit book" "zeros refused by their header"
run timeout 10 "$PDNKIT" book probe /dev/zero
expect_err_has "'/dev/zero' is not a regular file" "a device refused"
rm -f "$T_TMP/zeros.book"
done_testing
