#!/bin/sh
# make run: the main job on the project's own corpora/, with the default store pdnkit.db
# (or $PDNKIT_DB). It grows as commands land.
PDNKIT=${1:-./pdnkit}
step() { printf '\n== %s\n' "$*"; }

step "endgame databases up to 4 pieces into the default directory (seconds; a second run keeps them)"
"$PDNKIT" egdb build --pieces 4 || exit $?
"$PDNKIT" egdb stats || exit $?

step "pdnkit $("$PDNKIT" --version | cut -d' ' -f2): validate every game in corpora/, results checked by the databases"
"$PDNKIT" validate --egdb default corpora/*.pdn corpora/fixtures/*.pdn
rc=$?
# corpora/fixtures/diagnostics.pdn holds deliberate mistakes: findings (exit 1) are expected.
[ $rc -le 1 ] || { echo "make run: validate failed (exit $rc)" >&2; exit $rc; }

step "import corpora/ into ${PDNKIT_DB:-pdnkit.db} (a second run adds nothing new)"
"$PDNKIT" import corpora/*.pdn corpora/fixtures/*.pdn || exit $?

step "query: the games that reach the position after 9-14 23-18 14x23 27x18 5-9 26-23, in any order"
"$PDNKIT" query --after "9-14 23-18 14x23 27x18 5-9 26-23" --order ply || exit $?

step "stats, with the moves played from that position"
"$PDNKIT" stats --after "9-14 23-18 14x23 27x18 5-9 26-23" || exit $?

step "the 1981 world title match, game 37 (Tinsley v Long), in canonical PDN with full jumps"
"$PDNKIT" convert --full-jumps corpora/tinsley-long-1981-game37.pdn || exit $?

step "First Position (Payne 1756): the database's value, and the engine playing for it"
"$PDNKIT" analyze --fen "W:W20,K15:B12,K28" --movetime 2 | tail -2 || exit $?

step "the rules core proves itself: perft to depth 11 from the start"
"$PDNKIT" perft --threads 0 11 || exit $?

step "annotate game 37 in the store at depth 12 (stored: a second run skips it), then its blunder summary"
"$PDNKIT" annotate --event "Game #37" --depth 12 || exit $?
"$PDNKIT" blunders --event "Game #37" --min-loss 50 || exit $?

step "the opening book built in (book/pdnkit.book, from the master games of OCA 2.0 and tinsley.pdn): its size, and its moves from the start"
"$PDNKIT" book stats book/pdnkit.book || exit $?
"$PDNKIT" book probe book/pdnkit.book || exit $?

step "the report of game 37: one HTML page (evaluation graph, classed moves, a diagram before each mistake)"
"$PDNKIT" report --event "Game #37" --depth 12 -o pdnkit-report.html || exit $?
echo "open $(pwd)/pdnkit-report.html in a browser"
