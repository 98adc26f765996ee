#!/bin/sh
# make run: the main job on the project's own corpora/. It grows as commands land.
PDNKIT=${1:-./pdnkit}
set -e
echo "== pdnkit $("$PDNKIT" --version | cut -d' ' -f2): the rules core proves itself (perft to depth 11)"
"$PDNKIT" perft --threads 0 11
echo "== the positions in corpora/positions.fen, perft to depth 6"
grep -v '^#' corpora/positions.fen | while IFS='|' read -r name fen; do
	[ -n "$fen" ] || continue
	printf '%-34s ' "$name"
	"$PDNKIT" perft --fen "$fen" 6
done
