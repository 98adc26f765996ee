# pdnkit engine --dxp against an attacker: it listens on this machine only unless told,
# and warns when told; connections beyond --max-connections are refused; silent ones
# are closed after --idle; a game's clock cannot make it think longer than
# --max-movetime; a search stops when its initiator hangs up; an impossible start
# position is refused; a GAMEEND that confirms its own is not confirmed again; a CHAT
# never reaches the terminal raw.
. "$TESTS_DIR/lib.sh"
POKE="$BINDIR/netpoke"

# listen [OPTIONS]: a follower on a free port; its port in $PORT, its log $T_TMP/dxp.log
listen() {
	: >"$T_TMP/dxp.log"
	"$PDNKIT" engine --dxp 0 "$@" 2>"$T_TMP/dxp.log" &
	LPID=$!
	i=0
	while ! grep -q 'DXP (International draughts) on' "$T_TMP/dxp.log" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	PORT=$(sed -n 's/.* on .*:\([0-9]*\)$/\1/p' "$T_TMP/dxp.log" | head -1)
}
quit() { kill -TERM $LPID 2>/dev/null; wait $LPID 2>/dev/null; }
NAME="tester                          "
# a GAMEREQ: follower colour (W or Z), minutes, then A or B with a position
req() { printf 'R01%s%s%03d000%s' "$NAME" "$1" "$2" "$3"; }

listen --max-connections 2 --idle 2
grep -q "on 127.0.0.1:$PORT" "$T_TMP/dxp.log" && pass || fail "a port alone listens on 127.0.0.1: $(cat "$T_TMP/dxp.log")"
grep -q "anyone who can reach" "$T_TMP/dxp.log" && fail "a warning for 127.0.0.1" || pass
# the book it plays from: International draughts' built-in one, none with --no-book
i=0
while ! grep -q 'opening book:' "$T_TMP/dxp.log" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -q "opening book: the built-in one" "$T_TMP/dxp.log" && pass || fail "the built-in book not said: $(cat "$T_TMP/dxp.log")"

# the connection cap and the idle time
R=$("$POKE" silent "$PORT" 5 1)
[ "$R" = "open 2" ] && pass || fail "5 silent connections with --max-connections 2: $R"
grep -q "refused: 2 connections already" "$T_TMP/dxp.log" && pass || fail "the refused ones not said: $(cat "$T_TMP/dxp.log")"
R=$("$POKE" silent "$PORT" 2 4)
[ "$R" = "open 0" ] && pass || fail "connections silent 4 s with --idle 2: $R"
# (said as the listener closes: the client may see the close first, so wait for the line)
i=0
while ! grep -q "silent for [0-9]* s: disconnected" "$T_TMP/dxp.log" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -q "silent for [0-9]* s: disconnected" "$T_TMP/dxp.log" && pass || fail "the idle close not said"
quit

# an impossible start: a white man on its crowning row, and 21 black pieces
listen --movetime 0.05 --no-book
i=0
while ! grep -q 'opening book:' "$T_TMP/dxp.log" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -q "opening book: none (--no-book)" "$T_TMP/dxp.log" && pass || fail "--no-book not said: $(cat "$T_TMP/dxp.log")"
CROWN="BZw$(printf 'e%.0s' $(seq 1 49))"
R=$("$POKE" dxp "$PORT" 1 "$(req Z 1 "$CROWN")")
case $R in A*3) pass ;; *) fail "a man on its crowning row accepted: [$R]" ;; esac
MANY="BW$(printf 'z%.0s' $(seq 1 21))$(printf 'e%.0s' $(seq 1 26))www"
R=$("$POKE" dxp "$PORT" 1 "$(req Z 1 "$MANY")")
case $R in A*3) pass ;; *) fail "21 black pieces accepted: [$R]" ;; esac
grep -q "impossible position refused: a white man on square 1" "$T_TMP/dxp.log" && pass || fail "the reason not said: $(cat "$T_TMP/dxp.log")"
# its own GAMEEND (after an illegal move) is confirmed by the initiator: no third one
R=$("$POKE" dxp "$PORT" 1 "$(req Z 1 A)" "M0000312900" "E00")
[ "$(echo "$R" | grep -c '^E')" = 1 ] && pass || fail "GAMEENDs after a confirmation: [$R]"
echo "$R" | grep -q 'is not a legal move' && pass || fail "the illegal move not said: [$R]"
# a GAMEEND of the initiator during a game is confirmed once
R=$("$POKE" dxp "$PORT" 1 "$(req Z 1 A)" "E00")
[ "$(echo "$R" | grep -c '^E')" = 1 ] && pass || fail "the initiator's GAMEEND not confirmed once: [$R]"
# a CHAT with terminal escapes is logged without them
"$POKE" dxp "$PORT" 0.3 "$(printf 'C\033[31mred\033]0;title\007')" >/dev/null
grep -q "chat: .*red" "$T_TMP/dxp.log" && pass || fail "the chat not logged"
if grep -q "$(printf '\033')" "$T_TMP/dxp.log"; then fail "an escape reached the log"; else pass; fi
quit

