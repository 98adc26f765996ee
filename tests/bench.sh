#!/bin/sh
# make bench: the figures that matter, with the machine they were measured on.
# (about 45 minutes with the GuiNN match over the whole deck; BENCH_GUINN=0 skips it)
# Every perft count is checked against OEIS A133046 as it is measured.
PDNKIT=${1:-./pdnkit}
BUILD=${BUILD:-build}
CORPORA=${CORPORA:-../shared/corpora}
cores=$(nproc 2>/dev/null || echo '?')
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
echo "pdnkit bench: $cores cores, ${cpu:-unknown CPU}, $(date -u +%Y-%m-%d)"

field() { echo "$1" | sed -E "s/.*\"$2\":([0-9.]+).*/\1/"; }
now() { date +%s.%N; }
# best wall time of 5 runs of a command, in seconds
best_of_5() {
	best=
	for i in 1 2 3 4 5; do
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		best=$(echo "$t0 $t1 $best" | awk '{ t = $2 - $1; if ($3 == "" || t < $3) print t; else print $3 }')
	done
	echo "$best"
}

echo
echo "validate (whole process, cold start, best of 5; one core):"
if [ -f "$CORPORA/OCA_2.0.pdn" ]; then
	for f in OCA_2.0.pdn tinsley.pdn; do
		games=$(grep -c '^\[Event' "$CORPORA/$f")
		bytes=$(wc -c < "$CORPORA/$f")
		t=$(best_of_5 "$PDNKIT" validate "$CORPORA/$f")
		base=$(best_of_5 cat "$CORPORA/$f")
		printf '  %-13s %6d games %6.2f MB  %6.3f s  %8.0f games/s  %6.1f MB/s  (%.0fx the time of cat)\n' \
			"$f" "$games" "$(echo "$bytes" | awk '{print $1/1e6}')" "$t" \
			"$(echo "$games $t" | awk '{print $1/$2}')" "$(echo "$bytes $t" | awk '{print $1/1e6/$2}')" \
			"$(echo "$t $base" | awk '{print $1/$2}')"
	done
	t=$(best_of_5 "$PDNKIT" convert -o /dev/null "$CORPORA/OCA_2.0.pdn")
	printf '  convert OCA_2.0.pdn to canonical PDN: %.3f s, %.0f games/s\n' "$t" "$(echo "22621 $t" | awk '{print $1/$2}')"
else
	echo "  (skipped: $CORPORA not found)"
fi

