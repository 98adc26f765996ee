# The program as a whole: command table, help, version, usage errors and exit codes.
. "$TESTS_DIR/lib.sh"

run "$PDNKIT"
expect_rc 0 "no arguments"
expect_out_has "perft" "no arguments lists the commands"
run "$PDNKIT" --help
expect_rc 0 "--help"
expect_out_has "usage: pdnkit <command>" "--help"
run "$PDNKIT" help
expect_rc 0 "help"
expect_out_has "perft      count the leaves" "help lists one-line summaries"
run "$PDNKIT" --version
expect_rc 0 "--version"
expect_out "pdnkit 0.1.0" "--version"

run "$PDNKIT" frobnicate
expect_rc 2 "unknown command"
expect_err_has "pdnkit: 'frobnicate' is not a pdnkit command" "unknown command is named"
run "$PDNKIT" pertf 3
expect_rc 2 "mistyped command"
expect_err_has "did you mean 'perft'?" "mistyped command gets a suggestion"
run "$PDNKIT" --frob
expect_rc 2 "unknown global option"
expect_err_has "unknown option '--frob'" "unknown global option is named"

run "$PDNKIT" help perft
expect_rc 0 "help perft"
expect_out_has "Usage: pdnkit perft [OPTION...] DEPTH" "help perft shows usage"
run "$PDNKIT" perft --help
expect_rc 0 "perft --help"
expect_out_has "--unique" "perft --help lists options"
run "$PDNKIT" help nosuch
expect_rc 2 "help for an unknown command"

run "$PDNKIT" perft --bogus 3
expect_rc 2 "unknown perft option"
expect_err_has "pdnkit perft: --bogus: unknown option" "unknown option is named"
run "$PDNKIT" perft
expect_rc 2 "missing depth"
expect_err_has "missing DEPTH" "missing depth is explained"
run "$PDNKIT" perft 3x
expect_rc 2 "bad depth"
expect_err_has "DEPTH must be an integer from 0 to 30, not '3x'" "bad depth is explained"
run "$PDNKIT" perft --threads -1 3
expect_rc 2 "bad thread count"
run "$PDNKIT" perft 1 2
expect_rc 2 "two depths"

# "did you mean" for a misspelled option or subcommand, as for a command.
run "$PDNKIT" query --reslt 1-0
expect_rc 2 "a misspelled option"
expect_err_has "pdnkit query: did you mean --result?" "the option suggested"
run "$PDNKIT" annotate --dept 3 x.pdn
expect_err_has "pdnkit annotate: did you mean --depth?" "an engine option suggested"
run "$PDNKIT" egdb bild
expect_rc 2 "a misspelled egdb subcommand"
expect_err_has "did you mean 'build'?" "the subcommand suggested"
run "$PDNKIT" book prob
expect_err_has "did you mean 'probe'?" "the book subcommand suggested"
run "$PDNKIT" query --zzzzzzzz
case $ERR in *"did you mean"*) fail "a suggestion for a word like no option: $ERR" ;; *) pass ;; esac
# -j is --format json wherever --format json exists.
G37="$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn"
a=$("$PDNKIT" convert -j "$G37" 2>/dev/null)
b=$("$PDNKIT" convert --format json "$G37" 2>/dev/null)
[ -n "$a" ] && [ "$a" = "$b" ] && pass || fail "convert -j is not --format json"
"$PDNKIT" import --db "$T_TMP/j.db" "$G37" >/dev/null 2>&1
a=$("$PDNKIT" query --db "$T_TMP/j.db" -j 2>/dev/null)
b=$("$PDNKIT" query --db "$T_TMP/j.db" --format json 2>/dev/null)
[ -n "$a" ] && [ "$a" = "$b" ] && pass || fail "query -j is not --format json"
a=$("$PDNKIT" blunders --db "$T_TMP/j.db" -j 2>&1)
b=$("$PDNKIT" blunders --db "$T_TMP/j.db" --format json 2>&1)
[ "$a" = "$b" ] && pass || fail "blunders -j is not --format json"
done_testing
