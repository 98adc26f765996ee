# pdnkit egdb: build (resumable, one slice, progress), probe (arguments, standard input,
# JSON, errors per line), stats, verify of everything up to 4 pieces, damaged files,
# and the databases at work in analyze, validate --egdb, import --egdb, solve and annotate;
# a partial level used where it has the slice.
. "$TESTS_DIR/lib.sh"
D="$T_TMP/egdb"

run "$PDNKIT" egdb
expect_rc 2 "egdb without a subcommand"
expect_err_has "usage: pdnkit egdb <build|probe|stats|verify|repack|agree>" "egdb lists its subcommands"
run "$PDNKIT" egdb frob
expect_rc 2 "unknown subcommand"
run "$PDNKIT" egdb build --pieces 9 --dir "$D"
expect_rc 2 "--pieces out of range"
run "$PDNKIT" egdb build --slice MMK-XK --dir "$D"
expect_rc 3 "a bad slice name"
expect_err_has "is not a slice name" "a bad slice name is explained"
run "$PDNKIT" egdb build --slice MMK-K --dir "$D"
expect_rc 3 "one slice before the slices it needs"
expect_err_has "which is not built yet" "the missing dependency is named"

run "$PDNKIT" egdb build --pieces 4 --dir "$D" --json
expect_rc 0 "build up to 4 pieces"
[ "$(ls "$D"/*.egdb | wc -l)" -eq 41 ] && pass || fail "41 slice files up to 4 pieces: $(ls "$D" | wc -l)"
expect_out_has '{"slice":"K-K","mirror":null,"positions":992,' "a JSON line for each pair"
[ -z "$(ls "$D" | grep -v '\.egdb$')" ] && pass || fail "no temporary files left: $(ls "$D")"
# Within a level the even splits come first (two against two before three against one).
order=$(sed -n 's/^{"slice":"\([KM]*\)-\([KM]*\)".*/\1-\2/p' "$T_TMP/out" |
	awk -F- 'length($1) + length($2) == 4 { printf "%d", (length($1) < length($2) ? length($1) : length($2)) }')
[ "$order" = "22222211111111" ] && pass || fail "4-piece pairs by the weaker side's pieces: $order"

# The solver written apart from the builder (tests/egdb_apart.c: the naive generator, a
# graph of the positions each sample reaches without a capture or a crowning, solved by
# counting) agrees with every 4- and 3-piece position it solves; a comparison made wrong
# on purpose is found.
for n in 3 4; do
	run "$BINDIR/egdb_apart" "$D" --pieces $n --samples $((6 - n)) --seed 7 --json
	expect_rc 0 "the solver apart agrees on $n pieces"
	tot=$(echo "$OUT" | tail -1)
	echo "$tot" | grep -q '"wrong":0}' && pass || fail "no disagreement on $n pieces: $tot"
	echo "$tot" | awk -F'[:,}]' '{ for (i = 1; i < NF; i++) if ($i == "\"compared\"") c = $(i + 1); exit !(c > 1000) }' &&
		pass || fail "more than a thousand $n-piece positions compared: $tot"
done
run "$BINDIR/egdb_apart" "$D" --pieces 4 --samples 1 --plant 2000
expect_rc 1 "a planted disagreement is found"
expect_out_has "solved " "and named with its position"

# Resumable: a removed slice is built again, the others are kept.
rm "$D/MK-KK.egdb"
touch -d '2000-01-01' "$D/K-K.egdb"
run "$PDNKIT" egdb build --pieces 4 --dir "$D"
expect_rc 0 "resume"
expect_err_has "K-K                    already built" "finished slices are kept"
expect_err_has "[1/1] KK-MK + MK-KK" "only the missing pair is built"
[ -f "$D/MK-KK.egdb" ] && pass || fail "the removed slice is back"
[ "$(stat -c %Y "$D/K-K.egdb")" -lt 1000000000 ] && pass || fail "a kept slice was rewritten"
# One slice on its own (as on another machine), into the same directory.
rm "$D/KK-MK.egdb" "$D/MK-KK.egdb"
run "$PDNKIT" egdb build --slice KK-MK --dir "$D" --quiet
expect_rc 0 "--slice"
[ -f "$D/KK-MK.egdb" ] && [ -f "$D/MK-KK.egdb" ] && pass || fail "--slice builds the slice and its mirror"

# A plan: every pair of the level as a job after the pairs it reads (each read pair
# listed before it), a script for GNU parallel that builds the same slices as one build
# (the same values and bytes but the build time), runs again doing nothing, and a
# script for Slurm whose jobs wait on the jobs of the pairs they read.
run "$PDNKIT" egdb build --plan json -n 4 --egdb "$T_TMP/planned"
expect_rc 0 "--plan json"
[ "$(echo "$OUT" | grep -c '^{"pair":')" = 23 ] && pass || fail "23 pairs of up to 4 pieces: $(echo "$OUT" | grep -c '^{"pair":')"
echo "$OUT" | awk -F'"' '{ for (i = 1; i <= NF; i++) if ($i == "job") name = $(i + 2)
	r = $0; sub(/.*"reads":\[/, "", r); sub(/\].*/, "", r); gsub(/"/, "", r); n = split(r, d, ",")
	for (k = 1; k <= n; k++) if (d[k] != "" && !(d[k] in seen)) bad++
	seen[name] = 1 } END { exit bad > 0 }' && pass || fail "a pair before a pair it reads"
echo "$OUT" | grep -q '{"pair":"KK-MK","mirror":"MK-KK","job":"KK-MK","part":null,"join":false,"pieces":4,"positions":[0-9]*,"memory":[0-9]*,"seconds":[0-9.]*,"wave":[0-9]*,"reads":\[.*"K-KK"' &&
	pass || fail "KK-MK reads K-KK (a capture): $(echo "$OUT" | grep '"KK-MK"')"
