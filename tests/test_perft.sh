# pdnkit perft: counts, --divide, --unique, --threads, --json and FEN errors.
. "$TESTS_DIR/lib.sh"

run "$PDNKIT" perft --json 9
expect_rc 0 "perft 9"
expect_out_has '"depth":9,"unique":false,"threads":1,"nodes":3963680,' "perft 9 json"
expect_err_empty "perft 9 writes nothing to stderr"
run "$PDNKIT" perft --threads 2 --json 10
expect_out_has '"nodes":18391564,' "perft 10 on two threads"
run "$PDNKIT" perft 10
expect_out_has "perft(10) = 18391564 " "human output"

run "$PDNKIT" perft --divide 2
expect_rc 0 "divide"
first=$(echo "$OUT" | head -1 | tr -s ' ')
[ "$first" = " 0 9-13 7" ] && pass || fail "divide first line [$first]"
lines=$(echo "$OUT" | grep -c '^ *[0-9]')
[ "$lines" -eq 7 ] && pass || fail "divide prints one line per root move, got $lines"

# The king circling four men: two paths, one result.
run "$PDNKIT" perft --json 1 --fen "W:WK10:B14,15,22,23"
expect_out_has '"nodes":2,' "both capture paths counted"
run "$PDNKIT" perft --json --unique 1 --fen "W:WK10:B14,15,22,23"
expect_out_has '"nodes":1,' "unique merges them"
run "$PDNKIT" perft --json --divide 1 --fen "W:WK10:B14,15,22,23"
expect_out_has '"divide":[{"ordinal":0,"move":"10x17x26x19x10","nodes":1},{"ordinal":1,"move":"10x19x26x17x10","nodes":1}]' "divide json"

run "$PDNKIT" perft 3 --fen "B:W33:B1"
expect_rc 2 "bad FEN"
expect_err_has "pdnkit perft: bad FEN at column 4: square 33 is out of range 1..32" "bad FEN is located"
run "$PDNKIT" perft 0
expect_out_has "perft(0) = 1 " "depth 0 counts the root"

# Other variants (rules/variant.c): published counts from the start (sources in
# tests/test_variant.c), by name and by GameType.
run "$PDNKIT" perft --variant international 6
expect_out_has "perft(6) = 167140  (International draughts" "International perft(6)"
# International and Brazilian count on the bitboards (rules/vbits.c) unless told: the
# same counts from the general generator, and the generator named.
expect_out_has "bitboards)" "International counted on the bitboards"
run "$PDNKIT" perft --variant international --generator mailbox 6
expect_out_has "perft(6) = 167140  (International draughts" "the general generator's perft(6)"
expect_out_has "mailbox)" "the general generator named"
run "$PDNKIT" perft --variant international --json --divide 3 --fen "W:WK46,K5,28,33,37:B12,K19,22,24,K44,30,31"
A=$OUT
run "$PDNKIT" perft --variant international --json --divide 3 --generator mailbox --fen "W:WK46,K5,28,33,37:B12,K19,22,24,K44,30,31"
[ "$(echo "$A" | sed 's/"seconds":[0-9.]*,"generator":"[a-z]*"//')" = "$(echo "$OUT" | sed 's/"seconds":[0-9.]*,"generator":"[a-z]*"//')" ] && pass ||
	fail "kings on the board: the bitboards' divide differs from the general generator's: $A / $OUT"
expect_out_has '"generator":"mailbox"' "the generator in the JSON"
run "$PDNKIT" perft --variant russian --generator bitboards 3
expect_rc 2 "Russian has no bitboard generator"
expect_err_has "no bitboard generator for Russian draughts" "the refusal names the variant"
run "$PDNKIT" perft --generator mailbox 3
expect_rc 2 "--generator without --variant"
expect_err_has "give --variant too" "--generator without --variant says so"
run "$PDNKIT" perft --variant international --generator fast 3
expect_rc 2 "an unknown generator"
expect_err_has "'fast' is not one of auto, mailbox, bitboards" "the choices named"
run "$PDNKIT" perft --variant 26 --json 5
expect_out_has '"variant":"brazilian","gametype":26,"fen":"W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6","depth":5,"nodes":7473' "Brazilian perft(5), JSON, its FEN by file and rank"
run "$PDNKIT" perft --variant russian --divide 1 --fen "W:W9:B6,11"
expect_out_has "b6:d8:g5" "Russian: the man crowned on d8 captures on as a king"
# A Russian king must land where it can go on capturing (pydraughts' issue #28): the
# position by numbers and by file and rank.
run "$PDNKIT" perft --variant russian --divide --fen "W:W12:B8,14,26" 1
expect_out_has "perft(1) = 1 " "Russian: one legal move, the completed capture"
expect_out_has "h6:f8:b4:e1" "Russian: the king lands on b4 and takes d2"
run "$PDNKIT" perft --variant russian --divide --fen "W:Wh6:Bg7,c5,d2" 1
expect_out_has "h6:f8:b4:e1" "FEN squares by file and rank"
run "$PDNKIT" perft --variant russian --fen "W:Wh5:Bg7" 1
expect_rc 2 "a light square in a FEN"
expect_err_has "h5 is not a playable square of Russian draughts" "the light square named"
run "$PDNKIT" perft --variant russian --fen "W:Wc3,22:Bg7" 1
expect_err_has "square c3 is given twice" "one square written both ways"
run "$PDNKIT" perft --variant english 8
expect_out_has "perft(8) = 845931" "the general generator plays English too"
run "$PDNKIT" perft --variant chess 3
expect_rc 2 "an unknown variant"
expect_err_has "'chess' is not a variant pdnkit knows" "the unknown variant is named"
run "$PDNKIT" perft --variant frisian --divide 1 --fen "W:W28:B18"
expect_out_has "28x8" "Frisian: a man captures up a file"
run "$PDNKIT" perft --variant international --fen "W:W51:B1" 2
expect_rc 2 "a FEN off the board"
expect_err_has "square 51 is out of range 1..50" "the square is named"

done_testing