echo
echo "store (whole process, cold start: a new database each time, best of 3):"
if [ -f "$CORPORA/OCA_2.0.pdn" ]; then
	tmpd=$(mktemp -d)
	best3() { # command...; prints the best wall time, removing the database before each run
		b=
		for i in 1 2 3; do
			rm -f "$tmpd"/o.db*
			t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
			b=$(echo "$t0 $t1 $b" | awk '{ t = $2 - $1; if ($3 == "" || t < $3) print t; else print $3 }')
		done
		echo "$b"
	}
	tv=$(best_of_5 "$PDNKIT" validate "$CORPORA/OCA_2.0.pdn")
	tn=$(best3 "$PDNKIT" import --no-positions --db "$tmpd/o.db" "$CORPORA/OCA_2.0.pdn")
	ti=$(best3 "$PDNKIT" import --db "$tmpd/o.db" "$CORPORA/OCA_2.0.pdn")
	size=$(du -k "$tmpd/o.db" | cut -f1)
	printf '  import OCA_2.0.pdn with the position index: %.2f s, %.0f games/s (target: at most 1.0 s)\n' "$ti" "$(echo "22621 $ti" | awk '{print $1/$2}')"
	printf '    without positions %.2f s; validating alone %.2f s: storing costs %.1fx the replay, the index %.1fx\n' \
		"$tn" "$tv" "$(echo "$tn $tv" | awk '{print $1/$2}')" "$(echo "$ti $tn" | awk '{print $1/$2}')"
	printf '    database %.1f MB, %.0f bytes per game, every position indexed\n' "$(echo "$size" | awk '{print $1/1024}')" \
		"$(echo "$size" | awk '{print $1*1024/22621}')"
	tr=$(best_of_5 "$PDNKIT" import --db "$tmpd/o.db" "$CORPORA/OCA_2.0.pdn")
	printf '  re-import (all duplicates): %.2f s\n' "$tr"
	tq=$(best_of_5 "$PDNKIT" query --db "$tmpd/o.db" --after "11-15 23-19 8-11 22-17 9-13" --format count)
	n=$("$PDNKIT" query --db "$tmpd/o.db" --after "11-15 23-19 8-11 22-17 9-13" --format count)
	printf '  position query (%s games reach it), whole process: %.1f ms (target: under 3 ms)\n' "$n" "$(echo "$tq" | awk '{print $1*1000}')"
	tq=$(best_of_5 "$PDNKIT" query --db "$tmpd/o.db" --player tinsley --format count)
	printf '  player query, whole process: %.1f ms\n' "$(echo "$tq" | awk '{print $1*1000}')"
	"$PDNKIT" import --db "$tmpd/o.db" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
	tq=$(best_of_5 "$PDNKIT" query --db "$tmpd/o.db" --duplicates)
	n=$("$PDNKIT" query --db "$tmpd/o.db" --duplicates | grep -c "^[a-z]")
	printf '  query --duplicates of OCA + tinsley.pdn (%s sets and pairs), whole process: %.2f s (target: under 1 s)\n' "$n" "$tq"
	te=$(best_of_5 "$PDNKIT" export --db "$tmpd/o.db" -o /dev/null)
	printf '  export all: %.2f s\n' "$te"

	scale=${BENCH_SCALE:-1000000}
	if [ "$scale" -gt 0 ]; then
		make -s "$BUILD/tests/gen_games" >/dev/null 2>&1
		"$BUILD/tests/gen_games" "$scale" 7 > "$tmpd/random.pdn"
		rm -f "$tmpd"/o.db*
		# the peak memory (resident) by /usr/bin/time when there is one
		timed=""
		[ -x /usr/bin/time ] && timed="/usr/bin/time -f %M -o $tmpd/mem"
		t0=$(now); $timed "$PDNKIT" import --json --db "$tmpd/o.db" "$tmpd/random.pdn" >"$tmpd/import.json" 2>"$tmpd/import.err"
		irc=$?; t1=$(now)
		[ $irc -eq 0 ] || { echo "  scale: import FAILED (exit $irc): $(tail -2 "$tmpd/import.err")"; }
		t=$(echo "$t0 $t1" | awk '{print $2-$1}')
		size=$(du -k "$tmpd/o.db" | cut -f1)
		plies=$(sed -E 's/.*"stored":([0-9]+).*/\1/' "$tmpd/import.json")
		printf '  scale: %s random legal games (%.0f MB of PDN) imported in %.1f s, %.0f games/s\n' "$plies" \
			"$(du -k "$tmpd/random.pdn" | cut -f1 | awk '{print $1/1024}')" "$t" "$(echo "$plies $t" | awk '{print $1/$2}')"
		printf '    database %.0f MB, %.0f bytes per game\n' "$(echo "$size" | awk '{print $1/1024}')" "$(echo "$size $plies" | awk '{print $1*1024/$2}')"
		[ -s "$tmpd/mem" ] && printf '    import peak memory %.0f MB\n' "$(tail -1 "$tmpd/mem" | awk '{print $1/1024}')"
		for q in "--player=Able" "--date-from=1950-03-01 --date-to=1950-03-02" "--result=1-0 --max-plies=25"; do
			tq=$(best_of_5 "$PDNKIT" query --db "$tmpd/o.db" $q --format count)
			printf '    query %s (%s games), whole process: %.1f ms\n' "$q" "$("$PDNKIT" query --db "$tmpd/o.db" $q --format count)" "$(echo "$tq" | awk '{print $1*1000}')"
		done
		tq=$(best_of_5 "$PDNKIT" query --db "$tmpd/o.db" --after "11-15 23-19 8-11 22-17 9-13" --format count)
		n=$("$PDNKIT" query --db "$tmpd/o.db" --after "11-15 23-19 8-11 22-17 9-13" --format count)
		printf '    position query (%s games reach it), whole process: %.1f ms\n' "$n" "$(echo "$tq" | awk '{print $1*1000}')"
		tq=$(best_of_5 "$PDNKIT" query --db "$tmpd/o.db" --after "9-14 22-18" --format count)
		n=$("$PDNKIT" query --db "$tmpd/o.db" --after "9-14 22-18" --format count)
		printf '    position query (%s games reach it), whole process: %.1f ms\n' "$n" "$(echo "$tq" | awk '{print $1*1000}')"
		t0=$(now); n=$("$PDNKIT" query --db "$tmpd/o.db" --duplicates | grep -c "^[a-z]"); t1=$(now)
		printf '    query --duplicates (%s sets and pairs), whole process: %.1f s\n' "$n" "$(echo "$t0 $t1" | awk '{print $2-$1}')"
	fi
	rm -rf "$tmpd"