run "$PDNKIT" egdb build --plan frob -n 4
expect_rc 2 "an unknown plan format"
run "$PDNKIT" egdb build --plan text --slice K-K
expect_rc 2 "--plan with --slice"
if command -v parallel >/dev/null; then
	"$PDNKIT" egdb build --plan parallel -n 4 --threads 1 --egdb "$T_TMP/planned" >"$T_TMP/plan.sh" 2>/dev/null
	grep -q "^KK-MK [0-9][0-9]*$" "$T_TMP/plan.sh" && pass || fail "a pair's line in the parallel plan, with its memory"
	grep -q -- "--slice {1} --memory {2} " "$T_TMP/plan.sh" && pass || fail "each job told its memory"
	PDNKIT="$PDNKIT" JOBLOG="$T_TMP/joblog" sh "$T_TMP/plan.sh" >"$T_TMP/plan.out" 2>&1 && pass || fail "the parallel plan: $(tail -5 "$T_TMP/plan.out")"
	[ "$(ls "$T_TMP/planned"/*.egdb | wc -l)" -eq 41 ] && pass || fail "41 slices by the plan: $(ls "$T_TMP/planned" | wc -l)"
	# JOBLOG: a job log a wave, a line a job (its exit status 0) under a header
	jobs=$(grep -c "^[A-Z-]* [0-9]*$" "$T_TMP/plan.sh")
	logged=$(cat "$T_TMP"/joblog.* | awk -F'\t' '$1 != "Seq" && $7 == 0' | wc -l)
	[ "$logged" -eq "$jobs" ] && [ -s "$T_TMP/joblog.1" ] && pass || fail "JOBLOG: $logged of $jobs jobs logged: $(ls "$T_TMP" | grep joblog | head -3)"
	"$PDNKIT" egdb stats --dir "$D" --slices --json | sed 's/,"build_seconds":[0-9.]*//' >"$T_TMP/one.stats"
	"$PDNKIT" egdb stats --dir "$T_TMP/planned" --slices --json | sed 's/,"build_seconds":[0-9.]*//' >"$T_TMP/planned.stats"
	cmp -s "$T_TMP/one.stats" "$T_TMP/planned.stats" && pass || fail "the plan's slices differ from one build's: $(diff "$T_TMP/one.stats" "$T_TMP/planned.stats" | head -3)"
	same=0
	for f in "$D"/*.egdb; do cmp -s -i 128 "$f" "$T_TMP/planned/$(basename "$f")" && same=$((same + 1)); done
	[ $same -eq 41 ] && pass || fail "the slices' blocks the same in $same of 41"
	touch -d '2000-01-01' "$T_TMP/planned/KK-MK.egdb"
	PDNKIT="$PDNKIT" sh "$T_TMP/plan.sh" >"$T_TMP/plan.out" 2>&1 && pass || fail "the plan run again"
	[ "$(stat -c %Y "$T_TMP/planned/KK-MK.egdb")" -lt 1000000000 ] && pass || fail "a built pair rebuilt by the plan run again"
	# the same by parts (up to 3 pieces, a plan of 23 waves): each pair with men as its
	# part pairs' jobs, then a join
	"$PDNKIT" egdb build --plan parallel -n 3 --threads 1 --parts always --egdb "$T_TMP/planned-parts" >"$T_TMP/plan-parts.sh" 2>/dev/null
	grep -q "^M-MK 6,7 [0-9][0-9]*$" "$T_TMP/plan-parts.sh" && pass || fail "a part pair's line in the parallel plan"
	PDNKIT="$PDNKIT" sh "$T_TMP/plan-parts.sh" >"$T_TMP/plan.out" 2>&1 && pass || fail "the parallel plan by parts: $(tail -5 "$T_TMP/plan.out")"
	same=0
	for f in "$T_TMP/planned-parts"/*.egdb; do cmp -s -i 128 "$f" "$D/$(basename "$f")" && same=$((same + 1)); done
	[ $same -eq 16 ] && pass || fail "by parts, the slices' blocks the same in $same of 16"
	[ ! -e "$T_TMP/planned-parts/parts" ] && pass || fail "the parts removed by the joins"
else
	echo "SKIP $T_NAME: the plan under GNU parallel: parallel not installed (apt-get install parallel; .ci/run installs it)"
fi
"$PDNKIT" egdb build --plan slurm -n 4 --egdb "$T_TMP/planned" >"$T_TMP/slurm.sh" 2>/dev/null
sh -n "$T_TMP/slurm.sh" && pass || fail "the Slurm script does not parse"
grep -q '^j_KK_MK=$(sbatch --parsable --job-name=egdb-KK-MK --output="$LOGS/%x-%j.out" --cpus-per-task=2 --mem=[0-9]*M --time=[0-9]* --dependency=afterok:.*$j_KK_K' "$T_TMP/slurm.sh" &&
	pass || fail "KK-MK's Slurm job after KK-K's: $(grep 'j_KK_MK=' "$T_TMP/slurm.sh")"
# A plan by parts: a pair past --memory as its part pairs (each after the part pairs it
# reads and the pairs the pair reads) and a join after all of them.
run "$PDNKIT" egdb build --plan json -n 4 --memory 2 --egdb "$T_TMP/planned"
expect_rc 0 "--plan json --memory 2"
expect_out_has '"job":"MK-MM:6,7","part":[6,7],"join":false,' "a part pair's job"
echo "$OUT" | grep '"job":"MK-MM:6,6"' | grep -q '"reads":\[.*"MK-MM:7,6".*"MK-MM:6,7"' && pass ||
	fail "part 6,6 after parts 7,6 and 6,7: $(echo "$OUT" | grep '"job":"MK-MM:6,6"')"
echo "$OUT" | grep '"job":"MK-MM","part":null,"join":true' | grep -q '"MK-MM:1,1"' && pass ||
	fail "the join after every part: $(echo "$OUT" | grep '"job":"MK-MM",')"
echo "$OUT" | awk -F'"' '{ for (i = 1; i <= NF; i++) if ($i == "job") name = $(i + 2)
	r = $0; sub(/.*"reads":\["?/, "", r); sub(/"?\].*/, "", r); n = split(r, d, "\",\"")
	for (k = 1; k <= n; k++) if (d[k] != "" && !(d[k] in seen)) bad++
	seen[name] = 1 } END { exit bad > 0 }' && pass || fail "a job before a job it reads (by parts)"
