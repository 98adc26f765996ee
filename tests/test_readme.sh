# The README's set-up and tour as a newcomer runs them: the main job (make run's
# tests/main-job.sh) in a fresh directory holding the repository's corpora/ and book/,
# then every line of the tour (between "<!-- tour -->" and "<!-- end of tour -->") as
# written, each exiting 0 (or 1 where its comment says "exit 1"), none naming a file the
# directory lacks, none printing a crash; the files the tour writes are what it says.
. "$TESTS_DIR/lib.sh"
TOP="$TESTS_DIR/.."
W="$T_TMP/walk"
mkdir -p "$W"
ln -s "$TOP/corpora" "$W/corpora"
ln -s "$TOP/book" "$W/book"
ln -s "$TOP/tests" "$W/tests"
ln -s "$(cd "$(dirname "$PDNKIT")" && pwd)/$(basename "$PDNKIT")" "$W/pdnkit"
# the default store and databases of a fresh machine, inside the walk's directory
unset PDNKIT_DB
export PDNKIT_EGDB="$W/egdb" HOME="$W/home"
mkdir -p "$HOME"

cd "$W" || exit 1
run sh tests/main-job.sh ./pdnkit
expect_rc 0 "make run's main job"
[ -s pdnkit.db ] && [ -s pdnkit-report.html ] && pass || fail "the main job leaves pdnkit.db and its report"

sed -n '/^<!-- tour -->$/,/^<!-- end of tour -->$/p' "$TOP/README.md" | grep '^    \./pdnkit ' |
	sed 's/^    //' >"$T_TMP/tour"
n=$(wc -l <"$T_TMP/tour")
[ "$n" -ge 15 ] && pass || fail "the tour has $n lines"
while IFS= read -r line; do
	run sh -c "$line"
	want=0
	case $line in *"exit 1"*) want=1 ;; esac
	[ "$RC" -eq "$want" ] && pass || fail "[$line]: exit status $RC, want $want (stderr: $(echo "$ERR" | head -3))"
	case $ERR in *"No such file"* | *"cannot open"* | *"Segmentation"* | *"runtime error"* | *"AddressSanitizer"*)
		fail "[$line]: $(echo "$ERR" | head -2)" ;;
	esac
done <"$T_TMP/tour"
# what the tour's lines promise
grep -q 'Game #37"\]' game37.pdn && pass || fail "export wrote game 37"
grep -q '%eval' annotated.pdn && pass || fail "annotate wrote scores"
grep -q '<svg' board.svg && pass || fail "diagram wrote an SVG"
grep -q '<html' report.html && pass || fail "report wrote a page"
cd / && done_testing