else
	echo "  (skipped: $CORPORA not found)"
fi

echo
echo "engine (one thread):"
"$PDNKIT" bench | sed 's/^/  /'
j=$("$PDNKIT" analyze --movetime 5 --json | tail -1)
printf '  from the start in 5 s: depth %s, %s nodes (target: depth 19 or more)\n' \
	"$(echo "$j" | sed -E 's/.*"depth":([0-9]+).*/\1/')" "$(echo "$j" | sed -E 's/.*"nodes":([0-9]+).*/\1/')"
j=$("$PDNKIT" analyze --movetime 5 --threads 2 --json | tail -1)
printf '  two threads, from the start in 5 s: depth %s\n' "$(echo "$j" | sed -E 's/.*"depth":([0-9]+).*/\1/')"
# Time to depth with one and two threads: the start, game 37 of 1981 after 10 moves, a
# middle game (two-thread searches vary from run to run: each is run twice).
sum1=0; sum2=0
for pd in "B:W21-32:B1-12 20" "B:W5,18,21,22,23,24,25,26,29,31:B1,2,3,4,6,7,8,11,12,20,27 21" \
	  "W:W13,17,18,21,22,23,25,26,29,30,31:B1,2,3,4,6,8,9,10,11,14,15,16 21"; do
	set -- $pd
	t1=$("$PDNKIT" analyze --fen "$1" --depth "$2" --json | tail -1 | sed -E 's/.*"seconds":([0-9.]+).*/\1/')
	t2a=$("$PDNKIT" analyze --fen "$1" --depth "$2" --threads 2 --json | tail -1 | sed -E 's/.*"seconds":([0-9.]+).*/\1/')
	t2b=$("$PDNKIT" analyze --fen "$1" --depth "$2" --threads 2 --json | tail -1 | sed -E 's/.*"seconds":([0-9.]+).*/\1/')
	t2=$(echo "$t2a $t2b" | awk '{print ($1+$2)/2}')
	printf '  time to depth %s of %s: one thread %s s, two threads %.2f s (%.2fx)\n' "$2" "$1" "$t1" "$t2" \
		"$(echo "$t1 $t2" | awk '{print $1/$2}')"
	sum1=$(echo "$sum1 $t1" | awk '{print $1+$2}'); sum2=$(echo "$sum2 $t2" | awk '{print $1+$2}')
done
printf '  time to depth, the three together: %.2fx from the second thread\n' "$(echo "$sum1 $sum2" | awk '{print $1/$2}')"
if [ "${BENCH_SOLVE:-1}" != 0 ] && [ -d "$CORPORA/wiegerw-pdn-games/succeed" ]; then
	echo "  (without endgame databases; with them below)"
	for f in goulds.pdn gem.pdn bridges.pdn; do
		r=$("$PDNKIT" solve --egdb none --movetime "${BENCH_SOLVE_TIME:-1}" --quiet "$CORPORA/wiegerw-pdn-games/succeed/$f")
		printf '  solve %-12s at %s s a position: %s\n' "$f" "${BENCH_SOLVE_TIME:-1}" "$r"
	done
fi

echo
echo "endgame databases:"
EG="$(mktemp -d)"
t0=$(now)
"$PDNKIT" egdb build --pieces 5 --dir "$EG" --quiet
t1=$(now)
printf '  built up to 5 pieces from nothing: %.1f s\n' "$(echo "$t0 $t1" | awk '{print $2-$1}')"
"$PDNKIT" egdb stats --dir "$EG" | sed 's/^/  /'
# 6 pieces take 15 minutes: measured by `make egdb` into the default directory, read here.
FULL="${PDNKIT_EGDB:-${XDG_DATA_HOME:-$HOME/.local/share}/pdnkit/egdb}"
if "$PDNKIT" egdb stats --dir "$FULL" 2>/dev/null | grep -q "complete up to [6-8] pieces"; then
	echo "  up to 6 pieces, as built by make egdb in $FULL:"
	"$PDNKIT" egdb stats --dir "$FULL" | sed 's/^/  /'
	printf '  all files: %s bytes (target: at most 100 MB; 6 pieces built in at most 60 minutes)\n' \
		"$(cat "$FULL"/*.egdb | wc -c)"
	DB="$FULL"
