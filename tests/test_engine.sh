# analyze, bench and match on the command line.
. "$TESTS_DIR/lib.sh"

run "$PDNKIT" analyze --depth 6 --json
expect_rc 0 "analyze --depth 6"
[ "$(echo "$OUT" | grep -c '^{"depth":')" -eq 6 ] && pass || fail "one JSON line per iteration: $OUT"
echo "$OUT" | tail -1 | grep -q '^{"bestmove":"[0-9]*-[0-9]*","score":-*[0-9]*,"depth":6,' && pass || fail "bestmove line: $(echo "$OUT" | tail -1)"
run "$PDNKIT" analyze --depth 6
expect_out_has "bestmove" "human output"
[ "$(echo "$OUT" | grep -c '^ *[0-9]* ')" -eq 6 ] && pass || fail "one line per iteration"

# --multipv: three different moves, then the first as the best move.
run "$PDNKIT" analyze --depth 5 --multipv 3
[ "$(echo "$OUT" | grep -c '^line [123]: ')" -eq 3 ] && pass || fail "three lines: $OUT"
moves=$(echo "$OUT" | grep '^line' | awk '{print $3}' | sort -u | wc -l)
[ "$moves" -eq 3 ] && pass || fail "three different moves"
[ "$(echo "$OUT" | grep '^line 1:' | awk '{print $3}')" = "$(echo "$OUT" | grep '^bestmove' | awk '{print $2}')" ] && pass || fail "bestmove is line 1"
run "$PDNKIT" analyze --depth 3 --multipv 0
expect_rc 2 "--multipv 0"
# the same of an International position: one analyze for every variant
run "$PDNKIT" analyze --variant international --depth 6 --multipv 3
expect_rc 0 "analyze --variant international --multipv 3"
[ "$(echo "$OUT" | grep -c '^line [123]: ')" -eq 3 ] && pass || fail "not three International lines: $OUT"
[ "$(echo "$OUT" | grep '^line' | awk '{ print $3 }' | sort -u | wc -l)" -eq 3 ] && pass || fail "the lines' moves are not three different moves"
first=$(echo "$OUT" | grep '^line 1:' | awk '{ print $3 }')
expect_out_has "bestmove $first " "the first line's move is the best"
expect_out_has "White's view" "the side whose view the scores take (White moves first)"
run "$PDNKIT" analyze --variant international --depth 4 --egdb none --json
expect_rc 0 "--egdb with --variant: the variant's own databases (none here)"
# one referee for every variant: the SPRT and the scores' adjudication in International
run "$PDNKIT" match --variant international --a "--depth 1" --b "--depth 6" -c 1 --sprt 0,100 -j
expect_rc 0 "an International match under an SPRT"
expect_out_has '"decision":"H0"' "the SPRT decides against the weaker side"
g=$(echo "$OUT" | grep -o '"games":[0-9]*' | head -1 | cut -d: -f2)
[ -n "$g" ] && [ "$g" -lt 162 ] && pass || fail "the SPRT did not stop the International match early ($g games)"
run "$PDNKIT" match --variant international --a "--depth 1" --b "--depth 6" -c 1 --games 4 --adjudicate-win 3,2 -o "$T_TMP/adj.pdn"
expect_rc 0 "an International match with --adjudicate-win"
grep -q 'adjudicated: both engines' "$T_TMP/adj.pdn" && pass || fail "no International game adjudicated by the scores"

# Two kings against one on the edge: a proven win.
run "$PDNKIT" analyze --fen "W:WK27,K20:BK28" --depth 12 --json
echo "$OUT" | tail -1 | grep -q '"score":29[0-9][0-9][0-9]' && pass || fail "a win is announced: $(echo "$OUT" | tail -1)"
expect_out_has '"win_in":' "win_in field"
# A single legal move is played at once.
run "$PDNKIT" analyze --moves "11-15 22-18"
expect_out "bestmove 15x22 (forced: the only legal move)" "forced move"
# No legal move.
run "$PDNKIT" analyze --fen "W:W29:B25,22"
expect_out "no legal move: White has lost" "no legal move"
# The same search twice gives the same nodes.
a=$("$PDNKIT" analyze --depth 9 --json | tail -1 | sed -E 's/.*"nodes":([0-9]+).*/\1/')
b=$("$PDNKIT" analyze --depth 9 --json | tail -1 | sed -E 's/.*"nodes":([0-9]+).*/\1/')
[ -n "$a" ] && [ "$a" = "$b" ] && pass || fail "analyze --depth is deterministic ($a vs $b)"
run "$PDNKIT" analyze --nodes 50000 --json
echo "$OUT" | tail -1 | grep -q '"nodes":5[0-9][0-9][0-9][0-9],' && pass || fail "--nodes 50000 stops near 50000: $(echo "$OUT" | tail -1)"

# --features: switching features changes the search, and the same switches give the
# same search; a bad list is refused with the reason.
a=$("$PDNKIT" analyze --depth 9 --json --features "lmr=0,lmp=0" | tail -1 | sed -E 's/.*"nodes":([0-9]+).*/\1/')
b=$("$PDNKIT" analyze --depth 9 --json --features "lmr=0,lmp=0" | tail -1 | sed -E 's/.*"nodes":([0-9]+).*/\1/')
c=$("$PDNKIT" analyze --depth 9 --json | tail -1 | sed -E 's/.*"nodes":([0-9]+).*/\1/')
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ] && pass || fail "--features changes the search repeatably ($a, $b, default $c)"
run "$PDNKIT" analyze --depth 3 --features "lmr=7"
expect_rc 2 "--features lmr=7"
expect_err_has "search feature 'lmr' needs a value from 0 to 5" "--features range message"
run "$PDNKIT" bench --features "nonsense=1"
expect_rc 2 "bench --features nonsense"
expect_err_has "unknown search feature 'nonsense'" "--features unknown name"

