# The architecture as a test: each folder of src/ includes only its own layer and the
# layers below it (src/README.md), only store/ includes sqlite3.h, only pdn/zio.c
# includes zstd.h, and the core neither prints nor exits. A change that breaks one
# of these fails here, naming the file and the include.
. "$TESTS_DIR/lib.sh"
SRC="$TESTS_DIR/../src"
LAYERS="base rules pdn store book egdb engine proto analysis report web"

rank() {
	i=0
	for l in $LAYERS; do
		[ "$l" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}

bad=0
for dir in "$SRC"/*/; do
	layer=$(basename "$dir")
	mine=$(rank "$layer")
	[ "$mine" = 99 ] && { fail "src/$layer is not a known layer ($LAYERS)"; continue; }
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] || continue
		for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			case $inc in
			*/*) ;;
			*) fail "src/$layer/$(basename "$f") includes \"$inc\" without its layer"; bad=1; continue ;;
			esac
			theirs=$(rank "${inc%%/*}")
			if [ "$theirs" -gt "$mine" ]; then
				fail "src/$layer/$(basename "$f") includes $inc, a layer above it"
				bad=1
			fi
		done
	done
done
[ $bad = 0 ] && pass

# Library boundaries.
sq=$(grep -l '<sqlite3.h>' "$SRC"/*/*.[ch] | sed "s|$SRC/||" | grep -v '^store/')
[ -z "$sq" ] && pass || fail "sqlite3.h outside store/: $sq"
mh=$(grep -l '<microhttpd.h>' "$SRC"/*/*.[ch] | sed "s|$SRC/||" | grep -v '^web/http.c$')
[ -z "$mh" ] && pass || fail "microhttpd.h outside web/http.c: $mh"
zs=$(grep -l '<zstd.h>' "$SRC"/*/*.[ch] | sed "s|$SRC/||" | grep -v '^pdn/zio.c$')
[ -z "$zs" ] && pass || fail "zstd.h outside pdn/zio.c: $zs"
pr=$(grep -n '\bprintf(\|\bputs(\|\bfprintf(\|\bperror(\|\bexit(' "$SRC"/*/*.c | sed "s|$SRC/||")
[ -z "$pr" ] && pass || fail "the core prints or exits: $pr"
# Commands do not speak SQL: the store's typed calls (store_summary, store_blunders,
# store_load_annotation, ...) are the only way to the schema.
sql=$(grep -ln 'SELECT \|INSERT \|UPDATE \|DELETE \|sqlite3_\|store_select' "$TESTS_DIR"/../cmd/*.c 2>/dev/null | sed 's|.*/cmd/|cmd/|')
[ -z "$sql" ] && pass || fail "SQL in a command (add a typed call to store/): $sql"

# Commands start no threads: the core's pool (base/pool.c) and its runners do.
thr=$(grep -ln 'pthread\|pool_run\|stdatomic' "$TESTS_DIR"/../cmd/*.c 2>/dev/null | sed 's|.*/cmd/|cmd/|')
[ -z "$thr" ] && pass || fail "threads in a command (move the work into the core): $thr"

# The test itself must be able to fail: an upward include in a scratch copy is caught.
mkdir -p "$T_TMP/src/rules"
printf '#include "engine/eval.h"\n' > "$T_TMP/src/rules/x.c"
inc=$(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$T_TMP/src/rules/x.c")
[ "$(rank "${inc%%/*}")" -gt "$(rank rules)" ] && pass || fail "an upward include is not recognised"

done_testing
