#!/bin/sh
# make run: the main job on the project's own corpora/. It grows as commands land.
PDNKIT=${1:-./pdnkit}
step() { printf '\n== %s\n' "$*"; }

step "pdnkit $("$PDNKIT" --version | cut -d' ' -f2): validate every game in corpora/"
"$PDNKIT" validate corpora/*.pdn corpora/fixtures/*.pdn
rc=$?
# corpora/fixtures/diagnostics.pdn holds deliberate mistakes: findings (exit 1) are expected.
[ $rc -le 1 ] || { echo "make run: validate failed (exit $rc)" >&2; exit $rc; }

step "the 1981 world title match, game 37 (Tinsley v Long), in canonical PDN with full jumps"
"$PDNKIT" convert --full-jumps corpora/tinsley-long-1981-game37.pdn || exit $?

step "the rules core proves itself: perft to depth 11 from the start"
"$PDNKIT" perft --threads 0 11 || exit $?
step "perft to depth 6 from each position in corpora/positions.fen"
grep -v '^#' corpora/positions.fen | while IFS='|' read -r name fen; do
	[ -n "$fen" ] || continue
	printf '%-34s ' "$name"
	"$PDNKIT" perft --fen "$fen" 6 || exit $?
done