else
	echo "  6 pieces: not measured here (run make egdb first, 15 minutes)"
	DB="$EG"
fi
# Known positions of the literature: three kings against two, either to move, and
# Strickland's "Negative Second Position" (6 pieces), Black to play and win.
for k in "W:WK22,K23,K24:BK31,K32|White wins" "B:WK22,K23,K24:BK31,K32|White wins" "B:WK28,13,12:BK15,5,3|Black wins"; do
	f=${k%%|*}; want=${k#*|}
	got=$("$PDNKIT" egdb probe --dir "$DB" "$f" 2>&1)
	case $got in *"$want"*) ok=OK ;; *) ok="MISMATCH (want $want)" ;; esac
	printf '  known position %s  %s\n' "$got" "$ok"
done
"$PDNKIT" egdb stats --dir "$DB" --measure 5000 | grep '^probe' | sed 's/^/  /'
t0=$(now); "$PDNKIT" egdb verify --dir "$EG" --sample 20000 | sed 's/^/  verify --sample 20000: /'
# Nodes a second of the search in an ending, without and with probing.
for e in none "$DB"; do
	j=$("$PDNKIT" analyze --egdb "$e" --fen "B:W18,22,25,29,K9:B5,6,13,K30" --movetime 5 --json | grep bestmove)
	printf '  ending of 9 pieces, 5 s, egdb %-4s: depth %s, %s nodes/s, score %s\n' "$([ "$e" = none ] && echo off || echo on)" \
		"$(field "$j" depth)" "$(echo "$j" | awk -F'"nodes":' '{split($2,a,","); print a[1]}' | awk -v s=5 '{printf "%.0f", $1/s}')" \
		"$(echo "$j" | sed -E 's/.*"score":(-?[0-9]+).*/\1/')"
done
if [ "${BENCH_SOLVE:-1}" != 0 ] && [ -d "$CORPORA/wiegerw-pdn-games/succeed" ]; then
	# one thread, then both cores of this machine (BENCH_SOLVE_THREADS)
	for th in ${BENCH_SOLVE_THREADS:-1 2}; do
		for f in goulds.pdn gem.pdn bridges.pdn; do
			r=$("$PDNKIT" solve --egdb "$DB" --threads "$th" --movetime "${BENCH_SOLVE_TIME:-1}" --quiet "$CORPORA/wiegerw-pdn-games/succeed/$f")
			printf '  solve %-12s at %s s a position, with the databases, %s thread(s): %s\n' "$f" "${BENCH_SOLVE_TIME:-1}" "$th" "$r"
		done
	done
fi
if [ "${BENCH_MATCH:-0}" != 0 ]; then
	"$PDNKIT" match --a "--nodes 30000 --egdb $DB" --b "--nodes 30000 --egdb none" | tail -3 | sed 's/^/  match, databases on against off: /'
fi
rm -rf "$EG"