"$PDNKIT" egdb build --plan slurm -n 4 --memory 2 --egdb "$T_TMP/planned" >"$T_TMP/slurm.sh" 2>/dev/null
sh -n "$T_TMP/slurm.sh" && pass || fail "the Slurm script by parts does not parse"
grep -q '^j_MK_MM_6_6=$(sbatch .*--dependency=afterok:.*$j_MK_MM_7_6.* --wrap="$PDNKIT egdb build --slice MK-MM --part 6,6 ' "$T_TMP/slurm.sh" &&
	pass || fail "a part's Slurm job: $(grep 'j_MK_MM_6_6=' "$T_TMP/slurm.sh")"
# two builders of one pair, or a whole build beside a job, are refused; two pairs' jobs may run side by side
exec 9>"$T_TMP/planned/.lock-KK-MK"
flock -n 9
run "$PDNKIT" egdb build --slice MK-KK --egdb "$T_TMP/planned"
expect_rc 3 "a pair another job is building"
expect_err_has "another egdb build is building MK-KK" "said so"
run "$PDNKIT" egdb build --slice KK-K --egdb "$T_TMP/planned" -q
expect_rc 0 "another pair's job beside it"
run "$PDNKIT" egdb build -n 4 --egdb "$T_TMP/planned" -q
expect_rc 0 "a whole build when no job holds the directory"
exec 9>&-