# Two threads: the shot of 1981 game 37 (28-24 gives a man, 32x23x14x5 takes three).
run "$PDNKIT" analyze --threads 2 --depth 8 --moves "9-14 23-18 14x23 27x18 5-9 26-23 12-16 30-26 16-19 24x15 10x19 23x16 11x20 22-17 7-11 18-15 11x18"
expect_out_has "bestmove 28-24" "two threads find the shot"
run "$PDNKIT" analyze --threads 0
expect_rc 2 "--threads 0"
run "$PDNKIT" analyze --depth 0
expect_rc 2 "bad depth"
run "$PDNKIT" analyze --egdb-cache -1
expect_rc 2 "--egdb-cache -1"
expect_err_has "--egdb-cache must be 'auto' or a size in MiB from 1 to 1048576, not '-1'" "says the range"
run "$PDNKIT" analyze --egdb-cache 16x
expect_rc 2 "--egdb-cache 16x"
run "$PDNKIT" analyze --egdb-cache 16 --depth 6 --fen "W:W18,22,25,K30:B5,9,K14,K26"
expect_rc 0 "a small cache of the databases"
run "$PDNKIT" analyze --egdb-cache auto --depth 6 --fen "W:W18,22,25,K30:B5,9,K14,K26"
expect_rc 0 "the automatic cache"
run "$PDNKIT" analyze --egdb-cache 0 --depth 6 --fen "W:W18,22,25,K30:B5,9,K14,K26"
expect_rc 0 "0 is the automatic cache"
OUT=$(printf 'hub\nset-param name=egdb-cache value=-1\nquit\n' | "$PDNKIT" engine 2>/dev/null)
expect_out_has "error" "set-param egdb-cache -1 refused"
OUT=$(printf 'hub\nquit\n' | "$PDNKIT" engine 2>/dev/null)
expect_out_has "param name=egdb-cache value=0 type=int min=0 max=1048576" "egdb-cache advertised, 0 for auto"
run "$PDNKIT" analyze --movetime abc
expect_rc 2 "bad movetime"
expect_err_has "--movetime (seconds) must be a number from 0 to 86400, not 'abc'" "bad movetime named"
run "$PDNKIT" analyze --level 11
expect_rc 2 "bad level"
run "$PDNKIT" analyze --moves "9-14 9-14"
expect_rc 2 "illegal moves"
expect_err_has "pdnkit analyze: --moves: 9-14 is not legal here" "illegal moves explained, the option named once"
run "$PDNKIT" analyze --fen "B:W21-32:B1-12" --moves "9-14"
expect_rc 2 "--fen with --moves"

