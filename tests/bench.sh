#!/bin/sh
# make bench: the figures that matter, with the machine they were measured on.
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