run "$PDNKIT" egdb verify --dir "$D"
expect_rc 0 "verify up to 4 pieces"
expect_out_has "41 slices" "verify covers every slice"
expect_out_has ", 0 wrong" "verify finds nothing wrong"
# Memory: with --memory 4 (MiB) the pairs of a group are built one at a time, a group
# holds only the slices its positions lead to, and the settling step's queue runs out,
# so that many levels are found by a scan of the tables instead; the files are those of
# the first build, byte for byte past the header (which keeps the build's time).
D1="$T_TMP/egdb-mem"
run "$PDNKIT" egdb build --pieces 4 --dir "$D1" --memory 4 --json
expect_rc 0 "build with --memory 4"
scanned=$(printf "%s\n" "$OUT" | sed -n 's/.*"scanned_levels":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
[ "$scanned" -gt 50 ] && pass || fail "--memory 4 finds levels by a scan: $scanned"
same=0
for f in "$D"/*.egdb; do cmp -s -i 128 "$f" "$D1/$(basename "$f")" && same=$((same + 1)); done
[ "$same" -eq 41 ] && pass || fail "--memory 4 builds the same 41 files: $same"
# A pair whose tables do not fit is built by parts (its positions split by the row of
# each side's most advanced man, each part solved in turn, the slice joined from them):
# the same files, byte for byte past the header, and no part left behind.
run "$PDNKIT" egdb build --pieces 4 --dir "$T_TMP/egdb-small" --memory 2 --json
expect_rc 0 "pairs past --memory built by parts"
expect_out_has '{"slice":"KK-MK","part":[0,7],' "each part reported"
same=0
for f in "$D"/*.egdb; do cmp -s -i 128 "$f" "$T_TMP/egdb-small/$(basename "$f")" && same=$((same + 1)); done
[ "$same" -eq 41 ] && pass || fail "built by parts, the same 41 files: $same"
[ ! -e "$T_TMP/egdb-small/parts" ] && pass || fail "the parts are removed once joined"
# Without parts such a pair is refused before it starts, not left to the kernel; a pair
# of kings alone has no parts.
run "$PDNKIT" egdb build --pieces 4 --dir "$T_TMP/egdb-never" --memory 2 --parts never
expect_rc 3 "a pair past --memory refused with --parts never"
expect_err_has "more than the 2 MiB the build may take" "the refusal says what it needs"
run "$PDNKIT" egdb build --pieces 4 --dir "$T_TMP/egdb-small" --memory 1 --slice KKK-K
expect_rc 0 "a pair already built is not built again, whatever the memory"
# Parts as jobs of a plan: one part at a time (--slice --part), each refused while a part
# it reads is missing, a second run of one a no-op, then the pair joined by --slice.
P="$T_TMP/egdb-parts"
mkdir -p "$P"
for f in "$D"/*.egdb; do case "$(basename "$f")" in MK-MM.egdb|MM-MK.egdb) ;; *) cp "$f" "$P/" ;; esac; done
run "$PDNKIT" egdb build --slice MK-MM --part 5,6 --egdb "$P"
expect_rc 3 "a part before the parts it reads refused"
expect_err_has "MK-MM part 5,6 needs part 7,6, which is not built yet" "names the part it needs"
run "$PDNKIT" egdb build --slice MK-MM --part 9,1 --egdb "$P"
expect_rc 2 "a row out of range refused"
run "$PDNKIT" egdb build --slice MK-MM --part 0,1 --egdb "$P"
expect_rc 2 "row 0 for a side with men refused"
run "$PDNKIT" egdb build --part 1,1 --egdb "$P"
expect_rc 2 "--part without --slice refused"
n=0
for part in 7,7 7,6 6,7 6,6; do
	"$PDNKIT" egdb build --slice MK-MM --part "$part" --egdb "$P" -q && n=$((n + 1))
done
[ "$n" -eq 4 ] && pass || fail "four parts of MK-MM built one job each: $n"
[ -e "$P/parts/MK-MM.6.7.part" ] && [ -e "$P/parts/MM-MK.7.6.part" ] && pass || fail "a part pair's two files kept"
[ ! -e "$P/MK-MM.egdb" ] && pass || fail "no slice file before the join"
run "$PDNKIT" egdb build --slice MM-MK --part 7,6 --egdb "$P"
expect_rc 0 "a part already built"
expect_err_has "already built" "a part already built (named from the mirror's side) is not built again"
run "$PDNKIT" egdb build --slice MM-MK --egdb "$P" --json
expect_rc 0 "the pair's other parts built and joined"
[ "$(echo "$OUT" | grep -c '"part":')" -eq 45 ] && pass || fail "the 45 parts left built by the pair's job: $(echo "$OUT" | grep -c '"part":')"
cmp -s -i 128 "$D/MK-MM.egdb" "$P/MK-MM.egdb" && cmp -s -i 128 "$D/MM-MK.egdb" "$P/MM-MK.egdb" && pass ||
	fail "the joined files are the whole build's"
[ ! -e "$P/parts" ] && pass || fail "the parts removed after the join"
# A part built without the distances asked for is built again, never joined into a file
# that would say it has them.
Q="$T_TMP/egdb-partdist"
mkdir -p "$Q"
for f in "$D"/*.egdb; do case "$(basename "$f")" in MK-MM.egdb|MM-MK.egdb) ;; *) cp "$f" "$Q/" ;; esac; done
"$PDNKIT" egdb build --slice MK-MM --part 7,7 --distances 3 --egdb "$Q" -q
run "$PDNKIT" egdb build --slice MK-MM --part 7,7 --egdb "$Q"
expect_rc 0 "the part asked for with distances"
expect_err_has "part 7,7 (" "a part without the distances asked for built again"
run "$PDNKIT" egdb build --pieces 4 --dir "$T_TMP/egdb-x" --memory 0
expect_rc 2 "--memory 0 refused"
run "$PDNKIT" egdb verify --dir "$D" --sample 100 --json --slice MM-KK
expect_rc 0 "verify --sample --slice"
expect_out_has '"slice":"MM-KK"' "verify names its slice"

run "$PDNKIT" egdb stats --dir "$D" --json
expect_rc 0 "stats"
expect_out_has '{"pieces":2,"slices":4,"positions":3488,"wins":716,"losses":402,"draws":2370,' "2-piece totals"
expect_out_has '"pieces":4,"slices":25,"positions":6209316,' "4-piece positions"
run "$PDNKIT" egdb stats --dir "$D" --slices
expect_out_has "KK-K" "stats --slices lists slices"
expect_out_has "complete up to 4 pieces" "stats says how far the databases go"
# (the 4-piece level decompressed is about 6 MiB, rounded up to whole blocks a slice)
expect_out_has "the searching commands' cache (auto) 64.0 MiB" "stats: the automatic cache, at least 64 MiB"
echo "$OUT" | grep -Eq "^decompressed ([6-9]|1[0-9])\.[0-9] MiB;" && pass || fail "stats: the decompressed size: $OUT"

# Probe: arguments, standard input, JSON, errors on their own line.
run "$PDNKIT" egdb probe --dir "$D" "W:W20,K15:B12,K28" "B:WK1:BK10,K15"
expect_rc 0 "probe"
expect_out_has "W:W20,K15:B12,K28: White wins in 81 plies" "First Position: White wins with the move"
expect_out_has "B:WK1:BK10,K15: Black wins in" "two kings beat one in the double corner"
printf 'B:WK1:BK18\nnonsense\nB:W20,21,22:B1,2\n\nW:WK1:B6\n' | "$PDNKIT" egdb probe --dir "$D" --json >"$T_TMP/out" 2>"$T_TMP/err"
RC=$?
OUT=$(cat "$T_TMP/out")
[ "$RC" -eq 1 ] && pass || fail "probe with bad lines exits 1 (got $RC)"
expect_out_has '{"fen":"B:WK1:BK18","pieces":2,"value":"draw"}' "a draw has no plies"
expect_out_has '{"fen":"nonsense","error":"not a FEN' "a bad FEN is an error on its line"
expect_out_has '"error":"5 pieces: the databases hold up to 4; MM-MMM.egdb, which it needs, is missing (pdnkit egdb build)"' "too many pieces is an error on its line, the slice named"
expect_out_has '{"fen":"W:WK1:B6","pieces":2,"value":"win","plies":1}' "the run goes on after errors"

# Each move's value (--moves): the position's value is its best move's, a win in as many
# plies; every legal move is listed, wins the quickest first.
run "$PDNKIT" egdb probe --dir "$D" --moves "W:W20,K15:B12,K28"
expect_rc 0 "probe --moves"
first=$(echo "$OUT" | sed -n 2p)
case $first in *" White wins in 81 plies") pass ;; *) fail "the best move of the First Position is not a win in 81 plies: $OUT" ;; esac
n=$("$PDNKIT" analyze --fen "W:W20,K15:B12,K28" --depth 1 --multipv 64 2>/dev/null | grep -c '^line ')
[ "$(echo "$OUT" | grep -c '^  ')" -eq "$n" ] && pass || fail "not the $n legal moves listed: $OUT"
bad=0
for f in "B:WK1:BK10,K15" "W:WK20,K27:BK28" "B:W21,22:B14" "W:W30,K7:B3,K26" "B:WK5,K14:B23,K30" "W:W21,24:BK3,10"; do
	"$PDNKIT" egdb probe --dir "$D" --moves --json "$f" >"$T_TMP/pm" 2>/dev/null
	v=$(grep -o '"value":"[a-z]*"' "$T_TMP/pm" | head -1)
	pl=$(sed 's/"moves".*//' "$T_TMP/pm" | grep -o '"plies":[0-9]*')
	best=$(sed 's/.*"moves":\[{\([^}]*\)}.*/\1/' "$T_TMP/pm")
	bv=$(echo "$best" | grep -o '"value":"[a-z]*"')
	bp=$(echo "$best" | grep -o '"plies":[0-9]*')
	[ "$v" = "$bv" ] || { bad=$((bad + 1)); echo "$f: $v, best move $best" >&2; }
	[ "$v" != '"value":"draw"' ] && [ "$pl" != "$bp" ] && { bad=$((bad + 1)); echo "$f: $pl, best move $best" >&2; }
done
[ $bad -eq 0 ] && pass || fail "$bad positions whose value is not their best move's"

# Damaged files are refused with the file named.
cp -r "$D" "$T_TMP/bad"
head -c 100 "$D/KK-K.egdb" >"$T_TMP/bad/KK-K.egdb"
run "$PDNKIT" egdb probe --dir "$T_TMP/bad" "B:WK1:BK10,K15"
expect_rc 3 "a truncated slice"
expect_err_has "KK-K.egdb: truncated" "the truncated file is named"
echo "not a database" >"$T_TMP/bad/KK-K.egdb"
run "$PDNKIT" egdb stats --dir "$T_TMP/bad"
expect_rc 3 "a slice that is not a database"
expect_err_has "not a pdnkit endgame database" "a foreign file is named"
run "$PDNKIT" egdb stats --dir "$T_TMP/nothing-here"
expect_rc 3 "no directory"

# The databases at work.
run "$PDNKIT" analyze --egdb "$D" --fen "W:W20,K15:B12,K28" --movetime 5
expect_rc 0 "analyze with the databases"
expect_out_has "database: White wins in 81 plies" "analyze names the database's value"
expect_out_has "score White wins in 81" "the search plays for the fastest win"
PDNKIT_EGDB="$T_TMP/nothing-here" run "$PDNKIT" analyze --fen "W:W20,K15:B12,K28" --depth 3
expect_rc 0 "analyze without databases"
expect_err_has "no endgame databases found in $T_TMP/nothing-here" "missing databases are said on stderr"
PDNKIT_EGDB="$D" run "$PDNKIT" analyze --fen "B:WK1:BK10,K15" --depth 3
expect_out_has "database: Black wins in" "PDNKIT_EGDB names the directory"

# A drawn ending: analysis takes a drawing move at once; played for a win (egdb-draws=1,
# the default of play, match and pdnkit engine) it is searched to the depth asked, its
# score never below a draw for the side to move (and below a database win).
run "$PDNKIT" analyze --egdb "$D" --fen "W:WK14,K18:B5,K32" --depth 10
expect_out_has "score +0  depth 2" "analysis: a drawn root answered at depth 2"
run "$PDNKIT" analyze --egdb "$D" --fen "W:WK14,K18:B5,K32" --depth 10 --features egdb-draws=1
expect_out_has "database: a draw with best play" "the root's value is still said"
SC=$(printf '%s\n' "$OUT" | sed -n 's/^bestmove .* score +\([0-9]*\)  depth 10$/\1/p')
[ -n "$SC" ] && [ "$SC" -gt 0 ] && [ "$SC" -le 2000 ] && pass || fail "two kings against king and man, played for a win: a positive score up to 2000 at depth 10: [$OUT]"
run "$PDNKIT" analyze --egdb "$D" --fen "B:WK14,K18:B5,K32" --depth 10 --features egdb-draws=1
expect_out_has "score +0  depth 10" "the weaker side of a draw scores it 0, not its evaluation"
run "$PDNKIT" analyze --egdb "$D" --fen "W:WK14,K18:B5,K32" --depth 10 --features egdb-draws=2
expect_rc 2 "egdb-draws takes 0 or 1"
# (quit is sent later: read during the search, it would end it)
OUT=$({ printf 'hub\ninit\npos pos=WeeeebeeeeeeeeWeeeWeeeeeeeeeeeeeB\nlevel depth=6\ngo\n'; sleep 3; printf 'quit\n'; } |
	"$PDNKIT" engine --egdb "$D" 2>/dev/null)
expect_out_has "info depth=5 score=" "pdnkit engine plays a drawn ending for a win: searched past depth 2"

# A won ending the databases hold without distances (here 4 pieces, built with
# distances up to 3): egdb-wins=0 scores the won positions below the root at once (a
# database win plus the evaluation); 1, the default, searches them on, so that the
# search finds the capture and its exact distance (the one the full databases give).
D3="$T_TMP/egdb-d3"
run "$PDNKIT" egdb build --pieces 4 --distances 3 --dir "$D3" --quiet
expect_rc 0 "build with distances up to 3 pieces"
run "$PDNKIT" egdb probe --egdb "$D3" "W:WK23,K18,K27:BK32"
expect_out_has "W:WK18,K23,K27:BK32: White wins" "without distances: a win"
run "$PDNKIT" egdb probe --egdb "$D" "W:WK23,K18,K27:BK32"
expect_out_has "White wins in 9 plies" "with distances: in 9 plies"
run "$PDNKIT" analyze --egdb "$D3" --fen "W:WK23,K18,K27:BK32" --depth 16 --features egdb-wins=0
SC=$(printf '%s\n' "$OUT" | sed -n 's/^bestmove .* score +\([0-9]*\)  depth 16$/\1/p')
[ -n "$SC" ] && [ "$SC" -gt 18000 ] && [ "$SC" -lt 22000 ] && pass || fail "egdb-wins=0: a database win plus the evaluation: [$OUT]"
run "$PDNKIT" analyze --egdb "$D3" --fen "W:WK23,K18,K27:BK32" --depth 16
expect_out_has "score White wins in 9" "a won ending searched on: the win in 9 plies found"
run "$PDNKIT" analyze --egdb "$D3" --fen "B:WK10,K14,K18:BK32" --depth 16
expect_out_has "score White wins in 10" "and the loser's longest defence (the full databases: in 10 plies)"
# --distances-men: the larger slices of at most M men keep distances too, those
# already built without them are built again; the rest are left as they are.
D4="$T_TMP/egdb-d3m"
cp -r "$D3" "$D4"
run "$PDNKIT" egdb build --pieces 4 --distances 3 --distances-men 1 --dir "$D4"
expect_rc 0 "build with distances in the slices of at most one man"
expect_err_has "K-KKK + KKK-K" "a kings' slice built again"
expect_err_has "MK-MK                  already built" "a slice of two men left"
run "$PDNKIT" egdb probe --egdb "$D4" "W:WK23,K18,K27:BK32"
expect_out_has "White wins in 9 plies" "kings only: in 9 plies, as the full databases say"
run "$PDNKIT" egdb probe --egdb "$D4" "W:WK23,K18,27:BK32"
expect_out_has "White wins in 9 plies" "one man: its distance, the full databases' one"
run "$PDNKIT" egdb probe --egdb "$D4" "W:W23,K18,27:BK32"
expect_out "W:W23,27,K18:BK32: White wins" "two men: the value alone"
run "$PDNKIT" egdb verify --egdb "$D4"
expect_out_has " 0 wrong" "every distance proved by its moves"
run "$PDNKIT" egdb build --pieces 4 --distances 3 --distances-men 1 --dir "$D4"
expect_err_has "every slice complete" "a second run finds nothing to do"
run "$PDNKIT" egdb build --slice MK-KK --distances 3 --distances-men 1 --dir "$D3"
expect_rc 3 "a slice whose kings' slices lack the distances asked for"
expect_err_has "which is not built yet with distances" "said so"

cat >"$T_TMP/ends.pdn" <<'PDN'
[Event "drawn, but won"]
[FEN "W:W20,K15:B12,K28"]
[Result "1/2-1/2"]
15-19 28-32 1/2-1/2

[Event "right"]
[FEN "W:W20,K15:B12,K28"]
[Result "0-1"]
15-19 28-32 0-1

[Event "a draw called a win"]
[FEN "B:WK1:BK18"]
[Result "1-0"]
18-22 1-5 1-0
PDN
run "$PDNKIT" validate --egdb "$D" "$T_TMP/ends.pdn"
expect_rc 0 "validate --egdb (findings are warnings)"
expect_out_has "result 1/2-1/2, but White wins here in 79 plies (endgame database)" "a drawn result of a won ending"
expect_out_has "result 1-0, but the final position is a draw (endgame database)" "a won result of a drawn ending"
expect_err_has "3 results checked against the endgame databases (up to 4 pieces): 2 contradicted" "validate counts its verdicts"
run "$PDNKIT" validate --egdb-dir "$T_TMP/nothing-here" "$T_TMP/ends.pdn"
expect_rc 3 "validate --egdb without databases"
# --egdb is one option taking the directory everywhere: a file given for it (as
# "validate --egdb games.pdn" would) is said, not read as the default and a game file;
# 'none' checks nothing; the older spellings --egdb-dir and (egdb) --dir still work.
run "$PDNKIT" validate --egdb "$T_TMP/ends.pdn"
expect_rc 2 "validate --egdb FILE"
expect_err_has "--egdb takes the databases' directory, 'default' or 'none': '$T_TMP/ends.pdn' is a file" "the mistake said"
run "$PDNKIT" validate --egdb none "$T_TMP/ends.pdn"
expect_rc 0 "validate --egdb none"
case $ERR in *"checked against the endgame databases"*) fail "--egdb none checked results: $ERR" ;; *) pass ;; esac
PDNKIT_EGDB="$D" run "$PDNKIT" validate --egdb default "$T_TMP/ends.pdn"
expect_err_has "3 results checked against the endgame databases" "--egdb default: \$PDNKIT_EGDB"
run "$PDNKIT" egdb stats --egdb "$D"
expect_rc 0 "egdb stats --egdb DIR"
run "$PDNKIT" import --egdb "$D" --db "$T_TMP/g.db" "$T_TMP/ends.pdn"
expect_rc 0 "import --egdb"
expect_err_has "3 results checked against the endgame databases: 2 contradicted" "import counts its verdicts"

