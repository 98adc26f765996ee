# pdnkit serve against an attacker: a request naming a foreign Host (DNS rebinding) or
# a POST from a foreign Origin is refused; slow-trickling clients are cut off at the
# header deadline and one address cannot take every connection; annotation on request
# is bounded by --max-time, stopped when its client leaves, answered on SIGTERM, and
# leaves the analysis slots free; a store replaced under the server is seen; unknown
# arguments and NUL bytes are refused; every JSON answer has unique keys.
. "$TESTS_DIR/lib.sh"

if ! command -v curl >/dev/null 2>&1; then
	echo "SKIP $T_NAME: curl not installed (apt-get install curl)"
	done_testing
	exit
fi
have_corpora "the server's guards" || { done_testing; exit; }
POKE="$BINDIR/netpoke"
JSON="$BINDIR/jsoncheck"

DB="$T_TMP/s.db"
"$PDNKIT" import --db "$DB" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
"$PDNKIT" annotate --db "$DB" --event "Petal 1981, game 37" --depth 4 --quiet --egdb none >/dev/null 2>&1
ID=$("$PDNKIT" query --db "$DB" --event "Petal 1981, game 5" --format json 2>/dev/null | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')

start() {
	rm -f "$T_TMP/port"
	"$PDNKIT" serve --db "$DB" --port 0 --port-file "$T_TMP/port" --egdb none "$@" >"$T_TMP/serve.out" 2>"$T_TMP/serve.err" &
	SPID=$!
	i=0
	while [ ! -s "$T_TMP/port" ] && [ $i -lt 100 ] && kill -0 $SPID 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	PORT=$(cat "$T_TMP/port" 2>/dev/null)
	U="http://127.0.0.1:$PORT"
}
stop() { kill -TERM $SPID 2>/dev/null; wait $SPID 2>/dev/null; }
# code [CURL ARGS] URL: the status in $CODE, the body in $T_TMP/body
code() { CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' --max-time 30 "$@"); }
has() { grep -q "$1" "$T_TMP/body" && pass || fail "$2: $(head -c 300 "$T_TMP/body")"; }

start --allow-write -q
[ -n "$PORT" ] && pass || fail "the server did not start: $(cat "$T_TMP/serve.err")"

# --- DNS rebinding: the Host and the Origin ---
code -H 'Host: evil.example.com' "$U/api/info"
[ "$CODE" = 403 ] && pass || fail "a foreign Host answered $CODE"
has "allow-host" "the way to serve another name said"
code -H 'Host: evil.example.com' -H 'Origin: http://evil.example.com' -H 'X-Pdnkit: 1' -X POST "$U/api/alias?spelling=X&player=Tinsley"
[ "$CODE" = 403 ] && pass || fail "the rebinding POST of the report answered $CODE"
code -H 'Host: evil.example.com' "$U/"
[ "$CODE" = 403 ] && pass || fail "a page under a foreign Host answered $CODE"
for h in "127.0.0.1:$PORT" "localhost:$PORT" "LOCALHOST" "[::1]:$PORT" "192.168.1.20:$PORT"; do
	code -H "Host: $h" "$U/api/info"
	[ "$CODE" = 200 ] && pass || fail "Host $h answered $CODE"
done
code -H "Origin: http://evil.example.com" -H 'X-Pdnkit: 1' -X POST "$U/api/alias?spelling=Y&player=Tinsley"
[ "$CODE" = 403 ] && pass || fail "a POST from a foreign Origin answered $CODE"
has "own pages" "the foreign Origin said"
code -H "Origin: null" -H 'X-Pdnkit: 1' -X POST "$U/api/alias?spelling=Y&player=Tinsley"
[ "$CODE" = 403 ] && pass || fail "a POST from Origin null answered $CODE"
code -H "Origin: http://127.0.0.1:$PORT" -H 'X-Pdnkit: 1' -X POST "$U/api/alias?spelling=Y%20Z&player=Tinsley,%20M."
[ "$CODE" = 200 ] && pass || fail "a POST from the server's own origin answered $CODE: $(cat "$T_TMP/body")"

# --- arguments: unknown, and NUL bytes ---
code "$U/api/games?playr=Tinsley"
[ "$CODE" = 400 ] && pass || fail "a misspelt filter answered $CODE"
has "takes no argument 'playr'" "the unknown argument named"
has "player" "the arguments it takes listed"
code "$U/api/info?x=1"
[ "$CODE" = 400 ] && pass || fail "info with an argument answered $CODE"
code "$U/api/games?player=Tins%00ley"
[ "$CODE" = 400 ] && pass || fail "a NUL in a value answered $CODE"
has "NUL" "the NUL said"
code "$U/api/games?pla%00yer=x"
[ "$CODE" = 400 ] && pass || fail "a NUL in a name answered $CODE"

# --- every JSON answer has unique keys ---
for q in info "games?limit=3" "game?id=$ID" "explorer?moves=11-15" stats "players?limit=5" \
	"position?moves=11-15%2023-19" "egdb?fen=W:WK10:B14" "analyse?moves=11-15&time=0.1" "nothing" "games?limit=x"; do
	code "$U/api/$q"
	"$JSON" <"$T_TMP/body" 2>"$T_TMP/json.err" && pass || fail "/api/$q: $(cat "$T_TMP/json.err")"
done
code "$U/api/stats"
has '"player_count":' "stats says the number of players apart from their list"

# --- annotation on request: its default depth, and the analysis slot stays free ---
# (a server of its own with room for a slow build: a sanitizer build annotates a game at
# depth 10 in more than the default --max-time of 10 s)
stop
start --allow-write -q --max-time 600
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' --max-time 600 -H 'X-Pdnkit: 1' -X POST "$U/api/annotate?id=$ID")
[ "$CODE" = 200 ] && pass || fail "annotate answered $CODE: $(cat "$T_TMP/body")"
has '"settings":"depth=10 nodes=0 movetime=0 ' "the default depth (10), no default time"
stop

# bounded by --max-time: 503, nothing stored; an analysis answers meanwhile
ID2=$("$PDNKIT" query --db "$DB" --event "Petal 1981, game 6" --format json 2>/dev/null | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
N0=$(sqlite3 "$DB" "SELECT count(*) FROM annotated")
start --allow-write -q --depth 40 --max-time 2
T0=$(date +%s)
curl -s -o "$T_TMP/ann" -w '%{http_code}' --max-time 30 -H 'X-Pdnkit: 1' -X POST "$U/api/annotate?id=$ID2" >"$T_TMP/ann.code" &
CP=$!
sleep 0.5
code "$U/api/analyse?moves=11-15&time=0.2"
[ "$CODE" = 200 ] && pass || fail "an analysis during an annotation answered $CODE: $(cat "$T_TMP/body")"
wait $CP
T1=$(date +%s)
[ "$(cat "$T_TMP/ann.code")" = 503 ] && grep -q "max-time 2" "$T_TMP/ann" && pass ||
	fail "an annotation over --max-time answered $(cat "$T_TMP/ann.code"): $(cat "$T_TMP/ann")"
[ $((T1 - T0)) -le 6 ] && pass || fail "the annotation over --max-time 2 took $((T1 - T0)) s"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM annotated")" = "$N0" ] && pass || fail "a stopped annotation stored something"
stop

# stopped when the client leaves: the next one is taken at once
start --allow-write -q --depth 40 --max-time 300
curl -s -o /dev/null --max-time 1 -H 'X-Pdnkit: 1' -X POST "$U/api/annotate?id=$ID2"
sleep 1
code -H 'X-Pdnkit: 1' -X POST "$U/api/annotate?id=99999999"
[ "$CODE" = 404 ] && pass || fail "after its client left, the annotation still held the server: $CODE $(cat "$T_TMP/body")"
# SIGTERM during an annotation: answered 503, said, nothing stored
curl -s -o "$T_TMP/ann" -w '%{http_code}' --max-time 30 -H 'X-Pdnkit: 1' -X POST "$U/api/annotate?id=$ID2" >"$T_TMP/ann.code" &
CP=$!
sleep 1
stop
wait $CP
[ "$(cat "$T_TMP/ann.code")" = 503 ] && grep -q "stopping" "$T_TMP/ann" && pass ||
	fail "an annotation at SIGTERM answered $(cat "$T_TMP/ann.code"): $(cat "$T_TMP/ann")"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM annotated")" = "$N0" ] && pass || fail "an annotation cut by SIGTERM stored something"

# --- slow clients: the header deadline and the limit per address ---
start -q --header-time 2 --per-address 4
S=$("$POKE" trickle "$PORT" 0.5 15)
[ "$S" -le 5 ] && pass || fail "a client trickling a header line every 0.5 s was held $S s (--header-time 2)"
"$POKE" silent "$PORT" 4 6 >"$T_TMP/held" &
HP=$!
sleep 0.7
code "$U/api/info"
[ "$CODE" = 000 ] && pass || fail "a fifth connection of one address answered $CODE (--per-address 4)"
wait $HP
grep -q '^open 0$' "$T_TMP/held" && pass || fail "silent connections kept past the header deadline: $(cat "$T_TMP/held")"
code "$U/api/info"
[ "$CODE" = 200 ] && pass || fail "after the silent ones were cut: $CODE"
stop

# --- a store replaced under the server is served, not the old one ---
cp "$DB" "$T_TMP/live.db"
DB0=$DB
DB="$T_TMP/live.db"
start -q
code "$U/api/games?limit=1"
C0=$(grep -o '"count":[0-9]*' "$T_TMP/body" | cut -d: -f2)
"$PDNKIT" import --db "$T_TMP/new.db" "$TESTS_DIR/../corpora/tinsley-long-1981-game37.pdn" >/dev/null 2>&1
mv "$T_TMP/new.db" "$T_TMP/live.db"
code "$U/api/games?limit=1"
[ "$CODE" = 200 ] && grep -q '"count":1,' "$T_TMP/body" && pass || fail "after mv: $CODE $(head -c 200 "$T_TMP/body") (before $C0)"
rm -f "$T_TMP/live.db" "$T_TMP/live.db-wal" "$T_TMP/live.db-shm"
code "$U/api/games?limit=1"
[ "$CODE" = 503 ] && grep -q "gone" "$T_TMP/body" && pass || fail "a deleted store answered $CODE: $(head -c 200 "$T_TMP/body")"
"$PDNKIT" import --db "$T_TMP/live.db" "$CORPORA/tinsley.pdn" >/dev/null 2>&1
code "$U/api/games?limit=1"
[ "$CODE" = 200 ] && grep -q "\"count\":$C0," "$T_TMP/body" && pass || fail "after rm and a new import: $CODE $(head -c 200 "$T_TMP/body")"
stop
DB=$DB0

done_testing