# Against a peer: GuiNN 2.06 (../shared/peers/guinn, built here with g++) through the
# CheckerBoard interface, the ACF deck with both colours at 0.1 s a move. BENCH_GUINN=0
# skips it; BENCH_GUINN_GAMES (default 312, the whole deck) plays fewer.
peer="$CORPORA/../peers/guinn/build.sh"
if [ "${BENCH_GUINN:-1}" != 0 ] && [ -f "$peer" ] && command -v g++ >/dev/null; then
	echo
	echo "against GuiNN 2.06 (a CheckerBoard library, no book, no databases), 0.1 s a move, the ACF deck:"
	gdir=$(mktemp -d)
	if sh "$peer" "$gdir" >/dev/null 2>&1; then
		"$PDNKIT" match --engine "pdnkit:--egdb none" --engine "cb:$gdir/libguinn-cb.so" --time 0.1 --ballots acf3 \
			--games "${BENCH_GUINN_GAMES:-312}" -c "$cores" --adjudicate none 2>/dev/null | sed 's/^/  /'
		# The annotation's trust: of the mistakes and blunders the default annotation flags
		# in the 1981 match, how many GuiNN at 1 s plays itself (the goal: at most 15%).
		if [ -f "$CORPORA/tinsley.pdn" ]; then
			tdb=$(mktemp -d)
			"$PDNKIT" import --db "$tdb/t.db" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
			"$PDNKIT" annotate --db "$tdb/t.db" --event "Petal 1981, game" --quiet 2>/dev/null
			"$PDNKIT" blunders --db "$tdb/t.db" --event "Petal 1981, game" --min-loss 50 --limit 1000 \
				--second-opinion "cb:$gdir/libguinn-cb.so" --second-time 1 2>&1 >/dev/null |
				sed -n 's/^blunders: /  the 1981 match annotated at the defaults, mistakes and blunders: /p'
			rm -rf "$tdb"
		fi
		# The problem sets judged by GuiNN itself at the same time a position (it has no
		# databases here): what the goals of the solve lines above mean against a peer.
		if [ "${BENCH_SOLVE:-1}" != 0 ] && [ -d "$CORPORA/wiegerw-pdn-games/succeed" ]; then
			for f in goulds.pdn gem.pdn bridges.pdn; do
				r=$("$PDNKIT" solve --engine "cb:$gdir/libguinn-cb.so" --movetime "${BENCH_SOLVE_TIME:-1}" --quiet \
					"$CORPORA/wiegerw-pdn-games/succeed/$f" 2>/dev/null)
				printf '  GuiNN solves %-12s at %s s a position: %s\n' "$f" "${BENCH_SOLVE_TIME:-1}" "$r"
			done
		fi
	else
		echo "  (GuiNN did not build)"
	fi
	rm -rf "$gdir"
fi

echo
echo "annotate: the 37 games of the 1981 Tinsley-Long match (tinsley.pdn, \"Petal 1981, game N\"):"
if [ -f "$CORPORA/tinsley.pdn" ]; then
	tmpa=$(mktemp -d)
	"$PDNKIT" import --db "$tmpa/t.db" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
	depth=${BENCH_ANNOTATE_DEPTH:-10}
	for t in 1 2; do
		rm -f "$tmpa/a$t.db"; cp "$tmpa/t.db" "$tmpa/a$t.db"
		"$PDNKIT" annotate --db "$tmpa/a$t.db" --event "Petal 1981, game" --depth "$depth" --threads $t --quiet 2>"$tmpa/e$t"
		r=$(sed -nE 's/.*; ([0-9]+) positions in ([0-9.]+) s \(([0-9.]+) positions\/s\).*/\1 \2 \3/p' "$tmpa/e$t")
		printf '  depth %s, %s thread(s): %s positions in %s s, %s positions/s\n' "$depth" "$t" $r
		eval "rate$t=$(echo $r | awk '{print $3}')"
	done
	printf '  speed-up from the second thread: %.2fx (target 1.8x)\n' "$(echo "$rate2 $rate1" | awk '{print $1/$2}')"
	rm -rf "$tmpa"
else
	echo "  (skipped: $CORPORA/tinsley.pdn not found)"
fi