run "$PDNKIT" solve --egdb "$D" --movetime 0.1 --json "$T_TMP/ends.pdn"
expect_out_has '"positions":3,"correct":1,"by_egdb":3,"contradicted":2' "solve judges by the database"
expect_out_has '"event":"a draw called a win","expected":"1-0","judged":"1/2-1/2"' "the database's verdict"
expect_out_has '"egdb":true,"contradicted":true,"correct":false}' "a stated result the database proves wrong"
run "$PDNKIT" solve --egdb "$D" --movetime 0.1 "$T_TMP/ends.pdn"
expect_out_has "game 3 (a draw called a win): the stated result 1-0 is wrong: the endgame databases prove 1/2-1/2 (a draw; best move" "solve says a wrong stated result"
expect_out_has "game 1 (drawn, but won): the stated result 1/2-1/2 is wrong: the endgame databases prove 0-1 (White wins;" "and names the winner"
expect_out_has "1 of 3 positions judged right (33.3%), 3 by the endgame databases (2 stated results they prove wrong)" "solve's summary counts them"

# A partial level (a build of 5 pieces under way, or one slice built on its own): the
# slices present are used by the search, validate and solve; the others are missing.
D5="$T_TMP/egdb-partial"
cp -r "$D" "$D5"
run "$PDNKIT" egdb build --slice KKK-KK --dir "$D5" --quiet
expect_rc 0 "one slice of 5 pieces"
run "$PDNKIT" egdb stats --egdb "$D5"
expect_out_has "complete up to 4 pieces; 43 slice files; 2 of the 44 slices of 5 pieces" "stats says what of the partial level is there"
run "$PDNKIT" analyze --egdb "$D5" --fen "W:WK1,K5,K9:BK27,K32" --depth 4
expect_out_has "database: White wins in 57 plies" "the engine probes a slice of the partial level"
run "$PDNKIT" analyze --egdb "$D5" --fen "W:WK1,K5,K9:B22,26" --depth 4
expect_rc 0 "a position of an absent slice of the partial level"
case $OUT in *database:*) fail "an absent slice found: $OUT" ;; *) pass ;; esac
cat >"$T_TMP/ends5.pdn" <<'PDN'
[Event "three kings against two, called a draw"]
[FEN "W:WK1,K5,K9:BK27,K32"]
[Result "1/2-1/2"]
1-6 27-23 1/2-1/2

