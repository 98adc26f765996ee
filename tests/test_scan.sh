# DXP against a real peer: Scan 2.0 (../shared/peers/scan, GPL-3.0; a measuring peer only,
# nothing of it enters pdnkit) built here and served by its relay; pdnkit checks it as an
# engine and plays two games against it on a one-minute clock (an opening with both
# colours). Every game must end without a
# protocol fault or an illegal move, each GAMEEND be confirmed exactly once, and the
# records validate. It takes minutes: it runs only with PDNKIT_PEER_TESTS=1 (never in CI).
. "$TESTS_DIR/lib.sh"
PEER="$TESTS_DIR/../../shared/peers/scan"
if [ "${PDNKIT_PEER_TESTS:-0}" != 1 ]; then
	# not a check left out for want of data (run.sh fails a CI run with a SKIP): a test
	# kept out of the suite's time on purpose
	echo "NOTE $T_NAME: not run: the games against Scan take minutes (PDNKIT_PEER_TESTS=1 runs them)"
	done_testing
	exit
fi
if [ ! -f "$PEER/build.sh" ] || ! command -v g++ >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP $T_NAME: Scan cannot be built here (needs $PEER, g++ and python3)"
	done_testing
	exit
fi
if ! sh "$PEER/build.sh" "$T_TMP/scan" >"$T_TMP/build.log" 2>&1; then
	echo "SKIP $T_NAME: Scan did not build: $(tail -3 "$T_TMP/build.log")"
	done_testing
	exit
fi
PORT=$((27000 + $$ % 2000))
python3 "$PEER/dxp-relay.py" "$T_TMP/scan" "$PORT" "$T_TMP/relay.log" >/dev/null 2>&1 &
RPID=$!
trap 'kill $RPID 2>/dev/null; rm -rf "$T_TMP"' EXIT
sleep 1

run "$PDNKIT" engines check "dxp:127.0.0.1:$PORT"
expect_rc 0 "engines check of Scan"
expect_out_has "engine: Scan 2.0" "its name from GAMEACC"
grep -q "I> R01pdnkit.*001000A" "$T_TMP/relay.log" && pass || fail "GAMEREQ without a move count: $(grep 'I> R' "$T_TMP/relay.log")"

head -6 "$TESTS_DIR/../corpora/decks/international-12.pdn" >"$T_TMP/deck.pdn"
run "$PDNKIT" match --variant international --openings "$T_TMP/deck.pdn" --engine pdnkit \
	--engine "dxp:127.0.0.1:$PORT" --clock 60 -c 1 -o "$T_TMP/games.pdn" --json
expect_rc 0 "two games against Scan"
expect_out_has '"games":2,' "both played"
for k in crashes time_losses illegal_moves garbage no_move; do
	[ "$(echo "$OUT" | grep -o "\"$k\":[0-9]*" | cut -d: -f2 | sort -u | tr '\n' ' ')" = "0 " ] && pass ||
		fail "$k: $(echo "$OUT" | grep -o "\"$k\":[0-9]*" | tr '\n' ' ')"
done
run "$PDNKIT" validate "$T_TMP/games.pdn"
expect_err_has "2 games read: 2 valid" "the records validate"
# each game's end: the initiator's GAMEEND with a reason, Scan's confirmation, nothing more
ends_i=$(grep -c 'I> E[0-3]0' "$T_TMP/relay.log")
ends_s=$(grep -c '<S E' "$T_TMP/relay.log")
[ "$ends_i" -ge 2 ] && [ "$ends_s" = "$ends_i" ] && pass || fail "GAMEENDs: $ends_i from pdnkit, $ends_s from Scan"
grep -q 'I> E[123]0' "$T_TMP/relay.log" && pass || fail "no GAMEEND with a result"
grep -q 'I> M[0-9][0-9][0-9][1-9]' "$T_TMP/relay.log" && pass || fail "every relayed move said 0 seconds"

done_testing