echo
echo "opening books from OCA 2.0 (bits a move: the tree with its moves and links; the statistics apart):"
if [ -f "$CORPORA/OCA_2.0.pdn" ]; then
	tmpb=$(mktemp -d)
	for p in 10 20 30 40; do
		j=$("$PDNKIT" book build "$CORPORA/OCA_2.0.pdn" --plies $p -o "$tmpb/oca$p.book" --json)
		printf '  %2s plies: %7s moves in %7s positions, tree %s bits a move, statistics %s, %s bytes; built in %s s\n' \
			$p "$(field "$j" moves)" "$(field "$j" positions_with_moves)" "$(field "$j" bits_per_move)" \
			"$(field "$j" stats_bits_per_move)" "$(field "$j" bytes)" "$(field "$j" seconds)"
	done
	j=$("$PDNKIT" book stats --measure --json "$tmpb/oca40.book")
	printf '  40 plies: load %s s; probe %s us a position; the same content as text, zstd -19: %s bytes = %s bits a move (this file: %s)\n' \
		"$(field "$j" load_seconds)" "$(field "$j" probe_us)" "$(field "$j" text_zstd_bytes)" \
		"$(field "$j" text_zstd_bits_per_move)" "$(field "$j" book_bits_per_move)"
	if [ "${BENCH_BOOK_MATCH:-1}" != 0 ]; then
		echo "  match, the engine with its shipped book (book/pdnkit.book: master games) against without, 30000 nodes:"
		"$PDNKIT" match --a "--nodes 30000" --b "--nodes 30000 --book none" --concurrency "$cores" | sed 's/^/    /'
		"$PDNKIT" book expand --engine-options "--depth 12" --positions 1500 --quiet -o "$tmpb/grown.book" >/dev/null
		echo "  match, a book the engine grew itself (book expand, 1500 positions at depth 12) against without, 30000 nodes:"
		"$PDNKIT" match --a "--nodes 30000 --book $tmpb/grown.book" --b "--nodes 30000 --book none" --concurrency "$cores" | sed 's/^/    /'
	fi
	rm -rf "$tmpb"
else
	echo "  (skipped: $CORPORA/OCA_2.0.pdn not found)"
fi

echo
echo "perft from the start position (bulk counting at the last ply):"
perft_line() { # depth threads unique want
	opts="--json --threads $2"
	[ "$3" = unique ] && opts="$opts --unique"
	j=$("$PDNKIT" perft $opts "$1")
	n=$(field "$j" nodes)
	r=$(field "$j" nodes_per_second)
	s=$(field "$j" seconds)
	ok=OK; [ "$n" = "$4" ] || ok="MISMATCH (want $4)"
	printf '  perft(%d) %-7s %d thread%s %13s nodes %7.2f s %8.1f M nodes/s  %s\n' \
		"$1" "$3" "$2" "$([ "$2" -gt 1 ] && echo s || echo ' ')" "$n" "$s" \
		"$(echo "$r" | awk '{print $1/1e6}')" "$ok"
	LAST_RATE=$r
}
make -s "$BUILD/tests/bench_naive" >/dev/null 2>&1 || cc -O2 -o "$BUILD/tests/bench_naive" tests/bench_naive.c tests/naive.c
base=$("$BUILD/tests/bench_naive" 9)
base_rate=$(field "$base" nodes_per_second)
perft_line 9 1 all 3963680
printf '  baseline: array generator (tests/naive.c), perft(9): %.1f M nodes/s; bitboard generator is %.0fx faster\n' \
	"$(echo "$base_rate" | awk '{print $1/1e6}')" "$(echo "$LAST_RATE $base_rate" | awk '{print $1/$2}')"
perft_line 12 1 all 388623673
one=$LAST_RATE
perft_line 12 2 all 388623673
printf '  two threads vs one at depth 12: %.2fx\n' "$(echo "$LAST_RATE $one" | awk '{print $1/$2}')"
perft_line 12 1 unique 388617999
perft_line 13 1 all 1766623630
perft_line 13 2 all 1766623630
perft_line 13 2 unique 1766564893