# a clock of 999 minutes: a move within --max-movetime
listen --max-movetime 1 --no-book
T0=$(date +%s)
R=$("$POKE" dxp "$PORT" 4 "$(req W 999 A)")
echo "$R" | grep -q '^M' && pass || fail "no move within 4 s at --max-movetime 1: [$R]"
quit
# the initiator hangs up during the search: it stops
listen --max-movetime 60 --no-book
"$POKE" dxp "$PORT" 0 "$(req W 999 A)" -
i=0
while ! grep -q "left during the search: stopped" "$T_TMP/dxp.log" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -q "left during the search: stopped" "$T_TMP/dxp.log" && pass || fail "the search went on after the hang-up: $(cat "$T_TMP/dxp.log")"
quit
# with its book, the same game's first move comes at once (a search would take its
# 60 seconds): the start is in International draughts' built-in book
listen --max-movetime 60
R=$("$POKE" dxp "$PORT" 3 "$(req W 999 A)")
echo "$R" | grep -q '^M' && pass || fail "no book move within 3 s: [$R] $(cat "$T_TMP/dxp.log")"
quit

# every address: a warning
"$PDNKIT" engine --dxp 0.0.0.0:0 2>"$T_TMP/all.log" &
APID=$!
sleep 0.5
kill -TERM $APID 2>/dev/null
wait $APID 2>/dev/null
grep -q "listening on 0.0.0.0: anyone who can reach this machine can start games" "$T_TMP/all.log" && pass ||
	fail "no warning for 0.0.0.0: $(cat "$T_TMP/all.log")"
run "$PDNKIT" engine --max-connections 3
expect_rc 2 "--max-connections without --dxp"
# two threads a game
listen --threads 2 --movetime 0.2 --no-book
R=$("$POKE" dxp "$PORT" 2 "$(req W 1 A)")
echo "$R" | grep -q '^M' && pass || fail "no move on two threads: [$R]"
quit

# the International endgame databases, as match's pdnkit takes them: --egdb DIR (its
# international/ directory), none, or a directory without them (the search alone)
D="$T_TMP/vegdb"
"$PDNKIT" egdb build --variant international --pieces 3 --egdb "$D" -q 2>/dev/null
listen --egdb "$D" --movetime 0.05
grep -q "endgame databases: $D\$" "$T_TMP/dxp.log" && pass || fail "--egdb DIR not said: $(cat "$T_TMP/dxp.log")"
# White (the follower) to move, a man on 28 against one on 3: won by 28-23 alone
RACE="BW$(printf 'e%.0s' $(seq 1 2))z$(printf 'e%.0s' $(seq 1 24))w$(printf 'e%.0s' $(seq 1 22))"
R=$("$POKE" dxp "$PORT" 2 "$(req W 1 "$RACE")")
echo "$R" | grep -q '^M....2823' && pass || fail "not the databases' winning move 28-23: [$R]"
quit
listen --egdb none
grep -q "endgame databases: none (--egdb none)" "$T_TMP/dxp.log" && pass || fail "--egdb none not said: $(cat "$T_TMP/dxp.log")"
quit
listen --egdb "$T_TMP"
grep -q "endgame databases: none found there" "$T_TMP/dxp.log" && pass || fail "an empty --egdb not said: $(cat "$T_TMP/dxp.log")"
quit
run "$PDNKIT" engine --dxp 0 --weights untuned
expect_rc 2 "--weights with --dxp"
expect_err_has "only --hash, --threads, --egdb" "what goes with --dxp is said"

done_testing