[Event "men, not in the databases"]
[FEN "W:WK1,K5,K9:B22,26"]
[Result "1/2-1/2"]
1-6 22-25 1/2-1/2
PDN
run "$PDNKIT" validate --egdb "$D5" "$T_TMP/ends5.pdn"
expect_out_has "result 1/2-1/2, but White wins here" "validate checks a result against a slice of the partial level"
expect_err_has "1 result checked against the endgame databases (up to 4 pieces, some slices of up to 5): 1 contradicted" "and says how much of the level it had"
run "$PDNKIT" solve --egdb "$D5" --movetime 0.1 --json "$T_TMP/ends5.pdn"
expect_out_has '"event":"three kings against two, called a draw","expected":"1/2-1/2","judged":"0-1","score":' "solve judges by a slice of the partial level"

cat >"$T_TMP/blunder.pdn" <<'PDN'
[Event "a win thrown away"]
[FEN "W:W20,K15:B12,K28"]
[Result "*"]
15-11 28-32 *
PDN
run "$PDNKIT" annotate --egdb "$D" --depth 4 --json "$T_TMP/blunder.pdn"
expect_rc 0 "annotate with the databases"
expect_out_has '"move":"15-11","side":"white","best":"15-19",' "the winning move is named"
expect_out_has '"class":"blunder","depth":2,"egdb":"draw"}' "a win given up for a draw is a blunder, by the database"
expect_out_has '"move":"28-32","side":"black","best":"12-16",' "and the draw given back"
run "$PDNKIT" annotate --egdb "$D" --depth 4 -o - "$T_TMP/blunder.pdn"
expect_out_has "database: a draw}" "the annotated PDN says database"
# Unbounded input and odd files: probe lines from standard input are bounded and a NUL
# is refused; a FIFO among the files is refused, not waited on; a missing slice is
# named; a second build into the same directory is refused while the first holds its
# lock; the progress lines of a build into a pipe carry no terminal codes.
run sh -c "(head -c 100000 /dev/zero | tr '\\0' 'x'; printf '\nB:W21,22:B1\nB:W2\\0:B1\n') | \"$PDNKIT\" egdb probe --dir \"$D\""
expect_rc 1 "bad probe lines"
expect_err_has "standard input, line 1: longer than 4 KiB, not a position" "a long line refused"
expect_err_has "standard input, line 3: a NUL byte, not a position" "a NUL refused"
expect_out_has "B:W21,22:B1: White wins" "the good line between them answered"
E2="$T_TMP/eg-odd"
cp -r "$D" "$E2"
rm -f "$E2/K-M.egdb"
run "$PDNKIT" egdb probe --dir "$E2" "B:W21:BK1"
expect_out_has "K-M.egdb, which it needs, is missing" "the missing slice named"
mkfifo "$E2/fifo.egdb"
run timeout 10 "$PDNKIT" egdb probe --dir "$E2" "B:W21,22:B1"
expect_rc 3 "a FIFO among the databases"
expect_err_has "fifo.egdb: not a regular file" "the FIFO named, not waited on"
rm -f "$E2/fifo.egdb"
E3="$T_TMP/eg-lock"
mkdir -p "$E3"
"$PDNKIT" egdb build -q --dir "$E3" --pieces 4 >/dev/null 2>&1 &
bp=$!
sleep 0.3
run "$PDNKIT" egdb build -q --dir "$E3" --pieces 4
wait $bp
expect_rc 3 "a second build into the same directory"
expect_err_has "another egdb build is writing into $E3" "the lock said"
run "$PDNKIT" egdb build --dir "$T_TMP/eg-pipe" --pieces 3
case $ERR in *"$(printf '\033')"*) fail "terminal codes in a build's progress to a pipe" ;; *) pass ;; esac
# agree: the evaluation against the databases, the same figures for a seed
run "$PDNKIT" egdb agree --egdb "$D" -n 3000 -j
expect_rc 0 "agree"
a1=$OUT
tot=$(echo "$OUT" | sed 's/.*"positions":\([0-9]*\),"pieces".*/\1/')
[ "$tot" = 3000 ] && pass || fail "3000 positions measured ($tot)"
ag=$(echo "$OUT" | sed 's/.*"agree":\([0-9.]*\).*/\1/')
awk -v a="$ag" 'BEGIN { exit !(a > 0.5 && a <= 1) }' && pass || fail "most positions of up to 4 pieces judged right ($ag)"
run "$PDNKIT" egdb agree --egdb "$D" -n 3000 -j
[ "$OUT" = "$a1" ] || [ "$(echo "$OUT" | sed 's/"seconds".*//')" = "$(echo "$a1" | sed 's/"seconds".*//')" ] && pass || fail "the same draw twice"
run "$PDNKIT" egdb agree --egdb "$D" -n 500 --even --depth 4
expect_rc 0 "agree --even with a search"
expect_out_has "as many on each side" "even material said"
expect_out_has "search's score" "a search said"
printf '[Event "end"]\n[Result "*"]\n[SetUp "1"]\n[FEN "B:WK27,K32:BK5,K1"]\n\n1. 5-9 27-23 2. 9-13 23-26 3. 1-5 32-28 *\n' > "$T_TMP/e4.pdn"
run "$PDNKIT" egdb agree --egdb "$D" --from "$T_TMP/e4.pdn" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" -j
expect_rc 0 "agree on the positions of games"
expect_out_has '"positions":6,' "the six positions after the moves of the ending (none of game 37)"
expect_out_has '"draw":{"positions":6,' "all drawn"
run "$PDNKIT" egdb agree --egdb "$D" --from
expect_rc 2 "--from without files"
run "$PDNKIT" egdb agree --egdb none -n 10
expect_rc 2 "agree without databases"
# train --egdb-positions: exact positions added to the training part
run "$PDNKIT" train "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --egdb-positions 200 --label-egdb "$D" --epochs 2 -j
expect_rc 0 "train with database positions"
expect_err_has "200 positions of up to 4 pieces from the endgame databases" "the positions counted"
# match --judge: each game scored again by the databases' value of its first position of
# 4 pieces or fewer. The searches are of fixed depth, so the same match adjudicated there
# plays the same moves up to that position: its results are the judged ones.
printf '[FEN "B:W30,27,22:BK5,10,1"]\n*\n\n[FEN "W:W31,K26,21:B12,9,K3"]\n*\n\n[FEN "B:WK28,23,18:B14,K7,6"]\n*\n' > "$T_TMP/j.pdn"
run "$PDNKIT" match --a "--depth 6 --egdb none" --b "--depth 1 --egdb none" --openings "$T_TMP/j.pdn" -c 1 --adjudicate none --judge "$D" -o "$T_TMP/judged.pdn" --json
expect_rc 0 "match --judge"
expect_out_has '"judged":{"pieces":4,"games":6,' "every game judged at 4 pieces"
jud=$(echo "$OUT" | sed -E 's/.*"judged":\{"pieces":4,"games":6,"wins":([0-9]+),"draws":([0-9]+),"losses":([0-9]+).*/\1 \2 \3/')
run "$PDNKIT" match --a "--depth 6 --egdb none" --b "--depth 1 --egdb none" --openings "$T_TMP/j.pdn" -c 1 --adjudicate "$D" --json
adj=$(echo "$OUT" | sed -E 's/^\{"games":6,"wins":([0-9]+),"draws":([0-9]+),"losses":([0-9]+).*/\1 \2 \3/')
[ -n "$jud" ] && [ "$jud" = "$adj" ] && pass || fail "judged ($jud) as adjudicated at 4 pieces ($adj)"
run "$PDNKIT" match --a "--depth 6 --egdb none" --b "--depth 1 --egdb none" --openings "$T_TMP/j.pdn" -c 1 --adjudicate none --judge "$D" -o "$T_TMP/judged.pdn" --resume
expect_out_has "resumed: 6 of 6 games" "a finished record resumed"
expect_out_has "judged at 4 pieces (the databases' value of each game's first position of 4 pieces or fewer): A won ${jud%% *}," "its games judged again from their moves, alike"
run "$PDNKIT" match --variant russian --a "--depth 1" --games 2 --judge "$D"
expect_rc 2 "--judge in another variant"
expect_err_has "--judge: the endgame databases are of English draughts" "said why"
run "$PDNKIT" match --a "--depth 1" --games 2 --judge "$T_TMP/no/such/dir"
expect_rc 3 "--judge without databases"
expect_err_has "no endgame databases at $T_TMP/no/such/dir" "said where it looked"
# A database directory that does not exist: how to build one is said.
run "$PDNKIT" egdb probe --egdb "$T_TMP/no/such/dir" "B:W21:B1"
expect_rc 3 "probe of a missing directory"
expect_err_has "the directory does not exist): build them with 'pdnkit egdb build --egdb $T_TMP/no/such/dir'" "the hint to build"
run "$PDNKIT" analyze --egdb "$T_TMP/no/such/dir" --depth 2
expect_err_has "pdnkit egdb build --egdb" "analyze gives the hint too"
# --egdb default in the engine commands, as in validate and import: the default place
PDNKIT_EGDB="$D" run "$PDNKIT" analyze --egdb default --fen "B:WK1:BK10,K15" --depth 3
expect_rc 0 "analyze --egdb default"
expect_out_has "database: Black wins in" "--egdb default reads the default place"
PDNKIT_EGDB="$T_TMP/no/such/dir" run "$PDNKIT" analyze --egdb default --fen "B:WK1:BK10,K15" --depth 3
expect_rc 3 "--egdb default with nothing there"
expect_err_has "no endgame databases at $T_TMP/no/such/dir (the directory does not exist)" "asked for by name, missing databases are an error"
# Repack: files without distances in the older byte-a-position layout rewritten two bits
# a position, every value the same, and nothing left to do the second time.
R="$T_TMP/repack"
"$PDNKIT" egdb build --pieces 4 --distances 2 --bytes-layout --dir "$R" --quiet
"$PDNKIT" egdb probe --dir "$R" "W:W20,K15:B12,K28" "B:WK1:BK10,K15" "B:W8,11:B4" "W:W27,K11:B3,K9" >"$T_TMP/before.txt"
before=$(du -sb "$R" | cut -f1)
run "$PDNKIT" egdb repack --egdb "$R" --json
expect_rc 0 "repack"
[ "$(printf '%s\n' "$OUT" | grep -c '"bytes_after"')" -eq 37 ] && pass || fail "37 slices without distances repacked: $OUT"
after=$(du -sb "$R" | cut -f1)
[ "$after" -lt "$before" ] && pass || fail "repacked files take fewer bytes: $before -> $after"
"$PDNKIT" egdb probe --dir "$R" "W:W20,K15:B12,K28" "B:WK1:BK10,K15" "B:W8,11:B4" "W:W27,K11:B3,K9" >"$T_TMP/after.txt"
cmp -s "$T_TMP/before.txt" "$T_TMP/after.txt" && pass || fail "the same values after repacking: $(diff "$T_TMP/before.txt" "$T_TMP/after.txt")"
run "$PDNKIT" egdb verify --dir "$R"
expect_rc 0 "every repacked value proved by its successors"
expect_out_has ", 0 wrong" "verify finds nothing wrong"
[ ! -e "$R/.repack" ] && pass || fail "the work directory is gone"
run "$PDNKIT" egdb repack --egdb "$R"
expect_rc 0 "a second repack"
expect_err_has "0 slice files of $R rewritten" "a second repack rewrites nothing"
run "$PDNKIT" egdb stats --dir "$R" --slices --json
expect_out_has '"packed":true' "stats says a slice is packed"
# Packed slices leave out the threats (the other side to move would capture, and no move
# leads to another such position): stats counts them, verify and the probes agree.
P="$T_TMP/packed"
"$PDNKIT" egdb build --pieces 4 --distances 3 --dir "$P" --quiet
run "$PDNKIT" egdb stats --dir "$P" --slices --json
printf '%s\n' "$OUT" | grep '"pieces":4,' | grep -q '"threats_not_stored":[1-9]' && pass || fail "4-piece packed slices leave out threats: $OUT"
run "$PDNKIT" egdb verify --dir "$P"
expect_out_has ", 0 wrong" "verify of a level without its threats"
"$PDNKIT" egdb probe --dir "$P" "W:W20,K15:B12,K28" "B:WK1:BK10,K15" "B:W8,11:B4" "W:W27,K11:B3,K9" | sed 's/ in [0-9]* plies//' >"$T_TMP/p1.txt"
"$PDNKIT" egdb probe --dir "$D" "W:W20,K15:B12,K28" "B:WK1:BK10,K15" "B:W8,11:B4" "W:W27,K11:B3,K9" | sed 's/ in [0-9]* plies//' >"$T_TMP/p2.txt"
[ "$(grep -c 'wins\|draw' "$T_TMP/p1.txt")" -eq 4 ] && pass || fail "four values from the packed level: $(cat "$T_TMP/p1.txt")"
cmp -s "$T_TMP/p1.txt" "$T_TMP/p2.txt" && pass || fail "packed and with distances give the same values: $(diff "$T_TMP/p1.txt" "$T_TMP/p2.txt")"
done_testing
