# Self-play and training: selfplay's games are valid PDN, numbered, resumable and
# sharded; train learns pattern weights from them that the engine loads, the same
# weights every run; a pattern file that is wrong is refused with its line.
. "$TESTS_DIR/lib.sh"
# A weights file refused when loaded: exit status 3 and the reason.
bad_file() {
	run "$PDNKIT" analyze -d 4 "$1" "$2"
	expect_rc 3 "$4"
	expect_err_has "$3" "$4"
}
SP="$T_TMP/sp.pdn"
# The training checks below keep the last epoch's weights (--keep-last): on so small a
# set the held-out part may prefer none, and they check what a fit writes, not its worth.

run "$PDNKIT" selfplay -n 30 -d 3 -c 2 -o "$SP" --adjudicate none
expect_rc 0 "selfplay plays"
expect_out_has "30 games played" "thirty games"
run "$PDNKIT" validate "$SP"
expect_err_has "30 games read: 30 valid, 0 with errors, 0 with warnings" "they are valid PDN"
run "$PDNKIT" selfplay -n 40 -d 3 -o "$SP" --adjudicate none
expect_out_has "10 games played" "a rerun with more games plays only the new ones"
run "$PDNKIT" selfplay -n 40 -d 3 -o "$SP" --adjudicate none
expect_out_has "already" "a finished set plays nothing"
[ "$(grep -c '^\[Round ' "$SP")" = 40 ] && pass || fail "forty rounds in the file"
# a game cut short at the end of the file (killed while writing) is not counted: it is
# cut off and its round played again
cp "$SP" "$T_TMP/cut.pdn"
SZ=$(wc -c <"$T_TMP/cut.pdn")
head -c $((SZ - 40)) "$SP" >"$T_TMP/cut.pdn"
run "$PDNKIT" selfplay -n 40 -d 3 -o "$T_TMP/cut.pdn" --adjudicate none
expect_err_has "1 game cut short at the end" "the cut game is said"
expect_out_has "1 games played" "its round is played again"
run "$PDNKIT" validate "$T_TMP/cut.pdn"
expect_err_has "40 games read: 40 valid, 0 with errors" "the file is whole again"
# self-play of another variant: valid games of it, resumable as English's
run "$PDNKIT" selfplay --variant international -n 6 -d 3 -c 2 -o "$T_TMP/spi.pdn"
expect_rc 0 "selfplay --variant international"
expect_out_has "6 games played" "six games"
run "$PDNKIT" validate "$T_TMP/spi.pdn"
expect_err_has "6 games read: 6 valid, 0 with errors, 0 with warnings, 6 of other variants replayed" "valid International games"
[ "$(grep -c '^\[GameType "20"\]' "$T_TMP/spi.pdn")" = 6 ] && pass || fail "each with its GameType"
run "$PDNKIT" selfplay --variant international -n 8 -d 3 -c 2 -o "$T_TMP/spi.pdn"
expect_out_has "2 games played" "a rerun plays the new ones only"
run "$PDNKIT" selfplay --variant chess -n 2 -o "$T_TMP/x.pdn"
expect_rc 2 "an unknown variant"
# --at-pieces: each game of the openings file from its first position of at most N pieces
# with no capture to make (reached by the 8 plies before it)
run "$PDNKIT" selfplay --variant international --openings "$T_TMP/spi.pdn" --at-pieces 30 --random 0 -n 2 -d 2 -c 1 -o "$T_TMP/spa.pdn"
expect_rc 0 "selfplay --at-pieces"
expect_out_has "2 games played" "two games of the endings"
run "$PDNKIT" validate "$T_TMP/spa.pdn"
expect_err_has "2 games read: 2 valid" "valid games"
for g in 1 2; do
	n=$("$PDNKIT" diagram "$T_TMP/spa.pdn" --game $g --ply 8 --format text | grep -o '[⛀⛁⛂⛃]' | wc -l)
	[ "$n" -le 30 ] && [ "$n" -ge 20 ] && pass || fail "game $g after its 8 plies: $n pieces, not 30 or fewer"
