# The engine for CheckerBoard on Windows (make cb-win: pdnkit-cb.dll, cross-built by
# mingw-w64), loaded by a small Windows host as CheckerBoard loads an engine
# (tests/cbwin_host.c: LoadLibrary, GetProcAddress, its commands, islegal, a book move, a
# forced capture, a search) and run under wine. Skipped, saying so, where mingw-w64 or
# wine is missing (.ci/run installs both).
. "$TESTS_DIR/lib.sh"
DLL="$BINDIR/../pdnkit-cb.dll"
HOST="$BINDIR/cbwin_host.exe"
WINE=$(command -v wine || command -v wine64)

if [ ! -f "$DLL" ] || [ ! -f "$HOST" ]; then
	echo "SKIP $T_NAME: pdnkit-cb.dll not built: mingw-w64 missing (apt-get install gcc-mingw-w64-x86-64-posix)"
elif [ -z "$WINE" ]; then
	echo "SKIP $T_NAME: pdnkit-cb.dll built but not run: wine missing (apt-get install wine wine64)"
else
	# a prefix of the test's own, made on the first run (a few seconds)
	run env WINEDEBUG=-all WINEPREFIX="$T_TMP/wine" WINEDLLOVERRIDES="mscoree,mshtml=" \
		"$WINE" "$HOST" "$DLL"
	expect_rc 0 "the Windows host loads pdnkit-cb.dll under wine and every check passes ($OUT)"
	expect_out_has "ok the three functions exported" "getmove, enginecommand and islegal exported"
	expect_out_has "ok enginecommand name: pdnkit" "its name"
	expect_out_has "ok getmove plays a first move: 11-15, returned 3, \"pdnkit: 11-15 from the book\"" "a book move"
	expect_out_has "ok getmove takes the capture the rules force" "a forced capture"
	expect_out_has "ok getmove searches a position out of the book" "a search"
	expect_out_has "cbwin_host: all passed" "all the host's checks"
fi
done_testing
