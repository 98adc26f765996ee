# A full disk: writes that fail half way. On a small tmpfs where the machine allows
# mounting one (root), else under a file-size limit (ulimit -f). Each command must end
# with exit status 3 and one line naming what failed; nothing stored before is lost; the
# database passes its integrity check; an output file is written whole or not at all;
# and a rerun with room to spare completes. (DISK_MODE=ulimit forces the file-size
# limit where a tmpfs could be mounted.)
. "$TESTS_DIR/lib.sh"

FIX="$TESTS_DIR/../corpora/fixtures/result-in-moves.pdn"
have_corpora "the full-disk checks" || { done_testing; exit $?; }
OCA="$CORPORA/OCA_2.0.pdn"
TINSLEY="$CORPORA/tinsley.pdn"

SMALL="$T_TMP/small"
mkdir -p "$SMALL"
if [ "${DISK_MODE:-}" != ulimit ] && [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=4m tmpfs "$SMALL" 2>/dev/null; then
	MODE=tmpfs
	trap 'umount "$SMALL" 2>/dev/null; rm -rf "$T_TMP"' EXIT
	LIMIT=:
else
	MODE=ulimit
	LIMIT="ulimit -f 4000"      # 2 or 4 MB, as the shell counts blocks
fi
echo "full disk by $MODE" >&2
# limited CMD...: run the command where writes fail
limited() {
	sh -c "$LIMIT; exec \"\$@\"" sh "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	ERR=$(cat "$T_TMP/err")
}
integrity() { [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ]; }

# Import: the games stored before stay, the failed batch is said and rolled back.
"$PDNKIT" import --db "$SMALL/a.db" "$FIX" 2>/dev/null
limited "$PDNKIT" import --db "$SMALL/a.db" "$OCA"
expect_rc 3 "import into a full disk"
expect_err_has "were not stored (their transaction was rolled back)" "the lost batch is said"
case $ERR in *"disk is full"* | *"disk I/O error"* | *"too large"*) pass ;; *) fail "import: the cause is not named: $ERR" ;; esac
expect_err_has ", 0 stored," "the summary counts only what was committed"
integrity "$SMALL/a.db" && pass || fail "import: integrity_check after a full disk"
[ "$(sqlite3 "$SMALL/a.db" 'SELECT count(*) FROM game')" = 5 ] && pass || fail "import: the 5 games stored before are not all there"
rm -f "$SMALL"/a.db*

# Output files: whole or not at all, and the old one untouched.
echo keep >"$SMALL/out.pdn"
limited "$PDNKIT" convert -o "$SMALL/out.pdn" "$OCA"
expect_rc 3 "convert into a full disk"
expect_err_has "cannot write '$SMALL/out.pdn'" "convert names the file"
[ "$(cat "$SMALL/out.pdn")" = keep ] && pass || fail "convert: the file that was there is spoilt"
ls "$SMALL" | grep -q tmp && fail "convert: a temporary file is left: $(ls "$SMALL")" || pass
rm -f "$SMALL"/out.pdn

# Annotation rows: stored game by game; a rerun with room goes on to the end.
"$PDNKIT" import --db "$SMALL/t.db" "$TINSLEY" 2>/dev/null && pass || fail "import of Tinsley's games into the small space"
sqlite3 "$SMALL/t.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
limited "$PDNKIT" annotate --db "$SMALL/t.db" --depth 2 --verify 0 -q
expect_rc 3 "annotate --db into a full disk"
case $ERR in *"disk is full"* | *"disk I/O error"* | *"too large"*) pass ;; *) fail "annotate: the cause is not named: $ERR" ;; esac
integrity "$SMALL/t.db" && pass || fail "annotate: integrity_check after a full disk"
done1=$(sqlite3 "$SMALL/t.db" 'SELECT count(*) FROM annotated')
cp "$SMALL"/t.db* "$T_TMP/"           # room to spare
"$PDNKIT" annotate --db "$T_TMP/t.db" --depth 2 --verify 0 -q 2>"$T_TMP/err2"
[ $? -eq 0 ] && pass || fail "annotate: the rerun with room failed: $(cat "$T_TMP/err2")"
grep -q "$done1 skipped (done before" "$T_TMP/err2" && pass ||
	fail "annotate: the rerun did not keep the $done1 games stored before: $(cat "$T_TMP/err2")"
# every game once: the copies of another game within tinsley.pdn are left out
want=$(sqlite3 "$T_TMP/t.db" 'SELECT count(*) FROM game WHERE copy_of IS NULL')
[ "$(sqlite3 "$T_TMP/t.db" 'SELECT count(*) FROM annotated')" = "$want" ] && pass || fail "annotate: the rerun did not finish every game"
rm -f "$SMALL"/t.db*

# Book and endgame-database files.
limited "$PDNKIT" egdb build --dir "$SMALL/eg" --pieces 5 -q
expect_rc 3 "egdb build into a full disk"
ls "$SMALL/eg" | grep -q '\.tmp' && fail "egdb build: a temporary file is left" || pass
rm -rf "$SMALL/eg"
if [ $MODE = tmpfs ]; then    # leave 50 KB: less than the book takes
	avail=$(df -k "$SMALL" | awk 'NR == 2 { print $4 }')
	head -c $(((avail - 50) * 1024)) /dev/zero >"$SMALL/filler" 2>/dev/null
fi
limited "$PDNKIT" book build -o "$SMALL/b.book" --plies 200 "$OCA" "$TINSLEY"
if [ $MODE = tmpfs ]; then
	expect_rc 3 "book build into a full disk"
	[ ! -e "$SMALL/b.book" ] && pass || fail "book build: a truncated book is left"
else
	[ $RC -eq 0 ] || [ $RC -eq 3 ] && pass || fail "book build under a file-size limit: exit status $RC"
fi

done_testing