done
[ "$(grep -c '^\[FEN "W:W31,32,33,34,35,36' "$T_TMP/spa.pdn")" = 0 ] && pass || fail "a game from the start position"
printf '[GameType "20"]\n[Result "*"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n' > "$T_TMP/short.pdn"
run "$PDNKIT" selfplay --variant international --openings "$T_TMP/short.pdn" --at-pieces 2 -n 2 -o "$T_TMP/x.pdn"
expect_rc 2 "no game reaches two pieces without a capture"
expect_err_has "reaches 2 pieces or fewer" "says so"
run "$PDNKIT" selfplay --variant international --at-pieces 20 -n 2 -o "$T_TMP/x.pdn"
expect_rc 2 "--at-pieces without --openings"
run "$PDNKIT" match --variant international --openings "$T_TMP/spi.pdn" --at-pieces 30 --a "--depth 1" --b "--depth 2" --games 2 -c 1 --json
expect_rc 0 "match --at-pieces: a match of the endings"
expect_out_has '"games":2,' "its two games"
run "$PDNKIT" match --variant international --at-pieces 30 --a "--depth 1" --b "--depth 2" --games 2
expect_rc 2 "match --at-pieces without --openings"
run "$PDNKIT" selfplay --variant international --openings "$T_TMP/spi.pdn" --at-pieces 51 -n 2 -o "$T_TMP/x.pdn"
expect_rc 2 "--at-pieces past the board's squares"
# the patterns of International draughts learned from its games: a file the engine
# loads (and refuses for another variant), whose weights change the search
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vp.txt" -j -q --threads 2
expect_rc 0 "train --variant international"
expect_out_has '"checksum":"' "its checksum"
head -1 "$T_TMP/vp.txt" | grep -qx 'pdnkit-vpatterns 1' && grep -qx 'gametype 20' "$T_TMP/vp.txt" && pass || fail "the file's header: $(head -3 "$T_TMP/vp.txt")"
[ "$(grep -c '^[0-9]' "$T_TMP/vp.txt")" -gt 100 ] && pass || fail "few weights learned: $(grep -c '^[0-9]' "$T_TMP/vp.txt")"
run "$PDNKIT" analyze --variant international --depth 6 --patterns "$T_TMP/vp.txt"
expect_rc 0 "the engine loads them"
with=$(echo "$OUT" | grep -v bestmove | tail -1 | awk '{ print $2, $3 }')
run "$PDNKIT" analyze --variant international --depth 6 --patterns none
without=$(echo "$OUT" | grep -v bestmove | tail -1 | awk '{ print $2, $3 }')
[ -n "$with" ] && [ "$with" != "$without" ] && pass || fail "the patterns change nothing ($with, $without)"
run "$PDNKIT" analyze --variant russian --depth 4 --patterns "$T_TMP/vp.txt"
expect_rc 3 "patterns for a board without them"
sed 's/^gametype 20/gametype 40/' "$T_TMP/vp.txt" >"$T_TMP/vp40.txt"
run "$PDNKIT" analyze --variant international --depth 4 --patterns "$T_TMP/vp40.txt"
expect_rc 3 "patterns of another variant"
expect_err_has "are not for International draughts" "said whose they are"
printf 'pdnkit-vpatterns 1\ngametype 20\n0 99 1 5\n' >"$T_TMP/vpbad.txt"
run "$PDNKIT" analyze --variant international --depth 4 --patterns "$T_TMP/vpbad.txt"
expect_rc 3 "a window out of range"
expect_err_has "line 3" "the line named"
# --tie rows: the four windows of each row of windows share one table (the file keeps
# a table per window); all: the sixteen share one
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --tie rows --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpr.txt" -q --threads 2
expect_rc 0 "train --variant --tie rows"
awk '/^[0-9]/ { w[$1 " " $2 " " $3] = $4 }
     END { bad = 0; n = 0
           for (k in w) { split(k, a, " "); lead = int(a[2] / 4) * 4; n++
                          if (w[a[1] " " lead " " a[3]] != w[k]) bad++ }
           exit !(n > 100 && bad == 0) }' "$T_TMP/vpr.txt" && pass || fail "the windows of a row differ"
awk '/^[0-9]/ && $2 == 5 { n++ } END { exit !(n > 20) }' "$T_TMP/vpr.txt" && pass || fail "window 5 has no weights"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --tie all --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpa.txt" -q --threads 2
awk '/^[0-9]/ { w[$1 " " $2 " " $3] = $4 }
     END { bad = 0; for (k in w) { split(k, a, " "); if (w[a[1] " 0 " a[3]] != w[k]) bad++ }; exit !(bad == 0) }' "$T_TMP/vpa.txt" && pass || fail "--tie all: windows differ"
# --tie colours: a window's weight of an index is minus its partner's (the window turned
# half a circle) of the index turned (the squares in the other order, the sides swapped)
for nw in 16 25 35; do
	run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --tie colours --windows $nw --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpc$nw.txt" -q --threads 2
	expect_rc 0 "train --variant --tie colours --windows $nw"
	awk -v nw=$nw 'function turned(x,   y, d, c) { y = 0; for (d = 0; d < 8; d++) { c = x % 3; x = int(x / 3); y = y * 3 + (c == 1 ? 2 : c == 2 ? 1 : 0) }; return y }
	     /^[0-9]/ { w[$1 " " $2 " " $3] = $4 }
	     END { bad = 0; n = 0
	           for (k in w) { split(k, a, " "); p = a[2] < 16 ? 15 - a[2] : a[2] < 25 ? 40 - a[2] : a[2] < 31 ? 56 - a[2] : 66 - a[2]; n++
	                          if (w[a[1] " " p " " turned(a[3])] != -w[k]) bad++ }
	           exit !(n > 100 && bad == 0) }' "$T_TMP/vpc$nw.txt" && pass || fail "--tie colours --windows $nw: a weight not minus its partner's"
done
run "$PDNKIT" analyze --variant international --depth 4 --patterns "$T_TMP/vpc16.txt"
expect_rc 0 "the colours-tied weights load and search"
# --windows 25: the nine regions between the sixteen too, a file that says so and loads
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --windows 25 --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vp25.txt" -q --threads 2
expect_rc 0 "train --variant --windows 25"
grep -qx 'windows 25' "$T_TMP/vp25.txt" && pass || fail "the file does not say its windows: $(head -4 "$T_TMP/vp25.txt")"
awk '/^[0-9]/ && $2 >= 16 { n++ } END { exit !(n > 20) }' "$T_TMP/vp25.txt" && pass || fail "windows 16-24 have no weights"
# a file of more windows than sixteen loads, and is refused without its 'windows' line
more_windows_load() {   # FILE WHAT
	run "$PDNKIT" analyze --variant international --depth 6 --patterns "$1"
	expect_rc 0 "the engine loads $2"
	grep -v '^windows' "$1" >"$1.bad"
	run "$PDNKIT" analyze --variant international --depth 4 --patterns "$1.bad"
	expect_rc 3 "the weights of $2 in a file of sixteen"
}
more_windows_load "$T_TMP/vp25.txt" "windows 16-24"
# --windows 35: the ten strips too (tables 26-35, after the material's), each with weights,
# and the engine loads them; a file without the line is refused
grep -qx 'windows 35' "$T_TMP/vpc35.txt" && pass || fail "the file does not say its 35 windows: $(head -4 "$T_TMP/vpc35.txt")"
for t in 26 27 28 29 30 31 32 33 34 35; do
	awk -v t=$t '/^[0-9]/ && $2 == t { n++ } END { exit !(n > 5) }' "$T_TMP/vpc35.txt" || fail "strip table $t has no weights"
done
awk '/^[0-9]/ && ($2 == 25 || $2 > 35) { n++ } END { exit !(n == 0) }' "$T_TMP/vpc35.txt" && pass || fail "weights outside the 35 windows' tables"
more_windows_load "$T_TMP/vpc35.txt" "the strips"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --windows 30
expect_rc 2 "--windows 30 with --variant"
expect_err_has "give 16, 25 or 35" "the choices named"
# --base-patterns with --variant: the fit adds to those patterns and writes the sum, in
# their windows; nothing fitted (no weight seen often enough) writes them unchanged
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --base-patterns builtin --min-count 1000000 --epochs 2 --skip 2 -o "$T_TMP/vpb0.txt" -q --threads 2
expect_rc 0 "train --variant --base-patterns builtin"
[ "$(grep '^[0-9]' "$T_TMP/vpb0.txt" | md5sum)" = "$(grep '^[0-9]' "$TESTS_DIR/../book/vpatterns-international.txt" | md5sum)" ] && pass ||
	fail "nothing fitted, yet the weights are not the built-in ones"
grep -qx 'pieces men' "$T_TMP/vpb0.txt" && grep -qx 'windows 25' "$T_TMP/vpb0.txt" && pass || fail "the base's windows not kept: $(head -4 "$T_TMP/vpb0.txt")"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --base-patterns "$T_TMP/vpb0.txt" --min-count 1 --epochs 3 --skip 2 -o "$T_TMP/vpb1.txt" -q --threads 2
expect_rc 0 "train --variant --base-patterns FILE"
[ "$(grep '^[0-9]' "$T_TMP/vpb1.txt" | md5sum)" != "$(grep '^[0-9]' "$T_TMP/vpb0.txt" | md5sum)" ] && pass || fail "the fit added nothing to the base"
run "$PDNKIT" analyze --variant international --depth 4 --patterns "$T_TMP/vpb1.txt"
expect_rc 0 "the engine loads the sum"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --base-patterns builtin --windows 16
expect_rc 2 "--base-patterns with fewer --windows"
expect_err_has "the base patterns have 25" "the base's windows named"
# more windows than the base's: the strips added, starting at 0 (nothing fitted: the
# base's weights unchanged, in a file of 35 windows that loads)
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --base-patterns builtin --windows 35 --min-count 1000000 --epochs 2 --skip 2 -o "$T_TMP/vpb35.txt" -q --threads 2
expect_rc 0 "train --variant --base-patterns builtin --windows 35"
[ "$(grep '^[0-9]' "$T_TMP/vpb35.txt" | md5sum)" = "$(grep '^[0-9]' "$TESTS_DIR/../book/vpatterns-international.txt" | md5sum)" ] &&
	grep -qx 'windows 35' "$T_TMP/vpb35.txt" && grep -qx 'pieces men' "$T_TMP/vpb35.txt" && pass ||
	fail "the base's weights not kept in 35 windows: $(head -4 "$T_TMP/vpb35.txt")"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --base-patterns builtin --windows 35 --min-count 1 --epochs 3 --skip 2 -o "$T_TMP/vpb35f.txt" -q --threads 2
expect_rc 0 "the strips fitted on top of the built-in windows"
awk '/^[0-9]/ && $2 >= 26 { n++ } END { exit !(n > 20) }' "$T_TMP/vpb35f.txt" && pass || fail "the strips have no weights"
run "$PDNKIT" analyze --variant international --depth 4 --patterns "$T_TMP/vpb35f.txt"
expect_rc 0 "the engine loads the built-in windows with strips"
# --end-phase: only the last phase's weights move; the first phase's are the base's
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --base-patterns "$T_TMP/vpb0.txt" --end-phase --min-count 1 --epochs 3 --skip 2 -o "$T_TMP/vpb2.txt" -q --threads 2
expect_rc 0 "train --variant --end-phase"
[ "$(grep '^0 ' "$T_TMP/vpb2.txt" | md5sum)" = "$(grep '^0 ' "$T_TMP/vpb0.txt" | md5sum)" ] && pass || fail "--end-phase moved the first phase's weights"
[ "$(grep '^1 ' "$T_TMP/vpb2.txt" | md5sum)" != "$(grep '^1 ' "$T_TMP/vpb0.txt" | md5sum)" ] && pass || fail "--end-phase fitted nothing"
run "$PDNKIT" train "$T_TMP/spi.pdn" --end-phase
expect_rc 2 "--end-phase without --variant"
# --men-only: the windows see men alone; the file says so, the engine loads it, and its
# weights are another fit than the windows that see kings as men
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --men-only --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpm.txt" -q --threads 2
expect_rc 0 "train --variant --men-only"
grep -qx 'pieces men' "$T_TMP/vpm.txt" && pass || fail "the file does not say its windows see men only: $(head -4 "$T_TMP/vpm.txt")"
grep -qx 'pieces men' "$T_TMP/vp.txt" && fail "a file of all the pieces says men only" || pass
[ "$(grep '^[0-9]' "$T_TMP/vpm.txt" | md5sum)" != "$(grep '^[0-9]' "$T_TMP/vp.txt" | md5sum)" ] && pass || fail "--men-only fitted the same weights"
run "$PDNKIT" analyze --variant international --depth 6 --patterns "$T_TMP/vpm.txt"
expect_rc 0 "the engine loads windows of men"
run "$PDNKIT" train "$T_TMP/spi.pdn" --men-only
expect_rc 2 "--men-only without --variant"
# --material with --variant: a table of each side's men and kings, window 25 of the file,
# which the engine loads and searches with (another tree than the windows fitted alone)
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --men-only --material --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpmm.txt" -q --threads 2
expect_rc 0 "train --variant --material"
grep -qx 'material' "$T_TMP/vpmm.txt" && pass || fail "the file does not say it has the material table: $(head -5 "$T_TMP/vpmm.txt")"
grep -q '^[01] 25 ' "$T_TMP/vpmm.txt" && pass || fail "no weight of the material table (window 25) in the file"
run "$PDNKIT" analyze --variant international --depth 6 --patterns "$T_TMP/vpmm.txt" -j
expect_rc 0 "the engine loads the material table"
mat_nodes=$(printf '%s\n' "$OUT" | tail -1 | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
run "$PDNKIT" analyze --variant international --depth 6 --patterns "$T_TMP/vpm.txt" -j
men_nodes=$(printf '%s\n' "$OUT" | tail -1 | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
[ -n "$mat_nodes" ] && [ "$mat_nodes" != "$men_nodes" ] && pass || fail "the material table changed no search: $mat_nodes against $men_nodes nodes"
# --phase tempo: the phases placed by the men's rows to go; the file says so, the engine
# loads it; only with --variant, and only tempo or pieces
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --men-only --phase tempo --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpt.txt" -q --threads 2
expect_rc 0 "train --variant --phase tempo"
grep -qx 'phase tempo' "$T_TMP/vpt.txt" && pass || fail "the file does not say its phases are by tempo: $(head -5 "$T_TMP/vpt.txt")"
[ "$(grep '^[0-9]' "$T_TMP/vpt.txt" | md5sum)" != "$(grep '^[0-9]' "$T_TMP/vpm.txt" | md5sum)" ] && pass || fail "--phase tempo fitted the same weights"
run "$PDNKIT" analyze --variant international --depth 6 --patterns "$T_TMP/vpt.txt"
expect_rc 0 "the engine loads phases by tempo"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --phase moves
expect_rc 2 "--phase moves"
expect_err_has "pieces or tempo" "the choices named"
run "$PDNKIT" train "$T_TMP/spi.pdn" --phase tempo
expect_rc 2 "--phase without --variant"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --windows 9
expect_rc 2 "--windows 9 with --variant"
expect_err_has "from 16 to 35" "the range named"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --tie row
expect_rc 2 "--tie row: not a tie"
expect_err_has "did you mean" "the nearest word offered"
run "$PDNKIT" train "$T_TMP/spi.pdn" --tie rows
expect_rc 2 "--tie without --variant"
run "$PDNKIT" train --variant russian "$T_TMP/spi.pdn"
expect_rc 2 "train --variant of a board without patterns"
run "$PDNKIT" train --variant international --net --tie rows "$T_TMP/spi.pdn"
expect_rc 2 "train --variant --net with an option of windows"
run "$PDNKIT" train --calm "$T_TMP/spi.pdn"
expect_rc 2 "--calm without --variant"
# --calm: the positions where the side not to move has a capture too left out
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --epochs 1 --skip 2 -j -q
all=$(echo "$OUT" | grep -o '"train":[0-9]*' | cut -d: -f2)
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --epochs 1 --skip 2 --calm -j -q
calm=$(echo "$OUT" | grep -o '"train":[0-9]*' | cut -d: -f2)
[ -n "$all" ] && [ -n "$calm" ] && [ "$calm" -gt 0 ] && [ "$calm" -lt "$all" ] && pass ||
	fail "--calm leaves out positions: $calm of $all training positions ($OUT)"
# labelled by the variant's own searches, the labels kept in a file and read back
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-file "$T_TMP/vl.lab" --lambda 0.3 \
	--keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpl.txt" -j -q --threads 2
expect_rc 0 "train --variant --label-depth"
n=$(echo "$OUT" | grep -o '"labelled":[0-9]*' | cut -d: -f2)
[ -n "$n" ] && [ "$n" -gt 100 ] && pass || fail "International positions labelled by a search: '$n': $OUT"
cmp -s "$T_TMP/vp.txt" "$T_TMP/vpl.txt" && fail "the search labels change no weight" || pass
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-file "$T_TMP/vl.lab" --lambda 0.3 \
	--keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpl2.txt" --threads 2
expect_err_has "labelled from the labels file" "the labels read back"
[ "$(grep -v '^#' "$T_TMP/vpl.txt" | cksum)" = "$(grep -v '^#' "$T_TMP/vpl2.txt" | cksum)" ] && pass ||
	fail "the same labels read back fit other weights"
# --td: temporal differences over each game's labelled positions. At 1 every target is the
# game's result turned to the position's side, as --lambda 1 makes it (the same weights);
# below 1 the scores come in, and the weights differ from both --lambda 1's and --lambda 0's
for a in "--td 1" "--lambda 1" "--td 0.5" "--lambda 0"; do
	f=$T_TMP/vtd-$(echo "$a" | tr -d ' -.').txt
	run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-file "$T_TMP/vl.lab" $a \
		--labelled-only --keep-last --min-count 1 --epochs 10 --skip 2 -o "$f" -q --threads 2
	expect_rc 0 "train --variant $a"
done
w() { grep -v '^#' "$T_TMP/vtd-$1.txt" | cksum; }
[ "$(w td1)" = "$(w lambda1)" ] && pass || fail "--td 1 fits other weights than --lambda 1 (the results turned wrongly?)"
[ "$(w td05)" != "$(w lambda1)" ] && [ "$(w td05)" != "$(w lambda0)" ] && pass ||
	fail "--td 0.5 fits the weights of the results alone or of the scores alone"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --td 0.5 --lambda 0.3
expect_rc 2 "--td with --lambda"
expect_err_has "not with --lambda" "--td with --lambda says why"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --td 0.5
expect_rc 2 "--td without --label-depth"
for v in 0 1.5 x; do
	run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --td $v
	expect_rc 2 "--td $v"
done
# --label-endgame: the positions of at most N pieces searched to its depth (here every one:
# the labels, and so the weights, of --label-depth 3 alone; none of depth 1's)
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 1 --label-endgame 40:3 --lambda 0.3 \
	--keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vpe.txt" -q --threads 2
expect_rc 0 "train --variant --label-endgame"
[ "$(grep -v '^#' "$T_TMP/vpl.txt" | cksum)" = "$(grep -v '^#' "$T_TMP/vpe.txt" | cksum)" ] && pass ||
	fail "--label-endgame 40:3 fits other weights than --label-depth 3"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 1 --lambda 0.3 \
	--keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vp1.txt" -q --threads 2
[ "$(grep -v '^#' "$T_TMP/vp1.txt" | cksum)" != "$(grep -v '^#' "$T_TMP/vpe.txt" | cksum)" ] && pass ||
	fail "depth-1 labels fit the same weights as depth 3's"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 1 --label-endgame 41:3
expect_rc 2 "--label-endgame past a 10x10 board's 40 pieces"
run "$PDNKIT" train --variant international --label-egdb none --label-depth 3 "$T_TMP/spi.pdn"
expect_rc 2 "train --variant with the English databases' label option"
# --labelled-only: with every other position labelled, the others left out of the fit
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-every 2 --label-file "$T_TMP/vl2.lab" --lambda 0 \
	--keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vlo1.txt" -q --threads 2
expect_rc 0 "train --label-every 2"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-every 2 --label-file "$T_TMP/vl2.lab" --lambda 0 \
	--labelled-only --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vlo2.txt" -q --threads 2
expect_rc 0 "train --labelled-only"
[ "$(grep -v '^#' "$T_TMP/vlo1.txt" | cksum)" != "$(grep -v '^#' "$T_TMP/vlo2.txt" | cksum)" ] && pass ||
	fail "--labelled-only fits the same weights as the fit with the results of the unlabelled positions"
# --kept-labels-only: the labels of the file alone, nothing searched (every position asked
# for, half of them in the file: half labelled)
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-every 2 --label-file "$T_TMP/vl2.lab" --lambda 0 \
	--labelled-only --keep-last --min-count 1 --epochs 2 --skip 2 -j -q --threads 2
half=$(echo "$OUT" | grep -o '"labelled":[0-9]*' | cut -d: -f2)
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-file "$T_TMP/vl2.lab" --lambda 0 \
	--kept-labels-only --labelled-only --keep-last --min-count 1 --epochs 2 --skip 2 -j --threads 2
expect_rc 0 "train --kept-labels-only"
kept=$(echo "$OUT" | grep -o '"labelled":[0-9]*' | cut -d: -f2)
[ -n "$half" ] && [ "$half" -gt 50 ] && [ "$kept" = "$half" ] && pass || fail "--kept-labels-only labelled $kept, the file holds $half"
expect_err_has "the others left unlabelled" "said so"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --kept-labels-only
expect_rc 2 "--kept-labels-only without --label-file"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --kept-labels-only --label-file "$T_TMP/none.lab"
expect_rc 3 "--kept-labels-only with no such file"
expect_err_has "none.lab" "the file named"
# --label-format ordered: a score a position in order, compressed by the name's .zst; the
# same searches' labels fit the same weights as the keyed file's, in a fraction of the bytes; an
# ordered file is read back only with the same games, and left as it is otherwise
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-file "$T_TMP/vlo.lab.zst" --label-format ordered \
	--lambda 0.3 --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vplo.txt" -q --threads 2
expect_rc 0 "train --label-format ordered to a .zst file"
head -c 4 "$T_TMP/vlo.lab.zst" | od -An -tx1 | grep -q "28 b5 2f fd" && pass || fail "the .zst labels file is no zstd frame"
[ "$(grep -v '^#' "$T_TMP/vpl.txt" | cksum)" = "$(grep -v '^#' "$T_TMP/vplo.txt" | cksum)" ] && pass ||
	fail "the ordered labels fit other weights than the keyed ones"
zs=$(wc -c < "$T_TMP/vlo.lab.zst"); ks=$(wc -c < "$T_TMP/vl.lab")
[ "$zs" -gt 0 ] && [ $((zs * 4)) -lt "$ks" ] && pass || fail "ordered and compressed: $zs bytes against $ks keyed"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-file "$T_TMP/vlo.lab.zst" \
	--lambda 0.3 --keep-last --min-count 1 --epochs 10 --skip 2 -o "$T_TMP/vplo2.txt" --threads 2
expect_err_has "labelled from the labels file" "the ordered labels read back"
[ "$(grep -v '^#' "$T_TMP/vplo.txt" | cksum)" = "$(grep -v '^#' "$T_TMP/vplo2.txt" | cksum)" ] && pass ||
	fail "the ordered labels read back fit other weights"
head -n 40 "$T_TMP/spi.pdn" > "$T_TMP/spi-part.pdn"
before=$(cksum < "$T_TMP/vlo.lab.zst")
run "$PDNKIT" train --variant international "$T_TMP/spi-part.pdn" --label-depth 3 --label-file "$T_TMP/vlo.lab.zst" --epochs 1
expect_rc 2 "an ordered labels file of other games"
expect_err_has "of other games" "said why"
[ "$(cksum < "$T_TMP/vlo.lab.zst")" = "$before" ] && pass || fail "an ordered labels file of other games was replaced"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-format packed --label-file "$T_TMP/x.lab"
expect_rc 2 "--label-format packed"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --label-depth 3 --label-format ordered
expect_rc 2 "--label-format without --label-file"
run "$PDNKIT" train --variant international "$T_TMP/spi.pdn" --labelled-only
expect_rc 2 "--labelled-only without --label-depth"
expect_err_has "go with --label-depth" "said so"
# shards: the union of two shards is the whole set, game for game
run "$PDNKIT" selfplay -n 12 -d 3 --shard 1/2 -o "$T_TMP/s1.pdn" --adjudicate none
run "$PDNKIT" selfplay -n 12 -d 3 --shard 2/2 -o "$T_TMP/s2.pdn" --adjudicate none
run "$PDNKIT" selfplay -n 12 -d 3 -o "$T_TMP/s12.pdn" --adjudicate none -c 1
a=$(cat "$T_TMP/s1.pdn" "$T_TMP/s2.pdn" | grep -v 'Seconds' | awk '/^\[Event/{n++} {print > ("'"$T_TMP"'/g" n)}'; \
    for f in "$T_TMP"/g*; do grep '^\[Round' "$f" | tr -d '\n'; grep -v '^\[Round' "$f" | grep -v '^\[Event' | tr -d '\n'; echo; done | sort | md5sum)
rm -f "$T_TMP"/g*
b=$(grep -v 'Seconds' "$T_TMP/s12.pdn" | awk '/^\[Event/{n++} {print > ("'"$T_TMP"'/g" n)}'; \
    for f in "$T_TMP"/g*; do grep '^\[Round' "$f" | tr -d '\n'; grep -v '^\[Round' "$f" | grep -v '^\[Event' | tr -d '\n'; echo; done | sort | md5sum)
[ "$a" = "$b" ] && pass || fail "two shards give the games of one run"
run "$PDNKIT" selfplay -n 10 --shard 3/2 -o "$T_TMP/x.pdn"
expect_rc 2 "a shard beyond N"
run "$PDNKIT" selfplay -n 10
expect_rc 2 "no output file"

# train
run "$PDNKIT" train "$SP" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --epochs 20 --min-count 1 --l2 1 --keep-last -o "$T_TMP/p1.txt" -j -q --threads 2
expect_rc 0 "train on self-play games"
expect_out_has '"checksum":"' "a checksum"
expect_out_has '"best_epoch":20,' "--keep-last keeps the last of the 20 epochs"
c1=$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')
run "$PDNKIT" train "$SP" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --epochs 20 --min-count 1 --l2 1 --keep-last -o "$T_TMP/p2.txt" -j -q --threads 2
c2=$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')
[ -n "$c1" ] && [ "$c1" = "$c2" ] && pass || fail "the same games give the same weights ($c1, $c2)"
cmp -s "$T_TMP/p1.txt" "$T_TMP/p2.txt" && pass || fail "the same file twice"
head -1 "$T_TMP/p1.txt" | grep -qx 'pdnkit-patterns 2' && pass || fail "the file starts with its format line"
grep -qx 'phases [0-9]*' "$T_TMP/p1.txt" && pass || fail "and names its phases"
# format 1 (two phases, no phases line) is still read: the same weights, the same search
run "$PDNKIT" analyze -d 8 --patterns "$T_TMP/p1.txt"; a2=$(echo "$OUT" | awk '{ print $1, $2, $3 }')
if grep -qx 'phases 2' "$T_TMP/p1.txt"; then
	sed -e '1s/.*/pdnkit-patterns 1/' -e '/^phases /d' "$T_TMP/p1.txt" > "$T_TMP/p1v1.txt"
	run "$PDNKIT" analyze -d 8 --patterns "$T_TMP/p1v1.txt"
	expect_rc 0 "a format 1 file loads"
	[ "$(echo "$OUT" | awk '{ print $1, $2, $3 }')" = "$a2" ] && pass || fail "format 1 and 2 of the same weights search alike (depths, scores, nodes)"
fi
# all 25 places of the region: format 3 with its windows line; a window past 8 is used
run "$PDNKIT" train "$SP" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --windows 25 --epochs 20 --min-count 1 --l2 1 --keep-last -o "$T_TMP/p25.txt" -j -q --threads 2
expect_rc 0 "train with 25 windows"
head -1 "$T_TMP/p25.txt" | grep -qx 'pdnkit-patterns 3' && grep -qx 'windows 25' "$T_TMP/p25.txt" && pass || fail "format 3 with its windows line"
awk '$2 >= 9 && NF == 4 && $1 ~ /^[0-9]+$/' "$T_TMP/p25.txt" | grep -q . && pass || fail "weights of the windows past the first nine"
run "$PDNKIT" analyze -d 8 --patterns "$T_TMP/p25.txt"
expect_rc 0 "the engine loads 25 windows"
[ "$(echo "$OUT" | awk '{ print $1, $2, $3 }')" != "$a2" ] && pass || fail "they search otherwise than nine"
# nine windows of format 3 are the same weights as format 2: the same checksum
{ echo 'pdnkit-patterns 3'; echo 'windows 9'; sed 1d "$T_TMP/p1.txt"; } > "$T_TMP/p1v3.txt"
run "$PDNKIT" analyze -d 8 --patterns "$T_TMP/p1v3.txt"
expect_rc 0 "format 3 with nine windows loads"
[ "$(echo "$OUT" | awk '{ print $1, $2, $3 }')" = "$a2" ] && pass || fail "and searches as format 2"
# the material table: a "material" line and weights of window 25
run "$PDNKIT" train "$SP" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --material --epochs 20 --min-count 1 --l2 1 --keep-last -o "$T_TMP/pm.txt" -j -q --threads 2
expect_rc 0 "train with the material table"
head -1 "$T_TMP/pm.txt" | grep -qx 'pdnkit-patterns 3' && grep -qx 'windows 9' "$T_TMP/pm.txt" && grep -qx 'material' "$T_TMP/pm.txt" && pass || fail "format 3 with nine windows and the material line"
awk '$2 == 25 && NF == 4' "$T_TMP/pm.txt" | grep -q . && pass || fail "weights of the material table"
awk '$2 >= 9 && $2 < 25 && NF == 4 && $1 ~ /^[0-9]+$/' "$T_TMP/pm.txt" | grep -q . && fail "no window past 8 with nine windows" || pass
run "$PDNKIT" analyze -d 8 --patterns "$T_TMP/pm.txt"
expect_rc 0 "the engine loads the material table"
grep -v '^material$' "$T_TMP/pm.txt" > "$T_TMP/bad9.txt"
bad_file --patterns "$T_TMP/bad9.txt" "WINDOW (0-8) INDEX" "material weights without the material line refused"
{ head -4 "$T_TMP/pm.txt"; echo 'material'; echo 'material'; } > "$T_TMP/bad10.txt"
bad_file --patterns "$T_TMP/bad10.txt" "a second \"material\" line" "two material lines refused"
run "$PDNKIT" train "$SP" --material --net --epochs 1
expect_rc 2 "--material is for patterns"
run "$PDNKIT" train "$SP" --windows 16 --epochs 1
expect_rc 2 "--windows 16 refused"
printf 'pdnkit-patterns 3\nphases 2\nwindows 25\n0 24 5 3\n1 25 5 3\n' > "$T_TMP/bad5.txt"
bad_file --patterns "$T_TMP/bad5.txt" "line 5: expected PHASE (0-1) WINDOW (0-24)" "window 25 out of range"
printf 'pdnkit-patterns 2\nphases 2\n0 9 5 3\n' > "$T_TMP/bad6.txt"
bad_file --patterns "$T_TMP/bad6.txt" "line 3: expected PHASE (0-1) WINDOW (0-8)" "format 2 has nine windows"
printf 'pdnkit-patterns 3\nphases 2\n0 1 5 3\n' > "$T_TMP/bad7.txt"
bad_file --patterns "$T_TMP/bad7.txt" "before the \"windows\" line" "format 3 needs its windows line"
printf 'pdnkit-patterns 3\nphases 2\nwindows 12\n' > "$T_TMP/bad8.txt"
bad_file --patterns "$T_TMP/bad8.txt" "windows must be 9 or 25" "windows 12 refused"
printf 'pdnkit-patterns 2\nphases 99\n0 0 5 3\n' > "$T_TMP/bad3.txt"
bad_file --patterns "$T_TMP/bad3.txt" "line 2: another number of phases" "a file of another phase count"
printf 'pdnkit-patterns 2\n0 0 5 3\n' > "$T_TMP/bad4.txt"
bad_file --patterns "$T_TMP/bad4.txt" "before the \"phases" "weights before the phases line"
# positions labelled by a search: every one searched, and the same weights every run
run "$PDNKIT" train "$SP" --label-depth 2 --epochs 10 --min-count 1 --keep-last -j -q --threads 2
expect_rc 0 "train with search labels"
lab=$(echo "$OUT" | sed 's/.*"labelled":\([0-9]*\).*/\1/'); tr=$(echo "$OUT" | sed 's/.*"train":\([0-9]*\).*/\1/')
[ -n "$lab" ] && [ "$lab" -gt 0 ] && pass || fail "positions were labelled ($lab)"
c3=$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')
run "$PDNKIT" train "$SP" --label-depth 2 --epochs 10 --min-count 1 --keep-last -j -q --threads 2
[ "$c3" = "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "search labels give the same weights every run"
run "$PDNKIT" train "$SP" --epochs 10 --min-count 1 --keep-last -j -q --threads 2
[ "$c3" != "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "the labels change the weights"
run "$PDNKIT" train "$SP" --label-depth 2 --label-every 5 --epochs 2 -j -q --threads 2
lab5=$(echo "$OUT" | sed 's/.*"labelled":\([0-9]*\).*/\1/')
[ -n "$lab5" ] && [ "$lab5" -lt "$lab" ] && pass || fail "--label-every 5 searches fewer positions ($lab5 of $lab)"
# endings searched deeper (--label-endgame N:D): other labels, hence other weights; at the
# depth of --label-depth, the weights of --label-depth alone
run "$PDNKIT" train "$SP" --label-depth 2 --label-endgame 24:4 --epochs 10 --min-count 1 --keep-last -j --threads 2
expect_rc 0 "train with endings labelled deeper"
expect_err_has "to depth 2 (4 for those of at most 24 pieces)" "the deeper endings said"
[ "$c3" != "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "--label-endgame 24:4 changes the labels"
run "$PDNKIT" train "$SP" --label-depth 2 --label-endgame 24:2 --epochs 10 --min-count 1 --keep-last -j -q --threads 2
[ "$c3" = "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "--label-endgame 24:2 labels as --label-depth 2 alone"
run "$PDNKIT" train "$SP" --label-depth 2 --label-endgame 10
expect_rc 2 "--label-endgame without the depth"
expect_err_has "give N:D" "--label-endgame N:D explained"
run "$PDNKIT" train "$SP" --label-depth 2 --label-endgame 10:0
expect_rc 2 "--label-endgame depth 0"
run "$PDNKIT" train "$SP" --label-endgame 10:4
expect_rc 2 "--label-endgame without --label-depth"
# the labelling search with the endgame databases: exact where they hold the position
mkdir -p "$T_TMP/eg3"
"$PDNKIT" egdb build -q --dir "$T_TMP/eg3" --pieces 3 >/dev/null 2>&1
run "$PDNKIT" train "$SP" --label-depth 2 --label-egdb "$T_TMP/eg3" --epochs 10 --min-count 1 --keep-last -j --threads 2
expect_rc 0 "train with search labels and the databases"
expect_err_has "labelled by a search to depth 2 with the endgame databases" "the labels said to use the databases"
[ "$c3" != "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "the databases change the labels of the games' endings"
run "$PDNKIT" train "$SP" --label-depth 2 --label-egdb none --epochs 10 --min-count 1 --keep-last -j --threads 2
[ "$c3" = "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "--label-egdb none: the weights of no databases"
expect_err_has "labelled by a search to depth 2 (" "no databases said"
run "$PDNKIT" train "$SP" --label-depth 2 --label-egdb "$T_TMP/no-such-dir" --epochs 2 -q
expect_rc 3 "--label-egdb: a directory that is not there"
run "$PDNKIT" train "$SP" --label-egdb none
expect_rc 2 "--label-egdb without --label-depth"
run "$PDNKIT" train "$SP" --lambda 0.3
expect_rc 2 "--lambda without --label-depth"
run "$PDNKIT" train "$SP" --label-depth 2 --lambda 1.5
expect_rc 2 "--lambda out of range"
if have_corpora "training on OCA 2.0"; then
	run "$PDNKIT" train "$CORPORA/OCA_2.0.pdn" --epochs 10 -j -q
	hl=$(echo "$OUT" | sed 's/.*"held_loss":\([0-9.]*\).*/\1/'); bl=$(echo "$OUT" | sed 's/.*"base_held":\([0-9.]*\).*/\1/')
	awk -v a="$hl" -v b="$bl" 'BEGIN { exit !(a < b) }' && pass || fail "the held-out loss goes down ($bl -> $hl)"
fi
run "$PDNKIT" analyze -d 6 --patterns "$T_TMP/p1.txt"
expect_rc 0 "the engine loads the weights"
run "$PDNKIT" analyze -d 6 --patterns none
expect_rc 0 "and goes without"
printf 'pdnkit-patterns 1\n0 9 5 3\n' > "$T_TMP/bad.txt"
run "$PDNKIT" analyze -d 4 --patterns "$T_TMP/bad.txt"
expect_rc 3 "a window out of range"
expect_err_has "line 2" "names the line"
printf 'hello\n' > "$T_TMP/bad2.txt"
bad_file --patterns "$T_TMP/bad2.txt" "not a pattern file" "a file that is no pattern file"
run "$PDNKIT" train "$T_TMP/nothing.pdn"
expect_rc 3 "a file that does not exist"
printf '[Event "x"]\n\n1. 11-15 *\n' > "$T_TMP/nores.pdn"
run "$PDNKIT" train "$T_TMP/nores.pdn"
expect_err_has "nothing to learn from" "games without a result"
# the network: training lowers the loss of what it adds to, the same network for a seed
# whatever the threads, another seed another one; the engine loads it and its checksum
run "$PDNKIT" train --net "$SP" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --epochs 4 --batch 64 --rate 0.005 --keep-last -o "$T_TMP/n1.txt" -j -q --threads 2
expect_rc 0 "train a network"
tl=$(echo "$OUT" | sed 's/.*"last_train":\([0-9.]*\).*/\1/'); bl=$(echo "$OUT" | sed 's/.*"base_train":\([0-9.]*\).*/\1/')
awk -v a="$tl" -v b="$bl" 'BEGIN { exit !(a < b) }' && pass || fail "the network lowers the training loss ($bl -> $tl)"
n1=$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')
run "$PDNKIT" train --net "$SP" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" --epochs 4 --batch 64 --rate 0.005 --keep-last -o "$T_TMP/n2.txt" -j -q --threads 1
cmp -s "$T_TMP/n1.txt" "$T_TMP/n2.txt" && pass || fail "the same network on one thread and on two"
run "$PDNKIT" train --net "$SP" --epochs 2 --batch 64 --seed 7 --keep-last -j -q
[ "$n1" != "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "another seed, another network"
head -2 "$T_TMP/n1.txt" | tr '\n' ' ' | grep -qx 'pdnkit-net 1 layers 128 64 32 1 ' && pass || fail "the network file's header"
run "$PDNKIT" analyze -d 8 --net "$T_TMP/n1.txt"
expect_rc 0 "the engine loads the network"
a_net=$(echo "$OUT" | tail -1)
run "$PDNKIT" analyze -d 8 --net none
[ "$(echo "$OUT" | tail -1)" != "$a_net" ] || [ "$(echo "$OUT" | awk 'NR==10')" != "$a_net" ] && pass || fail "the network changes the search"
# a stored annotation's settings name the network: another network annotates again
"$PDNKIT" import --db "$T_TMP/an.db" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" >/dev/null 2>&1
run "$PDNKIT" annotate --db "$T_TMP/an.db" -d 4 --net "$T_TMP/n1.txt" --quiet
run "$PDNKIT" annotate --db "$T_TMP/an.db" -d 4 --net "$T_TMP/n1.txt" --quiet
expect_err_has "0 games annotated, 1 skipped" "the same network: done before"
run "$PDNKIT" annotate --db "$T_TMP/an.db" -d 4 --net none --quiet
expect_err_has "1 games annotated" "no network: annotated again"
# a 10x10 board's network: 200 inputs, learned the same way; the variant's engine loads
# it and searches otherwise, English draughts' refuses it, and the other way round
run "$PDNKIT" train --variant international --net "$T_TMP/spi.pdn" --epochs 3 --batch 64 --rate 0.005 --keep-last --skip 2 -o "$T_TMP/vn.txt" -j -q --threads 2
expect_rc 0 "train --variant international --net"
tl=$(echo "$OUT" | sed 's/.*"last_train":\([0-9.]*\).*/\1/'); bl=$(echo "$OUT" | sed 's/.*"base_train":\([0-9.]*\).*/\1/')
awk -v a="$tl" -v b="$bl" 'BEGIN { exit !(a < b) }' && pass || fail "the 10x10 network lowers the training loss ($bl -> $tl)"
head -2 "$T_TMP/vn.txt" | tr '\n' ' ' | grep -q '^pdnkit-net 1 layers 200 ' && pass || fail "the 10x10 network file's header"
run "$PDNKIT" analyze --variant international --depth 6 --net "$T_TMP/vn.txt"
expect_rc 0 "the International engine loads the network"
with=$(echo "$OUT" | grep -v bestmove | tail -1 | awk '{ print $2, $3 }')
run "$PDNKIT" analyze --variant international --depth 6 --net none
without=$(echo "$OUT" | grep -v bestmove | tail -1 | awk '{ print $2, $3 }')
[ -n "$with" ] && [ "$with" != "$without" ] && pass || fail "the 10x10 network changes nothing ($with, $without)"
run "$PDNKIT" match --variant international --a "--depth 2 --net $T_TMP/vn.txt" --b "--depth 2" --games 2 -c 1
expect_rc 0 "a match with the network on one side"
run "$PDNKIT" analyze -d 4 --net "$T_TMP/vn.txt"
expect_rc 3 "English draughts with a 10x10 network"
expect_err_has "has 200 inputs" "said why"
run "$PDNKIT" analyze --variant international -d 4 --net "$T_TMP/n1.txt"
expect_rc 3 "International draughts with English draughts' network"
run "$PDNKIT" analyze --variant russian -d 4 --net "$T_TMP/vn.txt"
expect_rc 3 "a network for a board without one"
sed '$d' "$T_TMP/n1.txt" > "$T_TMP/nbad1.txt"
run "$PDNKIT" analyze -d 4 --net "$T_TMP/nbad1.txt"
expect_rc 3 "a network cut short"
expect_err_has "weights, the network has" "says how many weights it holds"
printf 'pdnkit-net 1\nlayers 128 16 16 1\n' > "$T_TMP/nbad2.txt"
bad_file --net "$T_TMP/nbad2.txt" "line 2: expected \"layers 128 64 32 1\"" "a network of another shape"
{ head -3 "$T_TMP/n1.txt"; echo "1 2 x 4"; } > "$T_TMP/nbad3.txt"
bad_file --net "$T_TMP/nbad3.txt" "line 4: not a whole number" "junk among the weights, with its line"
{ head -3 "$T_TMP/n1.txt"; echo "99999"; } > "$T_TMP/nbad4.txt"
bad_file --net "$T_TMP/nbad4.txt" "out of its range" "a weight out of range"
run "$PDNKIT" analyze -d 4 --net "$T_TMP/no-such-net.txt"
expect_rc 3 "a network file that is not there"
run "$PDNKIT" train "$SP" --batch 10
expect_rc 2 "--batch without --net"
run "$PDNKIT" train --net "$SP" --l2 3
expect_rc 2 "--l2 with --net"
# the labels kept in a file: read back instead of searched again, the same network each
# time they are read back (a position met twice is searched twice the first time, and
# the file keeps one score for it: that first network may differ)
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab.bin" --epochs 2 --batch 64 -j
expect_err_has "positions labelled by a search" "labels searched the first time"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab.bin" --epochs 2 --batch 64 --keep-last -j
expect_err_has "labelled from the labels file" "read back the second time"
l1=$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')
tl=$(echo "$OUT" | sed 's/.*"last_train":\([0-9.]*\).*/\1/'); bl=$(echo "$OUT" | sed 's/.*"base_train":\([0-9.]*\).*/\1/')
awk -v a="$tl" -v b="$bl" 'BEGIN { exit !(a < b) }' && pass || fail "a network learned from the labels ($bl -> $tl)"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab.bin" --epochs 2 --batch 64 --keep-last -j
[ "$l1" = "$(echo "$OUT" | sed 's/.*"checksum":"\([0-9a-f]*\)".*/\1/')" ] && pass || fail "the same network from the labels read back"
# a file of other settings is refused and left as it is, never replaced by a new labelling
cp "$T_TMP/lab.bin" "$T_TMP/lab-before.bin"
run "$PDNKIT" train --net "$SP" --label-depth 3 --label-file "$T_TMP/lab.bin" --epochs 1 --batch 64 -j
expect_rc 2 "labels of another depth refused"
expect_err_has "other settings" "another depth: the file's settings named"
expect_err_has "give another --label-file, or remove it" "another depth: what to do"
cmp -s "$T_TMP/lab.bin" "$T_TMP/lab-before.bin" && pass || fail "labels of another depth: the file left as it was"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-endgame 12:3 --label-file "$T_TMP/lab.bin" --epochs 1 --batch 64 -j
expect_rc 2 "endings labelled deeper refused"
expect_err_has "other settings" "endings labelled deeper: the file's settings named"
cmp -s "$T_TMP/lab.bin" "$T_TMP/lab-before.bin" && pass || fail "endings labelled deeper: the file left as it was"
# a stride past 255 reads the same labels (it once spilled into the depth's field, and the
# file was replaced by the few positions that stride picks)
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-every 1000 --label-file "$T_TMP/lab.bin" --epochs 1 --batch 64 -j
expect_rc 0 "--label-every 1000 with the labels file"
expect_err_has "labelled from the labels file" "--label-every 1000 reads the labels"
cmp -s "$T_TMP/lab.bin" "$T_TMP/lab-before.bin" && pass || fail "--label-every 1000: the file's labels all kept"
# the file labels the same positions of a larger collection: only the others searched
awk '/^\[Event/{n++} n <= 3' "$SP" >"$T_TMP/sp-half.pdn"
run "$PDNKIT" train --net "$T_TMP/sp-half.pdn" --label-depth 2 --label-file "$T_TMP/labh.bin" --epochs 1 --batch 64
expect_rc 0 "labels of a few games"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/labh.bin" --epochs 1 --batch 64
expect_err_has "with a score); searching the others" "a larger collection searches the others"
got=$(echo "$ERR" | sed -n 's/.*train: \([0-9]*\) of \([0-9]*\) positions labelled from.*/\1 \2/p')
[ -n "$got" ] && [ "${got% *}" -gt 0 ] && [ "${got% *}" -lt "${got#* }" ] && pass || fail "some, not all, labels from the smaller file: '$got'"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/labh.bin" --epochs 1 --batch 64
got2=$(echo "$ERR" | sed -n 's/.*train: \([0-9]*\) of \([0-9]*\) positions labelled from the labels file ([0-9]* with a score)$/\1 \2/p')
[ -n "$got2" ] && [ "${got2% *}" = "${got2#* }" ] && pass || fail "all labels read the third time: '$got2' ($ERR)"
# a run on fewer games that searches and writes the file keeps the labels of the others
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-every 2 --label-file "$T_TMP/labq.bin" --epochs 1 --batch 64
expect_rc 0 "every second position of all the games labelled"
run "$PDNKIT" train --net "$T_TMP/sp-half.pdn" --label-depth 2 --label-file "$T_TMP/labq.bin" --epochs 1 --batch 64
expect_err_has "searching the others" "fewer games, every position: the others searched"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-every 2 --label-file "$T_TMP/labq.bin" --epochs 1 --batch 64
expect_err_has "labelled from the labels file" "all the games again: read from the file"
expect_err_lacks "searching the others" "all the games again: the other games' labels were kept, nothing searched"
# a labels file damaged in its scores (one byte changed) is refused, not trained on
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab.bin" --epochs 1 --batch 64 -j
SZ=$(wc -c <"$T_TMP/lab.bin")
printf '\177' | dd of="$T_TMP/lab.bin" bs=1 seek=$((SZ / 2)) conv=notrunc 2>/dev/null
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab.bin" --epochs 1 --batch 64 -j
expect_rc 3 "a labels file with a damaged score"
expect_err_has "damaged or cut short" "says it is damaged"
head -c $((SZ - 3)) "$T_TMP/lab.bin" >"$T_TMP/lab3.bin"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab3.bin" --epochs 1 --batch 64 -j
expect_rc 3 "a labels file cut short"
printf 'junk' > "$T_TMP/lab2.bin"
run "$PDNKIT" train --net "$SP" --label-depth 2 --label-file "$T_TMP/lab2.bin" --epochs 1
expect_rc 3 "a labels file that is not one"
# self-play from given positions (--openings): game g starts from position (g - 1) mod N
printf '[FEN "B:W21,22,25,30,31:B3,9,10,12"]\n*\n\n[FEN "W:W18,27,28,32:B1,3,5,13"]\n*\n\n' > "$T_TMP/ends.pdn"
run "$PDNKIT" selfplay --openings "$T_TMP/ends.pdn" -n 4 --random 0 -d 3 -c 2 -o "$T_TMP/spe.pdn" --adjudicate none
expect_rc 0 "selfplay from given positions"
expect_out_has "4 games played" "four games"
[ "$(grep -c '^\[FEN "B:W21,22,25,30,31:B3,9,10,12"\]' "$T_TMP/spe.pdn")" = 2 ] && \
[ "$(grep -c '^\[FEN "W:W18,27,28,32:B1,3,5,13"\]' "$T_TMP/spe.pdn")" = 2 ] && pass || fail "each position starts two of the four games"
run "$PDNKIT" validate "$T_TMP/spe.pdn"
expect_err_has "4 games read: 4 valid" "the games are valid PDN"
printf '[FEN "B:W1:B"]\n*\n\n' > "$T_TMP/noends.pdn"
run "$PDNKIT" selfplay --openings "$T_TMP/noends.pdn" -n 2 -o "$T_TMP/x2.pdn"
expect_rc 2 "an openings file without a usable position"
expect_err_has "no usable English position" "says so"
run "$PDNKIT" selfplay --openings "$T_TMP/no-such.pdn" -n 2 -o "$T_TMP/x2.pdn"
expect_rc 3 "an openings file that is not there"
# the endgame table: learned over other patterns (the base), written with them, used
# only in positions of at most its number of pieces
run "$PDNKIT" train "$SP" "$T_TMP/spe.pdn" --endgame 9 --base-patterns "$T_TMP/p1.txt" --epochs 20 --min-count 1 --l2 1 --keep-last -o "$T_TMP/pe.txt" -j -q --threads 2
expect_rc 0 "train an endgame table"
expect_out_has '"endgame":9,' "its reach in the figures"
tl=$(echo "$OUT" | sed 's/.*"train_loss":\([0-9.]*\).*/\1/'); bl=$(echo "$OUT" | sed 's/.*"base_train":\([0-9.]*\).*/\1/')
awk -v a="$tl" -v b="$bl" 'BEGIN { exit !(a < b) }' && pass || fail "the table lowers the training loss of those endings ($bl -> $tl)"
head -1 "$T_TMP/pe.txt" | grep -qx 'pdnkit-patterns 5' && grep -qx 'endgame 9' "$T_TMP/pe.txt" && pass || fail "format 5 with its endgame line"
grep -q '^e 1 ' "$T_TMP/pe.txt" && pass || fail "weights of the endgame table"
[ "$(grep -E '^[0-9]+ [0-9]+ [0-9]+ -?[0-9]+$' "$T_TMP/pe.txt" | md5sum)" = "$(grep -E '^[0-9]+ [0-9]+ [0-9]+ -?[0-9]+$' "$T_TMP/p1.txt" | md5sum)" ] && \
	pass || fail "the base patterns written unchanged with the table"
run "$PDNKIT" analyze -d 6 --patterns "$T_TMP/pe.txt"
[ "$(echo "$OUT" | awk '{ print $1, $2, $3 }')" = "$(run "$PDNKIT" analyze -d 6 --patterns "$T_TMP/p1.txt"; echo "$OUT" | awk '{ print $1, $2, $3 }')" ] && \
	pass || fail "from the start (24 pieces) the table changes nothing"
run "$PDNKIT" analyze -d 6 --patterns "$T_TMP/pe.txt" --fen "W:W18,27,28,32:B1,3,5,13"
ea=$(echo "$OUT" | awk '{ print $1, $2, $3 }')
run "$PDNKIT" analyze -d 6 --patterns "$T_TMP/p1.txt" --fen "W:W18,27,28,32:B1,3,5,13"
[ "$ea" != "$(echo "$OUT" | awk '{ print $1, $2, $3 }')" ] && pass || fail "in an ending it changes the search"
run "$PDNKIT" train "$SP" "$T_TMP/spe.pdn" --endgame 9 --base-patterns "$T_TMP/pe.txt" --epochs 20 --min-count 1 --l2 1 --keep-last -o "$T_TMP/pe2.txt" -q --threads 2
cmp -s "$T_TMP/pe.txt" "$T_TMP/pe2.txt" && pass || fail "a base with a table: its table left out, the same result"
run "$PDNKIT" train "$SP" --endgame 9 --net
expect_rc 2 "--endgame is not for a network"
run "$PDNKIT" train "$SP" --endgame 2
expect_rc 2 "--endgame 2 refused"
run "$PDNKIT" train "$SP" --base-patterns "$T_TMP/p1.txt"
expect_rc 2 "--base-patterns without --endgame"
# the built-in weights parse (a broken book/patterns.txt would leave the engine without them)
grep -qE '^pdnkit-patterns [1234]$' "$TESTS_DIR/../book/patterns.txt" && pass || fail "book/patterns.txt has its format line"
head -2 "$TESTS_DIR/../book/net.txt" | tr '\n' ' ' | grep -qx 'pdnkit-net 1 layers 128 64 32 1 ' && pass || fail "book/net.txt has its header"

done_testing