# match: a deeper search beats a shallower one; games are valid PDN.
run "$PDNKIT" match --a "--depth 5" --b "--depth 1" --games 24 -o "$T_TMP/m.pdn" --json
expect_rc 0 "match"
expect_out_has '"games":24,' "match plays 24 games"
w=$(echo "$OUT" | sed -E 's/.*"wins":([0-9]+).*/\1/')
l=$(echo "$OUT" | sed -E 's/.*"losses":([0-9]+).*/\1/')
[ "$w" -gt "$l" ] && pass || fail "depth 5 beats depth 1: $OUT"
run "$PDNKIT" validate "$T_TMP/m.pdn"
expect_rc 0 "match games validate"
expect_err_has "24 games read: 24 valid, 0 with errors, 0 with warnings" "match games are clean PDN"
# Each move of the record says what its engine thought: the score from Black's view,
# the depth and the seconds; a White move after a note has its number again; no
# movetext line is longer than 79 columns.
grep -q ' {\[%eval -\{0,1\}[0-9]*\.[0-9][0-9]\] \[%depth 5\] \[%emt [0-9]*\.[0-9][0-9]\]}' "$T_TMP/m.pdn" && pass || fail "a note of the depth-5 engine"
grep -q '\[%depth 1\] \[%emt ' "$T_TMP/m.pdn" && pass || fail "a note of the depth-1 engine"
grep -q '} [0-9]*\.\.\. [0-9]' "$T_TMP/m.pdn" && pass || fail "N... before White's move after a note"
[ "$(grep -v '^\[' "$T_TMP/m.pdn" | awk 'length > 79' | wc -l)" -eq 0 ] && pass || fail "movetext lines of at most 79 columns"
# A record starts at the initial position with the opening's plies (no set-up after
# them): a store finds each game by its opening moves and by the position they reach.
grep -q '^\[FEN' "$T_TMP/m.pdn" && fail "a match record of the deck has a FEN" || pass
"$PDNKIT" import --db "$T_TMP/m.db" "$T_TMP/m.pdn" >/dev/null 2>&1
op=$(grep -m1 '^\[Opening ' "$T_TMP/m.pdn" | sed 's/.*"\(.*\)".*/\1/; s/^[0-9]*\. //; s/ [0-9]*\. / /g')
n=$(grep -c "^\[Opening \"$(grep -m1 '^\[Opening ' "$T_TMP/m.pdn" | sed 's/.*"\(.*\)".*/\1/')\"" "$T_TMP/m.pdn")
run "$PDNKIT" query --db "$T_TMP/m.db" --opening "$op" --format count
[ -n "$op" ] && [ "$OUT" = "$n" ] && pass || fail "query --opening '$op' finds $OUT of the record's $n games of that opening"
run "$PDNKIT" query --db "$T_TMP/m.db" --after "$op" --format count
[ "$OUT" -ge "$n" ] && pass || fail "query --after '$op' finds $OUT games, fewer than the $n of that opening"
# The last score of each decided game is the winner's: positive (or #n) for 1-0,
# negative (or #-n) for 0-1.
bad=$(awk '/^\[Result/ { res = $2 } /^\[/ { next } { line = line " " $0 }
	/(1-0|0-1|1\/2-1\/2)$/ { last = ""; s = line; while ((i = index(s, "%eval ")) > 0) { s = substr(s, i + 6); last = s }
		sub(/\].*/, "", last)
		if ((res == "\"1-0\"]" && last ~ /^#?-/) || (res == "\"0-1\"]" && last !~ /^#?-/)) print res, last
		line = "" }' "$T_TMP/m.pdn")
[ -z "$bad" ] && pass || fail "a decided game's last score has the winner's sign: $bad"
# Openings from a file, one game at a time, a feature switched off.
printf '[FEN "B:W21-32:B1-12"]\n1. 9-14 23-18 *\n\n[FEN "W:W21-32:B1-8,10-13"]\n*\n' > "$T_TMP/open.pdn"
run "$PDNKIT" match --a "--depth 3" --b "--depth 3 --no-killers" --openings "$T_TMP/open.pdn" --concurrency 1 -o "$T_TMP/o.pdn" --json
expect_out_has '"games":4,' "two openings, both colours"
grep -q 'FEN "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13"' "$T_TMP/o.pdn" && pass || fail "a game starts from the file's position"
run "$PDNKIT" validate "$T_TMP/o.pdn"
expect_rc 0 "those games validate"
run "$PDNKIT" match --a "--depth 3 --lmr 0" --b "--depth 3 --lmr 4" --games 2 --json
expect_out_has '"games":2,' "--lmr schemes"
run "$PDNKIT" match --a "--depth 3 --tt-buckets" --b "--depth 3" --games 2 --json
expect_out_has '"games":2,' "--tt-buckets"
run "$PDNKIT" match --a "--depth 3 --lmr 9" --games 2
expect_rc 2 "--lmr out of range"
run "$PDNKIT" match --a "--frob" --games 2
expect_rc 2 "bad engine options"
expect_err_has "pdnkit match: --a: --frob: unknown option" "bad engine option named"

# bench with two threads: no signature, but the same positions searched.
run "$PDNKIT" bench --threads 2
expect_rc 0 "bench --threads 2"
expect_out_has "total (threads: no signature)" "threads: no signature claimed"
run "$PDNKIT" bench --threads 0
expect_rc 2 "bench --threads 0"

# bench: the node signature is the same on every run, and it is the recorded one. It
# changes only when the search does; then record the new one with the match result of
# the change in the commit message.
BENCH_SIGNATURE=4934124
run "$PDNKIT" bench --json
expect_rc 0 "bench"
a=$(echo "$OUT" | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$(echo "$OUT" | grep -o '"name":' | wc -l)" -eq 6 ] && pass || fail "bench searches six positions"
b=$("$PDNKIT" bench --json | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$b" ] && pass || fail "bench signature repeats ($a, $b)"
[ "$a" = "$BENCH_SIGNATURE" ] && pass || fail "bench signature $a, recorded $BENCH_SIGNATURE"
# The variants' search (the same node on the mailbox board): its own signature, recorded
# as the English one is; a search without iir on the same positions searches other nodes
# (more or fewer, as the evaluation orders them). International's own defaults
# (features_for_variant: lmr=4) apply unless --features gives another: English
# draughts' lmr=3 searches another (it was the signature before they came, 179,986,
# until International's network was built in).
VBENCH_SIGNATURE=200765
run "$PDNKIT" bench --variant international --json
expect_rc 0 "bench --variant international"
v1=$(echo "$OUT" | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$v1" = "$VBENCH_SIGNATURE" ] && pass || fail "the variants' bench signature $v1, recorded $VBENCH_SIGNATURE"
v0=$("$PDNKIT" bench --variant international --json --features lmr=3 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$v0" = 206839 ] && pass || fail "the variants' bench with lmr=3 given: $v0 nodes, not the 206,839 of English draughts' lmr"
# the strongest levels of late move pruning (lmp=4: 3, 4, 6 moves at depths 1-3) and of
# the reductions (lmr=5) are searches of their own; the stronger reductions search fewer
# nodes
v5=$("$PDNKIT" bench --variant international --json --features lmp=4 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v5" ] && [ "$v5" != "$v1" ] && pass || fail "the variants' bench with lmp=4: $v5 nodes, the same as with lmp=3"
v6=$("$PDNKIT" bench --variant international --json --features lmr=5 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v6" ] && [ "$v6" -lt "$v1" ] && pass || fail "the variants' bench with lmr=5: $v6 nodes, not fewer than lmr=4's $v1"
v2=$("$PDNKIT" bench --variant international --json --features iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v2" ] && [ "$v2" != "$v1" ] && pass || fail "the variants' bench with iir=0: $v2 nodes, the same as with it"
# sac (off by default): moves that give the other side a capture are neither left out
# nor reduced, so the search is another, larger one.
v3=$("$PDNKIT" bench --variant international --json --features sac=2 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v3" ] && [ "$v3" -gt "$v1" ] && pass || fail "the variants' bench with sac=2: $v3 nodes, not more than $v1"
# shots (off by default): a move that gives a capture is exempt from lmp alone, a
# search between the default one and sac's (306,961 nodes with the fifth patterns).
v4=$("$PDNKIT" bench --variant international --json --features shots=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v4" ] && [ "$v4" -gt "$v1" ] && [ "$v4" != "$v3" ] && pass || fail "the variants' bench with shots=1: $v4 nodes (default $v1, sac=2 $v3)"
e4=$("$PDNKIT" bench --json --features shots=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$e4" ] && [ "$e4" != "$a" ] && pass || fail "the English bench with shots=1: $e4 nodes, the same as without"
# offers: at a quiet leaf without kings the mover may offer a man (an exchange, a shot
# begun), searched through the captures that follow. White to move: after 46-41, Black's
# 17-22 28x17 11x31 wins a man, which the leaf of a depth-1 search sees with offers and
# the search without them sees only at depth 2 (White's other moves lose more at once).
OFFERS_FEN="W:W27,28,32,46:B6,11,16,17,18,19,21,23,26"
off_score() { "$PDNKIT" analyze --variant international --fen "$OFFERS_FEN" --depth "$1" --multipv 3 --json --features "offers=$2" |
	grep '"move":"46-41"' | sed -E 's/.*"score":(-?[0-9]+).*/\1/'; }
o1=$(off_score 1 1); o0=$(off_score 1 0); o2=$(off_score 2 0)
[ -n "$o1" ] && [ -n "$o0" ] && [ "$o1" -le $((o0 - 100)) ] && [ "$o1" = "$o2" ] && pass ||
	fail "offers at depth 1: 46-41 scored $o1, without them $o0 (depth 2: $o2)"
v7=$("$PDNKIT" bench --variant international --json --features offers=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
v8=$("$PDNKIT" bench --variant international --json --features offers=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v7" ] && [ -n "$v8" ] && [ "$v8" -gt "$v7" ] && pass || fail "the variants' bench with offers=1: $v8 nodes, not more than $v7 without"
e8=$("$PDNKIT" bench --json --features offers=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$e8" ] && [ "$e8" != "$a" ] && pass || fail "the English bench with offers=1: $e8 nodes, the same as without"
# A capture with a choice costing a ply (off by default): smaller trees at the same depths.
v9=$("$PDNKIT" bench --variant international --json --features capture-ply=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$v9" ] && [ -n "$v7" ] && [ "$v9" -lt "$v7" ] && pass || fail "the variants' bench with capture-ply=1: $v9 nodes, not fewer than $v7 without"
# draw-seek (off by default): each piece on the board costs the side searched for, so
# from the start (40 pieces) its score falls by about 40 times the cost, and a line that
# trades comes first: the search's own judgement is the default's less that.
ds_score() { "$PDNKIT" analyze --variant international --depth 6 --json --features "draw-seek=$1" |
	tail -n 1 | sed -E 's/.*"score":(-?[0-9]+).*/\1/'; }
d0=$(ds_score 0); d2=$(ds_score 2)
[ -n "$d0" ] && [ -n "$d2" ] && [ "$d2" -le $((d0 - 60)) ] && [ "$d2" -ge $((d0 - 100)) ] && pass ||
	fail "draw-seek=2 from the start: scored $d2, without it $d0 (60 to 100 less expected)"
e9=$("$PDNKIT" bench --json --features draw-seek=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$e9" ] && [ "$e9" != "$a" ] && pass || fail "the English bench with draw-seek=1: $e9 nodes, the same as without"
# few (off by default): a node whose side to move has at most that many moves costs its
# children no ply; one move already never does, so few=1 is the search without it.
f1=$("$PDNKIT" bench --variant international --json --features few=1 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
f2=$("$PDNKIT" bench --variant international --json --features few=2 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ -n "$f1" ] && [ "$f1" = "$v7" ] && pass || fail "the variants' bench with few=1: $f1 nodes, not the $v7 without"
[ -n "$f2" ] && [ -n "$v7" ] && [ "$f2" -gt "$v7" ] && pass || fail "the variants' bench with few=2: $f2 nodes, not more than $v7 without"
run "$PDNKIT" bench --variant russian
expect_rc 2 "the variants' bench of a variant without its positions"
# The threat extension (off by default) searches more: its own signature (0 Elo in
# self-play when it was measured; man/NOTES.md).
t=$("$PDNKIT" bench --json --features threat=1,etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$t" = 8543700 ] && [ "$t" != "$a" ] && pass || fail "bench signature with threat=1: $t, recorded 8543700"
# The history's malus and decay and the cut by the evaluation off: the search before
# them, node for node (bench starts every position afresh, so the decay alone leaves
# its signature as it is).
o=$("$PDNKIT" bench --json --features history-malus=0,history-decay=0,rfp=0,razor=0,lmr-adjust=0,etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 13571712 ] && pass || fail "bench signature without the history's malus and decay, rfp, razor and lmr-adjust: $o, recorded 13571712"
o=$("$PDNKIT" bench --json --features rfp=0,razor=0,lmr-adjust=0,etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 12158687 ] && pass || fail "bench signature without rfp, razor and lmr-adjust: $o, recorded 12158687"
o=$("$PDNKIT" bench --json --features razor=0,lmr-adjust=0,etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 8390133 ] && pass || fail "bench signature without razor and lmr-adjust: $o, recorded 8390133"
# The children's table entries looked at first (etc=4, the default) off: the search
# before it, node for node; the signatures above and below are of searches without it
# (and without iir=3, the default since: iir=0).
o=$("$PDNKIT" bench --json --features etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 7408222 ] && pass || fail "bench signature without etc: $o, recorded 7408222"
# A node without a table move searched a ply shallower (iir=3, the default) off: the
# search before it, node for node.
o=$("$PDNKIT" bench --json --features iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 5607006 ] && [ "$o" != "$a" ] && pass || fail "bench signature without iir: $o, recorded 5607006"
# Features measured and left off search otherwise, each its own signature.
o=$("$PDNKIT" bench --json --features countermove=1,etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 7508045 ] && pass || fail "bench signature with countermove=1: $o, recorded 7508045"
o=$("$PDNKIT" bench --json --features iir=4,etc=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 7676190 ] && pass || fail "bench signature with iir=4: $o, recorded 7676190"
o=$("$PDNKIT" bench --json --features singular=20,etc=0,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 14963834 ] && pass || fail "bench signature with singular=20: $o, recorded 14963834"
o=$("$PDNKIT" bench --json --features progress=50,iir=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = 8131464 ] && pass || fail "bench signature with progress=50: $o, recorded 8131464"
o=$("$PDNKIT" bench --json --features history-decay=0 | sed -E 's/.*\],"nodes":([0-9]+),.*/\1/')
[ "$o" = "$a" ] && pass || fail "bench signature without the decay: $o, the default's $a"
run "$PDNKIT" bench --hash 0
expect_rc 2 "bench --hash 0"

# --weights: a file, 'untuned', and errors.
printf 'king 150\nmobility 4\n' > "$T_TMP/w.txt"
run "$PDNKIT" analyze --depth 4 --weights "$T_TMP/w.txt"
expect_rc 0 "--weights FILE"
run "$PDNKIT" analyze --depth 4 --weights untuned
expect_rc 0 "--weights untuned"
printf 'king\n' > "$T_TMP/bad.txt"
run "$PDNKIT" analyze --depth 4 --weights "$T_TMP/bad.txt"
expect_rc 3 "bad weights file"
expect_err_has "weights '$T_TMP/bad.txt': line 1: expected 'name value'" "bad weights explained"

if have_corpora "the problem sets and the 1981 match"; then
	P="$CORPORA/wiegerw-pdn-games/succeed"
	run "$PDNKIT" solve --depth 6 --json "$P/beginner.pdn"
	expect_rc 0 "solve"
	last=$(echo "$OUT" | tail -1)
	n=$(echo "$last" | sed -E 's/.*"positions":([0-9]+).*/\1/')
	k=$(echo "$last" | sed -E 's/.*"correct":([0-9]+).*/\1/')
	[ "$n" -eq "$(grep -c '^\[FEN' "$P/beginner.pdn")" ] && pass || fail "solve judges every set-up position: $last"
	[ "$((k * 2))" -gt "$n" ] && pass || fail "solve gets most beginner problems right: $last"
	[ "$(echo "$OUT" | grep -c '"correct":')" -eq "$((n + 1))" ] && pass || fail "one JSON line per position"

	# A huge margin leaves only proven results (|score| near 30000) judged won or lost.
	run "$PDNKIT" solve --depth 2 --margin 10000 --json "$P/beginner.pdn"
	bad=$(echo "$OUT" | grep '"judged":"1-0"\|"judged":"0-1"' | grep -vc '"score":-*29[0-9][0-9][0-9],')
	undecided=$(echo "$OUT" | grep -c '"judged":"1/2-1/2"')
	[ "$bad" -eq 0 ] && [ "$undecided" -gt 0 ] && pass || fail "--margin 10000: $bad unproven wins, $undecided draws"

	"$PDNKIT" import --db "$T_TMP/tune.db" "$CORPORA/tinsley.pdn" 2>/dev/null
	run "$PDNKIT" tune --from-db --db "$T_TMP/tune.db" --epochs 30
	expect_rc 0 "tune --from-db"
	# the 723 valid games of tinsley.pdn less the 3 stored twice in it (copies count once)
	expect_out_has "from 720 games" "tune --from-db reads the valid stored games, each once"
	run "$PDNKIT" tune --epochs 30 -o "$T_TMP/t.txt" "$CORPORA/tinsley.pdn"
	expect_rc 0 "tune"
	expect_out_has "held out" "tune reports the held-out fit"
	run "$PDNKIT" analyze --depth 4 --weights "$T_TMP/t.txt"
	expect_rc 0 "tuned weights load"
	head -2 "$T_TMP/t.txt" | grep -q "Produced by: pdnkit tune tinsley.pdn -o" && pass || fail "weights file says how it was made"
fi

# analyze --variant: the other variants' engine from the command line.
run $PDNKIT analyze --variant international --depth 3 --json
expect_rc 0 "analyze --variant international"
expect_out_has '{"variant":"international","bestmove":"' "a best move in JSON"
run $PDNKIT analyze --variant russian --depth 4
expect_rc 0 "analyze --variant russian"
case $OUT in *"bestmove "[a-h][1-8]-[a-h][1-8]*) pass ;; *) fail "Russian moves are written c3-d4: $OUT" ;; esac
run $PDNKIT analyze --variant russian --fen "W:W29,30:B4" --depth 10
expect_out_has "score White wins in" "two men against one: the win is found"
run $PDNKIT analyze --variant frisian --fen "W:W28,48:BK27,43,34" --depth 4
expect_rc 0 "analyze --variant frisian"
expect_out_has "bestmove 48x30" "Frisian: two men (200) before a king (199), the only move"
run $PDNKIT analyze --variant 20 --moves "11-15"
expect_rc 2 "--moves with --variant"
run $PDNKIT analyze --variant international --fen "W:W51"
expect_rc 2 "a FEN of the wrong board"

# --weights for the variant engine: 'untuned', a file naming its GameType, and errors.
run $PDNKIT analyze --variant international --depth 3 --weights untuned
expect_rc 0 "--variant --weights untuned"
printf 'gametype 25\nking 250\nmobility 3\n' > "$T_TMP/vw.txt"
run $PDNKIT analyze --variant russian --depth 3 --weights "$T_TMP/vw.txt"
expect_rc 0 "variant weights file"
run $PDNKIT analyze --variant international --depth 3 --weights "$T_TMP/vw.txt"
expect_rc 3 "weights of another variant"
expect_err_has "are not for International draughts (GameType 20): their gametype line says 25" "wrong variant explained"
printf 'king 250\n' > "$T_TMP/vw3.txt"
run $PDNKIT analyze --variant russian --depth 3 --weights "$T_TMP/vw3.txt"
expect_rc 3 "variant weights without their GameType"
expect_err_has "have no 'gametype 25' line" "the missing line named"
printf 'gametype 25\ntempo 3\n' > "$T_TMP/vw2.txt"
run $PDNKIT analyze --variant russian --depth 3 --weights "$T_TMP/vw2.txt"
expect_rc 3 "an English weight in a variant file"
expect_err_has "line 2: unknown weight 'tempo'" "unknown weight named"

# match --variant: the variant engines play every first move and reply with both
# colours; the deeper one wins; the games are valid PDN of that variant.
run $PDNKIT match --variant russian --a "--depth 4" --b "--depth 1" --games 12 -o "$T_TMP/vm.pdn" --json
expect_rc 0 "match --variant russian"
expect_out_has '{"variant":"russian","games":12,' "12 Russian games"
w=$(echo "$OUT" | sed -E 's/.*"wins":([0-9]+).*/\1/'); l=$(echo "$OUT" | sed -E 's/.*"losses":([0-9]+).*/\1/')
[ "$w" -gt "$((l + 6))" ] && pass || fail "depth 4 beats depth 1 clearly: $OUT"
expect_out_has '"elo":null' "an infinite Elo is JSON null" 
[ "$(grep -c '^\[GameType "25"\]' "$T_TMP/vm.pdn")" -eq 12 ] && pass || fail "each game says its GameType"
run $PDNKIT validate "$T_TMP/vm.pdn"
expect_err_has "12 games read: 12 valid, 0 with errors, 0 with warnings, 12 of other variants replayed" "the games replay under Russian rules"
grep -q '^1\. [a-h][1-8][-:][a-h][1-8] [a-h][1-8][-:][a-h][1-8] 2\. [a-h][1-8][-:][a-h][1-8] {\[%eval -\{0,1\}[0-9.]*\] \[%depth [14]\] \[%emt [0-9.]*\]} 2\.\.\. [a-h][1-8]' "$T_TMP/vm.pdn" && pass || fail "Russian notation from the start (the opening's plies first), numbered from White's move, with the engines' notes"
grep -q '^\[FEN' "$T_TMP/vm.pdn" && fail "a record of an opening from the start has a FEN" || pass
run $PDNKIT match --variant international --a "--depth 2" --b "--depth 2" --json
expect_rc 0 "a whole International match"
expect_out_has '"games":162,' "9 first moves x 9 replies x 2 colours"
run $PDNKIT match --variant russian --openings "$T_TMP/vm.pdn" --a "--depth 2" --b "--depth 2 --weights untuned" --concurrency 1 --json
expect_rc 0 "openings from a file of variant games"
expect_out_has '"games":24,' "each of its 12 games opens two"
run $PDNKIT match --variant international --a "--depth 2 --egdb-cache 8" --games 2
expect_rc 2 "English-only engine options refused"
expect_err_has "with --variant the engine takes --depth, --nodes, --movetime, --level, --hash, --weights, --patterns, --net, --features, --threads, --egdb and --book only" "said which"
run $PDNKIT match --variant international --a "--depth 3 --threads 2" --b "--depth 3" --games 2
expect_rc 0 "a variant engine on two threads"
# an even match says "0", never "-0" or "+0"
run $PDNKIT match --variant international --a "--depth 2" --b "--depth 2" --games 4
expect_out_has "Elo difference 0 (95%:" "an even score's Elo said as 0"
case $OUT in *"-0 "*|*"+0 "*|*"-0)"*|*"+0)"*) fail "a signed zero: $OUT" ;; *) pass ;; esac
run $PDNKIT match --variant frisian --a "--depth 3" --b "--depth 1" --games 12 -o "$T_TMP/fr.pdn" --json
expect_rc 0 "match --variant frisian"
expect_out_has '{"variant":"frisian","games":12,' "12 Frisian games"
[ "$(grep -c '^\[GameType "40"\]' "$T_TMP/fr.pdn")" -eq 12 ] && pass || fail "each game says GameType 40"
run $PDNKIT validate "$T_TMP/fr.pdn"
expect_err_has "12 games read: 12 valid, 0 with errors, 0 with warnings, 12 of other variants replayed" "the games replay under Frisian rules"

# solve: set-up positions of other variants, judged by the variant engine; "1-0" is the
# first mover's win (White's, in these).
cat > "$T_TMP/vp.pdn" <<'EOF'
[Event "Russian: two men against one"]
[GameType "25"]
[SetUp "1"]
[FEN "W:W29,30:B4"]
[Result "1-0"]
*

[Event "International: a king against a man that must walk into it"]
[GameType "20"]
[FEN "W:WK46:B5"]
[Result "1-0"]
*

[Event "International: two kings"]
[GameType "20"]
[FEN "W:WK1:BK50"]
[Result "1/2-1/2"]
*

[Event "International: Black to move wins"]
[GameType "20"]
[FEN "B:W46:B5,6,7"]
[Result "0-1"]
*

[Event "A record whose position was lost"]
[FEN "W::."]
[Result "1/2-1/2"]
*

[Event "International, no pieces"]
[GameType "20"]
[FEN "W:W:B"]
[Result "1/2-1/2"]
*
EOF
run $PDNKIT solve --depth 8 --json "$T_TMP/vp.pdn"
expect_rc 0 "solve variant positions"
expect_out_has '"positions":4,"correct":4,' "all four judged right"
expect_out_has '"skipped":2,' "the two empty set-up positions skipped, not judged"
expect_err_has "game 5 (A record whose position was lost): the set-up position has no pieces: skipped" "an empty English position said"
expect_err_has "game 6 (International, no pieces): the set-up position has no pieces: skipped" "an empty International position said"
expect_out_has '"variant":"russian","event":"Russian: two men against one","expected":"1-0","judged":"1-0"' "Russian named"
echo "$OUT" | grep '"game":1,' | grep -q '"bestmove":"[a-h][1-8]-[a-h][1-8]"' && pass || fail "Russian best move in its notation"

# tune --variant: the variant engine's weights fitted to its games, cross-validated.
if have_corpora "Russian games of 1947"; then
	run "$PDNKIT" tune --variant russian --epochs 40 --folds 3 --ridge auto -o "$T_TMP/ru.txt" "$CORPORA/ussr1947.pdn"
	expect_rc 0 "tune --variant russian"
	expect_out_has "from 153 games" "every decided or drawn game of the file"
	expect_out_has "cross-validated over 3 folds" "the folds reported"
	[ "$(echo "$OUT" | grep -c '(chosen)')" -eq 1 ] && pass || fail "one ridge chosen: $OUT"
	grep -q '^gametype *25$' "$T_TMP/ru.txt" && pass || fail "the file names its variant"
	run $PDNKIT analyze --variant russian --depth 3 --weights "$T_TMP/ru.txt"
	expect_rc 0 "fitted variant weights load"
	run "$PDNKIT" tune --variant russian "$CORPORA/wk2003.pdn"
	expect_rc 3 "no Russian game in an International file"
	expect_err_has "too few positions to fit (0)" "said so"
	run "$PDNKIT" tune --variant russian --ridge auto "$CORPORA/ussr1947.pdn"
	expect_rc 2 "--ridge auto needs --folds"
fi
# tune --variant on self-play games set up after their opening with Black to move: the
# features are read from the view of the side "1-0" names (White), as the result is, so
# the engine's own weights predict the results better than a coin (read from the side to
# move, they predicted worse: held-out log loss 0.747).
SELFPLAY_INT="$TESTS_DIR/../corpora/selfplay/international-d6-seed8.pdn.zst"
if [ -f "$SELFPLAY_INT" ]; then
	run "$PDNKIT" tune --variant international --epochs 1 "$SELFPLAY_INT"
	expect_rc 0 "tune --variant international on self-play games"
	before=$(echo "$OUT" | awk '$1 == "held" && $2 == "out" { print $3 }')
	awk -v l="$before" 'BEGIN { exit !(l > 0.3 && l < 0.65) }' && pass || fail "held-out log loss of the engine's weights $before, not below 0.65"
fi
# pdnkit engine (Hub): every field of an info line is name=value, as Hub clients read
# it (a book move says book=true); bad values answer error and keep what was set; a
# refused pos or init leaves go to answer an error, then done.
OUT=$(printf 'hub\ninit\npos start\ngo\nquit\n' | "$PDNKIT" engine --egdb none 2>/dev/null)
expect_out_has 'book=true' "a book move is said as book=true"
bad=$(echo "$OUT" | grep '^info' | sed -E 's/"[^"]*"//g' | tr ' ' '\n' | grep -v '^info$' | grep -v '=' | head -1)
[ -z "$bad" ] && pass || fail "an info field that is not name=value: [$bad] in [$OUT]"
OUT=$(printf 'set-param name=hash value=0\nset-param name=threads value=99\nset-param name=book value=maybe\nset-param name=notation value=fen\ninit\nlevel depth=abc\nlevel depth=-2\nlevel depth=99999999999\nlevel move-time=-1\nlevel time=10 moves=0\nlevel inc=1\nquit\n' | "$PDNKIT" engine --egdb none 2>/dev/null)
for want in 'set-param hash=0: a whole number from 1 to 65536' 'set-param threads=99: a whole number from 1 to 64' \
	'set-param book=maybe: true or false' 'set-param notation=fen: hub or pdn' 'level depth=abc: a whole number' \
	'level depth=-2:' 'level depth=99999999999:' 'level move-time=-1:' 'level moves=0:' 'level: moves= and inc= go with time='; do
	expect_out_has "error message=\"$want" "Hub: $want"
done
expect_out_has 'ready' "init after refused parameters uses the previous ones"
OUT=$(printf 'level depth=abc\nlevel depth=2\nlevel depth=xyz\npos start moves="9-14"\ngo\nquit\n' | "$PDNKIT" engine --egdb none --no-book 2>/dev/null)
echo "$OUT" | grep '^info depth=' | grep -qv '^info depth=[12] ' && fail "a refused level changed the depth: $OUT" || pass
expect_out_has 'done move=' "the engine plays at the level kept"
OUT=$(printf 'pos start\npos pos=Bxyz\ngo\npos pos=Wwwwweeeeeeeeeeeeeeeeeeeeeeeebbbb\ngo\npos pos=Beeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\ngo\npos start moves="11-15 12-16"\ngo\nquit\n' | "$PDNKIT" engine --egdb none 2>/dev/null)
[ "$(echo "$OUT" | grep -c '^error message="go: no position')" = 4 ] && pass || fail "go after a refused pos: [$OUT]"
[ "$(echo "$OUT" | grep -c '^done$')" = 4 ] && pass || fail "every go ends with done: [$OUT]"
expect_out_has 'a white man on its crowning row' "a man on its crowning row is refused at pos"
expect_out_has 'no pieces on the board' "an empty board is refused at pos"
OUT=$(printf 'set-param name=egdb value=/nonexistent/egdb\ninit\ngo\ngo\nquit\n' | "$PDNKIT" engine 2>/dev/null)
expect_out_has 'error message="init:' "a failed init says error"
[ "$(echo "$OUT" | grep -c '^done')" = 2 ] && pass || fail "go after a failed init ends with done: [$OUT]"

# tune -o is checked before the fit: the weights built in (book/weights.txt) are not
# overwritten unless forced, and an output that cannot be written is said at once.
cp "$TESTS_DIR/../book/weights.txt" "$T_TMP/shipped.txt"
run "$PDNKIT" tune -o "$T_TMP/shipped.txt" "$TESTS_DIR/../corpora/fixtures/result-in-moves.pdn"
expect_rc 3 "tune -o onto the built-in weights"
expect_err_has "holds the weights built into this pdnkit" "said"
cmp -s "$TESTS_DIR/../book/weights.txt" "$T_TMP/shipped.txt" && pass || fail "the built-in weights were overwritten"
run "$PDNKIT" tune -o /nonexistent/dir/w.txt "$TESTS_DIR/../corpora/fixtures/result-in-moves.pdn"
expect_rc 3 "tune -o into a missing directory"
expect_err_has "cannot write '/nonexistent/dir/w.txt'" "said before the fit"
expect_out "" "nothing fitted before the output was found unwritable"
# match interrupted: the finished games are counted, shown and written; the message says
# how far it got; the exit status is 128 + the signal.
"$PDNKIT" match --a "--depth 8 --egdb none" --b "--depth 7 --egdb none" -o "$T_TMP/int.pdn" >"$T_TMP/int.out" 2>"$T_TMP/int.err" &
mp=$!
sleep 2
kill -INT $mp
wait $mp
mrc=$?
[ $mrc -eq 130 ] && pass || fail "match interrupted: exit status $mrc, want 130"
grep -q "pdnkit match: interrupted after [0-9]* of 604 games; the finished games are counted and written" "$T_TMP/int.err" && pass ||
	fail "match interrupted: $(cat "$T_TMP/int.err")"
n=$(sed -n 's/^\([0-9]*\) games: A won.*/\1/p' "$T_TMP/int.out")
[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$(grep -c '^\[Event' "$T_TMP/int.pdn")" = "$n" ] && pass ||
	fail "match interrupted: $n games counted, $(grep -c '^\[Event' "$T_TMP/int.pdn" 2>/dev/null) written"
run "$PDNKIT" validate "$T_TMP/int.pdn"
expect_err_has "0 with errors, 0 with warnings" "the games of an interrupted match validate (no ambiguous jump either)"
# --resume: a match goes on from the games its record holds; the result is the one of an
# uninterrupted run (searches to a fixed depth play the same games), each round once.
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --ballots acf3 --games 10 -c 2 --adjudicate none -o "$T_TMP/full.pdn" -j
full=$(echo "$OUT" | sed -E 's/.*("wins":[0-9]+,"draws":[0-9]+,"losses":[0-9]+).*/\1/')
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --ballots acf3 --games 6 -c 2 --adjudicate none -o "$T_TMP/res.pdn"
expect_rc 0 "the first part of a match"
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --ballots acf3 --games 10 -c 2 --adjudicate none -o "$T_TMP/res.pdn" --resume
expect_rc 0 "the match resumed"
expect_out_has "resumed: 6 of 10 games read from $T_TMP/res.pdn" "the games read are said"
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --ballots acf3 --games 10 -c 2 --adjudicate none -o "$T_TMP/res.pdn" --resume -j
expect_out_has "$full" "resumed, the score of the uninterrupted run ($full)"
expect_out_has '"resumed":10,' "a finished match resumed plays nothing"
[ "$(grep '^\[Round' "$T_TMP/res.pdn" | sort -u | wc -l)" = 10 ] && [ "$(grep -c '^\[Round' "$T_TMP/res.pdn")" = 10 ] && pass ||
	fail "rounds 1-10 once each: $(grep '^\[Round' "$T_TMP/res.pdn" | tr '\n' ' ')"
run "$PDNKIT" validate "$T_TMP/res.pdn"
expect_err_has "10 games read: 10 valid, 0 with errors" "the resumed record validates"
run "$PDNKIT" match --a "--depth 4" --b "--depth 2" --ballots acf3 --games 10 -o "$T_TMP/res.pdn" --resume
expect_rc 1 "another match's record refused"
expect_err_has "its players are not this match's engines with those colours; nothing played" "the reason named"
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --games 10 -o "$T_TMP/res.pdn" --resume
expect_err_has "its opening is not this round's opening of the deck" "another deck refused"
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --ballots acf3 --games 4 -o "$T_TMP/res.pdn" --resume
expect_err_has "its round is past the games of this match" "fewer games than the record refused"
run "$PDNKIT" match --a "--depth 3" --b "--depth 2" --games 4 --resume
expect_rc 2 "--resume without -o"
# An output that cannot be written is said before hours of work, not after.
for cmd in "match --a --depth=8 --b --depth=8" "book expand -n 1000" "report --depth 12 $TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"; do
	# shellcheck disable=SC2086
	run timeout 5 "$PDNKIT" $cmd -o /nonexistent/dir/out.x
	expect_rc 3 "$cmd -o into a missing directory: said at once"
	expect_err_has "cannot write '/nonexistent/dir/out.x'" "$cmd: the output named"
done
done_testing