echo "the other variants' generators from the start, one thread (the general one of rules/variant.c; International's bitboards):"
vperft_line() { # variant depth want [generator]
	j=$("$PDNKIT" perft --json --variant "$1" --generator "${4:-mailbox}" "$2")
	n=$(field "$j" nodes)
	s=$(field "$j" seconds)
	ok=$([ "$n" = "$3" ] && echo ok || echo "WRONG, want $3")
	printf '  %-14s perft(%d) %-9s %13s nodes %7.2f s %8.1f M nodes/s  %s\n' "$1" "$2" "${4:-mailbox}" "$n" "$s" \
		"$(echo "$n $s" | awk '{ print ($2 > 0 ? $1 / $2 / 1e6 : 0) }')" "$ok"
	VLAST=$(echo "$n $s" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')
}
vperft_line international 8 6483961
mail=$VLAST
vperft_line international 8 6483961 bitboards
printf '  International on the bitboards (rules/vbits.c, the search'"'"'s generator) against the general one: %.2fx\n' \
	"$(echo "$VLAST $mail" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
vperft_line english 10 18391564
printf '  English through the general generator against the bitboard core at depth 10: %.0fx slower\n' \
	"$(echo "$one $VLAST" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
# pdnkit serve: the latency of the main API calls on the OCA store, 50 clients at a time
# (curl's parallel transfers, a new connection each; time from connect to the last byte).
if [ -f "$CORPORA/OCA_2.0.pdn" ] && command -v curl >/dev/null 2>&1; then
	echo "serve (OCA 2.0 store; the first answer alone, then 1,000 requests a call from 50 clients at a time, answers"
	echo "  kept while the store is unchanged: first / p50 / p99 / requests a second):"
	tmps=$(mktemp -d)
	"$PDNKIT" import --db "$tmps/s.db" "$CORPORA/OCA_2.0.pdn" >/dev/null 2>&1
	"$PDNKIT" serve --db "$tmps/s.db" --port 0 --port-file "$tmps/port" --quiet --egdb none --max-connections 512 2>/dev/null &
	spid=$!
	i=0; while [ ! -s "$tmps/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	u="http://127.0.0.1:$(cat "$tmps/port")"
	for call in "games?limit=50" "games?player=tinsley&order=date&offset=200" "game?id=18069" \
		"explorer?moves=11-15+23-19" "explorer?moves=9-14+22-18+5-9" "position?moves=11-15+23-19+8-11" "players?limit=100" "stats"; do
		first=$(curl -s -o /dev/null -w '%{time_total}' "$u/api/$call")
		i=0; while [ $i -lt 1000 ]; do echo "url = \"$u/api/$call\""; echo "output = /dev/null"; i=$((i + 1)); done >"$tmps/urls"
		t0=$(now)
		curl -s -Z --parallel-max 50 -K "$tmps/urls" -w '%{http_code} %{time_total}\n' >"$tmps/t" 2>/dev/null
		t1=$(now)
		ok=$(grep -c '^200 ' "$tmps/t")
		sort -k2 -n "$tmps/t" | awk -v ok="$ok" -v c="$call" -v t0="$t0" -v t1="$t1" -v first="$first" \
			'{ v[NR] = $2 } END { printf "  %-44s %7.1f ms %7.1f ms %7.1f ms %6.0f/s  (%d of %d answered 200)\n", c, first*1000, v[int(NR*0.5)]*1000, v[int(NR*0.99)]*1000, NR/(t1-t0), ok, NR }'
	done
	kill -TERM $spid; wait $spid 2>/dev/null
	rm -rf "$tmps"
fi

echo "the other variants' engine (engine/vsearch), from the start, 5 s, one thread:"
for v in international russian brazilian italian turkish canadian frisian; do
	j=$("$PDNKIT" analyze --json --variant "$v" --movetime "${BENCH_VSEARCH_TIME:-5}" | grep '"nps"' | tail -1)
	printf '  %-14s depth %3s  %10s nodes/s\n' "$v" "$(field "$j" depth)" "$(field "$j" nps)"
done
if [ -f "$CORPORA/wk2003.pdn" ]; then
	echo "  validate wk2003.pdn: $("$PDNKIT" validate "$CORPORA/wk2003.pdn" 2>&1 | tail -1 | sed 's/^pdnkit validate: //')"
	echo "opening books of the other variants (all the corpora's games of each, 40 plies):"
	tmpv=$(mktemp -d)
	for v in international russian; do
		j=$("$PDNKIT" book build --variant $v "$CORPORA/wk2003.pdn" "$CORPORA/ussr1947.pdn" \
			"$CORPORA"/wiegerw-pdn-games/succeed/*.pdn -o "$tmpv/$v.book" --json 2>/dev/null)
		m=$("$PDNKIT" book stats --measure --json "$tmpv/$v.book")
		printf '  %-14s %4s games, %5s moves, tree %s bits a move (uniform choice %s, ordinals %s), statistics %s; %s bytes; probe %s us; as zstd -19 text %s bits a move\n' \
			$v "$(field "$j" games)" "$(field "$j" moves)" "$(field "$j" bits_per_move)" \
			"$(field "$j" uniform_bits_per_move)" "$(field "$j" ordinal_bits_per_move)" \
			"$(field "$j" stats_bits_per_move)" "$(field "$j" bytes)" "$(field "$m" probe_us)" \
			"$(field "$m" text_zstd_bits_per_move)"
	done
	rm -rf "$tmpv"
fi
