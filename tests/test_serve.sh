# pdnkit serve: the JSON API over real HTTP (curl) against a server this test starts on a
# free port: answers agree with `pdnkit query` and `stats`, hostile requests (huge or
# malformed arguments, bad UTF-8, path traversal, SQL metacharacters, other methods, a
# thousand requests at once) are answered or refused and the server stays up, the store
# is never written, an analysis is time-limited and a second one is refused while the
# engine is busy, and SIGTERM stops it cleanly even during an analysis. Then a real
# browser (Chromium, through the DevTools protocol: tests/cdp.c) opens the pages.
. "$TESTS_DIR/lib.sh"

if ! command -v curl >/dev/null 2>&1; then
	echo "SKIP $T_NAME: curl not installed (apt-get install curl)"
	done_testing
	exit
fi
have_corpora "the server over OCA 2.0" || { done_testing; exit; }

DB="$T_TMP/s.db"
"$PDNKIT" import --db "$DB" "$CORPORA/OCA_2.0.pdn" >/dev/null 2>&1
# the 1981 title match's game 37, annotated
ID37=$("$PDNKIT" query --db "$DB" --event "Petal 1981, game 37" --format json 2>/dev/null | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
"$PDNKIT" annotate --db "$DB" --event "Petal 1981, game 37" --depth 6 --quiet >/dev/null 2>&1
# three International games of WK 2003, the second annotated
awk '/^\[Event/ { n++ } n <= 3' "$CORPORA/wk2003.pdn" >"$T_TMP/wk3.pdn"
"$PDNKIT" import --db "$DB" "$T_TMP/wk3.pdn" >/dev/null 2>&1
IDI=$("$PDNKIT" query --db "$DB" --variant international --white "Ba,B." --format json 2>/dev/null | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
"$PDNKIT" annotate --db "$DB" --variant international --white "Ba,B." --depth 8 --book none --quiet >/dev/null 2>&1
# a game with variations (nested, with marks and an illegal move); the International one
# of the same file in a store of its own (the counts below are of the three above)
awk '/^\[Event/ { n++ } n == 1' corpora/fixtures/variations.pdn >"$T_TMP/var1.pdn"
"$PDNKIT" import --db "$DB" "$T_TMP/var1.pdn" >/dev/null 2>&1
IDV=$("$PDNKIT" query --db "$DB" --event "variations" --format json 2>/dev/null | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
"$PDNKIT" import --db "$T_TMP/v.db" corpora/fixtures/variations.pdn >/dev/null 2>&1
chmod a-w "$DB"
SUM=$(cksum <"$DB")

# start: pdnkit serve on a free port; the port from --port-file
start() {
	rm -f "$T_TMP/port"
	"$PDNKIT" serve --db "$DB" --port 0 --port-file "$T_TMP/port" --egdb none "$@" >"$T_TMP/serve.out" 2>"$T_TMP/serve.err" &
	SPID=$!
	i=0
	while [ ! -s "$T_TMP/port" ] && [ $i -lt 100 ] && kill -0 $SPID 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	PORT=$(cat "$T_TMP/port" 2>/dev/null)
	U="http://127.0.0.1:$PORT"
}
# get PATH: body in $OUT, status in $CODE
get() {
	CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' --max-time 20 "$U$1")
	OUT=$(cat "$T_TMP/body")
}
num() { grep -o "\"$1\":[0-9]*" "$T_TMP/body" | head -1 | cut -d: -f2; }

start --per-address 1000   # the global cap is what the thousand requests below meet
[ -n "$PORT" ] && pass || fail "the server did not start: $(cat "$T_TMP/serve.err")"
grep -q "serving .* at http://127.0.0.1:$PORT/ (read-only" "$T_TMP/serve.err" && pass || fail "no 'serving' line: $(cat "$T_TMP/serve.err")"

# the pages
get /
[ "$CODE" = 200 ] && pass || fail "/ answered $CODE"
expect_out_has '<script src="/app.js"></script>' "the page loads its script"
HDR=$(curl -s -D - -o /dev/null "$U/app.js")
case $HDR in *"Content-Security-Policy: default-src 'self'"*) pass ;; *) fail "no Content-Security-Policy: $HDR" ;; esac
case $HDR in *"text/javascript"*) pass ;; *) fail "app.js not served as JavaScript: $HDR" ;; esac

# a game's variations: each line read against the rules from where it branches, with
# its boards, nested lines, comments and marks; a move the rules refuse ends its line
get "/api/game?id=$IDV"
[ "$CODE" = 200 ] && pass || fail "the game with variations answered $CODE"
expect_out_has '"vars":[[{"move":"9-14","number":1,"side":"black","board":"bbbbbbbb.bbb.b......wwwwwwwwwwww","last":[9,14]}' "a variation of the first move, its board"
expect_out_has '"vars":[[{"move":"23-18","number":1,"side":"white","board":"bbbbbbbb.bbb.b...w..ww.wwwwwwwww"' "a variation inside a variation, from its own position"
expect_out_has '"vars":[[{"move":"8-12?","number":2,"side":"black","illegal":true}]]' "an illegal move in a variation marked, its line ended"
VPORT=$PORT; VPID=$SPID; VU=$U; MAIN_DB=$DB; DB="$T_TMP/v.db"
start -q
get "/api/game?id=2"
expect_out_has '{"move":"23-29!","number":2,"side":"black","board":"bbbbbbbbbbbbbbbbb.bb.......wb.wwwwww.wwwwwwwwwwwww","last":[23,29],"comments":["Black wins"]}' "an International variation: marks, comment, board"
kill -TERM $SPID
wait $SPID
DB=$MAIN_DB; PORT=$VPORT; SPID=$VPID; U=$VU

# games: the counts of pdnkit query
get "/api/games?player=tinsley&limit=5"
[ "$CODE" = 200 ] && pass || fail "games answered $CODE: $OUT"
WANT=$("$PDNKIT" query --db "$DB" --player tinsley --format count)
[ "$(num count)" = "$WANT" ] && pass || fail "games?player=tinsley counts $(num count), query $WANT"
[ "$(echo "$OUT" | grep -c '"id":')" -eq 5 ] && pass || fail "limit=5 gave not 5 games: $OUT"
# export: the list's games as one PDN (the Download button), as many as query counts
get "/api/export?player=tinsley&from=1950&to=1955"
[ "$CODE" = 200 ] && pass || fail "export answered $CODE: $OUT"
WANT=$("$PDNKIT" query --db "$DB" --player tinsley --date-from 1950 --date-to 1955 --format count)
[ "$(num games)" = "$WANT" ] && [ "$(num count)" = "$WANT" ] && pass || fail "export of Tinsley's 1950-55 games: $(num games), query $WANT"
[ "$(printf '%s' "$OUT" | grep -o '\[Event ' | wc -l)" -eq "$WANT" ] && pass || fail "export: not $WANT games' tags in the PDN"
get "/api/export?player=tinsley&limit=3"
[ "$CODE" = 400 ] && pass || fail "export takes no limit: $CODE"
get "/api/games?result=draw&from=1950&to=1959&order=date&desc=1&limit=3&offset=10"
WANT=$("$PDNKIT" query --db "$DB" --result draw --date-from 1950 --date-to 1959 --format count)
[ "$(num count)" = "$WANT" ] && pass || fail "games of the 1950s drawn: $(num count), query $WANT"
expect_out_has '"offset":10,"limit":3' "paging"
IDS=$("$PDNKIT" query --db "$DB" --result draw --date-from 1950 --date-to 1959 --order date --desc --limit 13 --format json | tail -3 | sed 's/.*"id":\([0-9]*\).*/\1/' | tr '\n' ' ')
GOT=$(echo "$OUT" | grep -o '"id":[0-9]*' | cut -d: -f2 | tr '\n' ' ')
[ "$GOT" = "$IDS" ] && pass || fail "page 11-13 by date: [$GOT], query [$IDS]"

# explorer: the counts of query --after, the moves played next those of stats
get "/api/explorer?moves=11-15%2023-19"
WANT=$("$PDNKIT" query --db "$DB" --after "11-15 23-19" --format count)
[ "$(num games)" = "$WANT" ] && pass || fail "explorer after 11-15 23-19: $(num games), query $WANT"
FIRST=$("$PDNKIT" stats --db "$DB" --after "11-15 23-19" | awk '/^moves played from/ {getline; getline; print $1, $2; exit}')
GOT=$(echo "$OUT" | sed 's/.*"moves":\[{"move":"\([^"]*\)".*"games":\([0-9]*\),"black_wins".*/\1/')
GOTN=$(echo "$OUT" | sed 's/.*"moves":\[{[^}]*"games":\([0-9]*\),.*/\1/')
[ "$GOT $GOTN" = "$FIRST" ] && pass || fail "the most played move: [$GOT $GOTN], stats [$FIRST]"
[ "$(echo "$OUT" | grep -o '"move":' | wc -l)" -eq 7 ] && pass || fail "not the 7 legal moves listed"
# the classic opening the explorer's moves reached, by name (pdnkit(1)'s table)
get "/api/explorer?moves=11-15%2023-19%208-11%2022-17%204-8%2017-13"
expect_out_has '"opening":"Old Fourteenth"' "the explorer names the opening"
get "/api/explorer?fen=W:W18:B14"
[ "$(num games)" = 0 ] && pass || fail "a position no game reaches: $OUT"

# one game
get "/api/game?id=$ID37"
[ "$CODE" = 200 ] && pass || fail "game answered $CODE: $OUT"
PL=$(num plies)
[ "$(sed 's/.*"positions":\[\([^]]*\)\].*/\1/' "$T_TMP/body" | tr ',' '\n' | wc -l)" -eq $((PL + 1)) ] && pass || fail "not plies + 1 positions"
expect_out_has '"annotation":{"run":' "the annotation of the game"
expect_out_has '"pdn":"[Event ' "the PDN"
expect_out_has '"opening":"Double Corner"' "the game's opening by name (9-14)"
get "/api/game?id=999999"
[ "$CODE" = 404 ] && pass || fail "a game not there answered $CODE"
expect_out_has '"error":"no game 999999 in the store"' "the missing game said"

# an International game: its own board, White first, the moves as it numbers them
get "/api/game?id=$IDI"
[ "$CODE" = 200 ] && pass || fail "the International game $IDI answered $CODE"
expect_out_has '"variant":"international","first":"white","board":{"rows":10,"cols":10,"sq":[[0,1],' "its board"
expect_out_has '"positions":["bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww",' "its start, a character a square"
expect_out_has '"moves":[{"ply":1,"number":1,"side":"white","move":"32-28","from":32,"path":[28],' "its first move"
expect_out_has '"annotation":{"run":' "its annotation"
"$BINDIR/jsoncheck" <"$T_TMP/body" >/dev/null && pass || fail "the International game's JSON does not read"
get "/api/games?variant=international&limit=5"
WANT=$("$PDNKIT" query --db "$DB" --variant international --format count)
[ "$(num count)" = "$WANT" ] && [ "$WANT" -eq 3 ] && pass || fail "games?variant=international counts $(num count), query $WANT"
expect_out_has '{"gametype":20,"key":"international","name":"International draughts","games":3}' "the variants of the store listed"
get "/api/games?variant=klingon"
[ "$CODE" = 400 ] && pass || fail "an unknown variant answered $CODE"
# the explorer of International games: their board, the moves played next from the
# start with their results, every legal move listed; a position after moves in any order
get "/api/explorer?variant=international"
[ "$CODE" = 200 ] && pass || fail "the explorer of International games answered $CODE"
expect_out_has '"games":3,' "the three International games at the start"
expect_out_has '"variant":"international","first":"white","geometry":{"rows":10,"cols":10,' "its board's geometry"
expect_out_has '"board":"bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww"' "its start"
[ "$(grep -o '"move":"' "$T_TMP/body" | wc -l)" -eq 9 ] && pass || fail "the nine legal first moves listed: $(grep -o '"move":"' "$T_TMP/body" | wc -l)"
"$BINDIR/jsoncheck" <"$T_TMP/body" >/dev/null && pass || fail "the International explorer's JSON does not read"
FIRST=$(sed 's/.*"moves":\[{"move":"\([^"]*\)".*/\1/' "$T_TMP/body")
get "/api/explorer?variant=international&moves=$FIRST"
[ "$CODE" = 200 ] && expect_out_has '"turn":"black"' "after the most played first move, Black to move"
get "/api/explorer?variant=international&moves=32-27"
[ "$CODE" = 200 ] && pass || fail "an International move answered $CODE"
get "/api/explorer?variant=international&moves=32-26"
[ "$CODE" = 400 ] && pass || fail "an illegal International move answered $CODE"
get "/api/analyse?variant=international&moves=32-28%2018-23&time=0.2"
[ "$CODE" = 200 ] && pass || fail "an International analysis answered $CODE: $OUT"
expect_out_has '"best":"' "its best move"
expect_out_has '"pv":["' "its line"
# every move's value (the explorer's engine column): each legal move once, the best first
for Q in "variant=international&moves=32-28%2018-23" "moves=11-15%2023-19"; do
	get "/api/position?$Q"
	N=$(echo "$OUT" | grep -o '"move":"' | wc -l)
	get "/api/analyse?$Q&time=0.5&each=1"
	[ "$CODE" = 200 ] && pass || fail "each move's value ($Q) answered $CODE: $OUT"
	BODY=$(echo "$OUT" | sed 's/.*"lines":\[\(.*\)\],"egdb".*/\1/')
	LINES=$(echo "$BODY" | grep -o '"best":"[^"]*"' | sort)
	[ "$N" -gt 2 ] && [ "$(echo "$LINES" | wc -l)" = "$N" ] && [ "$(echo "$LINES" | sort -u | wc -l)" = "$N" ] && pass ||
		fail "each of the $N legal moves ($Q) valued once: $LINES"
	SCORES=$(echo "$BODY" | grep -o '"score":-\{0,1\}[0-9]*' | cut -d: -f2 | tr '\n' ' ')
	echo "$SCORES" | awk '{ for (i = 2; i <= NF; i++) if ($i > $(i - 1)) exit 1 }' && pass || fail "the values not best first: $SCORES"
done
get "/api/analyse?fen=W:W28:B23&variant=international&each=1&time=0.1"
expect_out_has '"forced":true' "the only move (a capture) said forced"
get "/api/position?variant=international&fen=W:W28:B23"
expect_out_has '"moves":[{"move":"28x19","from":28,"path":[19]' "an International capture listed"
get "/api/stats?variant=international"
[ "$(num games)" = 3 ] && pass || fail "stats of the International games: $OUT"


# players and stats
get "/api/players?limit=3"
expect_out_has '"name":"Lowder, E.","key":"e lowder","games":' "players, the most games first"
get "/api/stats"
WANT=$("$PDNKIT" stats --db "$DB" --variant english | awk '$1 == "games" {print $2}')
[ "$(num games)" = "$WANT" ] && pass || fail "stats counts $(num games), pdnkit stats $WANT"

# positions and the databases
get "/api/position?moves=11-15%2023-19%208-11%2022-17"
expect_out_has '"turn":"black"' "the side to move"
FEN=$(echo "$OUT" | sed 's/^{"fen":"\([^"]*\)".*/\1/')
[ "$(echo "$OUT" | grep -o '"move":' | wc -l)" -eq "$("$PDNKIT" perft --fen "$FEN" 1 | sed 's/^perft(1) = \([0-9]*\).*/\1/')" ] &&
	pass || fail "the legal moves of the position: $OUT"
get "/api/egdb?fen=W:WK10:B14"
expect_out_has '"pieces":2,"loaded":0,"egdb":null' "no databases: said"

# hostile requests: each answered 4xx with a reason, never 5xx
for q in "games?limit=0" "games?limit=abc" "games?order=id;DROP%20TABLE%20game" "games?result=3-3" \
	"games?from=19x0" "games?player=%FF%FE" "games?player=a%01b" "game" "game?id=-1" "explorer?moves=11-15%2011-15" \
	"position?fen=W:W33:B1" "position?fen=B:W1:B1" "position?fen=x&moves=y" "analyse?time=9999" "nothing"; do
	get "/api/$q"
	case $CODE in 4??) pass ;; *) fail "/api/$q answered $CODE: $OUT" ;; esac
	case $OUT in '{"error":'*) pass ;; *) fail "/api/$q: no error object: $OUT" ;; esac
done
get "/api/games?player=%27%20OR%201%3D1%20--"
[ "$CODE" = 200 ] && [ "$(num count)" = 0 ] && pass || fail "SQL in a value is only a name: $CODE $OUT"
get "/api/games?player=$(head -c 300 /dev/zero | tr '\0' 'a')"
[ "$CODE" = 400 ] && pass || fail "a 300-byte name answered $CODE"
BIG=$(head -c 100000 /dev/zero | tr '\0' 'a')
CODE=$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 "$U/api/games?player=$BIG")
case $CODE in 4??) pass ;; *) fail "a 100 KB request answered $CODE" ;; esac
for p in "/../../../../etc/passwd" "/%2e%2e/%2e%2e/etc/passwd" "/..%2f..%2fetc%2fpasswd" "/app.js/../../etc/passwd" "/static/app.js"; do
	CODE=$(curl -s --path-as-is -o "$T_TMP/body" -w '%{http_code}' "$U$p")
	[ "$CODE" = 404 ] && ! grep -q "root:" "$T_TMP/body" && pass || fail "$p answered $CODE"
done
CODE=$(curl -s -I -o /dev/null -w '%{http_code}' "$U/api/stats")
[ "$CODE" = 200 ] && pass || fail "HEAD answered $CODE"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -X POST -d 'x=1' "$U/api/games")
[ "$CODE" = 405 ] && pass || fail "POST answered $CODE"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "$U/api/games")
[ "$CODE" = 405 ] && pass || fail "DELETE answered $CODE"
# binary junk as a request
printf '\000\377GARBAGE \r\n\r\n' | curl -s --max-time 5 telnet://127.0.0.1:$PORT >/dev/null 2>&1
get "/api/games?limit=1"
[ "$CODE" = 200 ] && pass || fail "the server is down after junk: $CODE"

# a thousand requests at once: every one answered (200) or refused, the server stays up
URLS="$T_TMP/urls"
i=0
while [ $i -lt 1000 ]; do echo "url = \"$U/api/games?limit=2&offset=$i\""; echo "output = /dev/null"; i=$((i + 1)); done >"$URLS"
curl -s -Z --parallel-max 1000 --max-time 60 -K "$URLS" -w '%{http_code}\n' >"$T_TMP/codes" 2>/dev/null
OK=$(grep -c '^200$' "$T_TMP/codes")
BAD=$(grep -v -c -E '^(200|000|503)$' "$T_TMP/codes")
[ "$OK" -ge 100 ] && [ "$BAD" -eq 0 ] && pass || fail "1,000 at once: $OK answered 200, $BAD other answers: $(sort "$T_TMP/codes" | uniq -c | tr '\n' ' ')"
# the connections refused are those over --max-connections: as their threads end, it
# answers again
i=0
while get "/api/games?limit=1" && [ "$CODE" != 200 ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
[ "$CODE" = 200 ] && kill -0 $SPID 2>/dev/null && pass || fail "the server is down after 1,000 requests"

# analysis: time-limited; a second one refused while the engine is busy (after waiting
# up to a second for it: the first searches 6 s)
get "/api/analyse?moves=11-15&time=0.3"
[ "$CODE" = 200 ] && pass || fail "analyse answered $CODE: $OUT"
expect_out_has '"best":"' "the best move"
curl -s -o "$T_TMP/a1" --max-time 20 "$U/api/analyse?moves=11-15&time=6" &
CPID=$!
sleep 1.5
get "/api/analyse?moves=9-14&time=1"
[ "$CODE" = 503 ] && pass || fail "a second analysis while the engine searched answered $CODE: $OUT"
expect_out_has "busy" "busy said"
get "/api/games?limit=1"
[ "$CODE" = 200 ] && pass || fail "a game list while the engine searched answered $CODE"
wait $CPID
grep -q '"best":"' "$T_TMP/a1" && pass || fail "the first analysis: $(cat "$T_TMP/a1")"

# the store is never written
[ "$(cksum <"$DB")" = "$SUM" ] && pass || fail "the store changed while served read-only"

# SIGTERM during an analysis: stops at once, exit 0
curl -s -o /dev/null --max-time 20 "$U/api/analyse?moves=11-15&time=9" &
CPID=$!
sleep 0.5
T0=$(date +%s)
kill -TERM $SPID
wait $SPID
RC=$?
T1=$(date +%s)
wait $CPID 2>/dev/null
[ "$RC" -eq 0 ] && pass || fail "SIGTERM: exit status $RC"
[ $((T1 - T0)) -le 3 ] && pass || fail "SIGTERM took $((T1 - T0)) s to stop"
grep -q "stopping" "$T_TMP/serve.err" && pass || fail "no 'stopping' said"

# --allow-write: a game annotated on request (POST with the header X-Pdnkit: 1)
cp "$DB" "$T_TMP/w.db"
chmod u+w "$T_TMP/w.db"
DB0=$DB
DB="$T_TMP/w.db"
start --allow-write --depth 4 -q
get "/api/info"
expect_out_has '"writable":true,"annotate":true' "info says what the server allows"
GID=$("$PDNKIT" query --db "$DB" --event "Petal 1981, game 5" --format json 2>/dev/null | head -1 | sed 's/.*"id":\([0-9]*\).*/\1/')
get "/api/game?id=$GID"
echo "$OUT" | grep -q '"annotation":null' && pass || fail "game $GID is not annotated yet: $(echo "$OUT" | head -c 300)"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST "$U/api/annotate?id=$GID")
[ "$CODE" = 403 ] && grep -q "X-Pdnkit" "$T_TMP/body" && pass || fail "annotate without the header answered $CODE"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/annotate?id=$GID")
[ "$CODE" = 200 ] && grep -q '"annotated":true' "$T_TMP/body" && pass || fail "annotate answered $CODE: $(cat "$T_TMP/body")"
get "/api/game?id=$GID"
expect_out_has '"annotation":{"run":' "the game annotated on request has its annotation"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/annotate?id=$GID")
grep -q '"annotated":false' "$T_TMP/body" && pass || fail "annotating again with the same settings: $(cat "$T_TMP/body")"
CODE=$(curl -s -o /dev/null -w '%{http_code}' "$U/api/annotate?id=$GID")
[ "$CODE" = 405 ] && pass || fail "GET annotate answered $CODE"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/annotate?id=99999999")
[ "$CODE" = 404 ] && pass || fail "annotating a game not there answered $CODE"
# an alias applied on request
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST "$U/api/alias?spelling=AA%20Long&player=Long,%20Asa")
[ "$CODE" = 403 ] && pass || fail "alias without the header answered $CODE"
CODE=$(curl -s -o /dev/null -w '%{http_code}' "$U/api/alias?spelling=AA%20Long&player=Long,%20Asa")
[ "$CODE" = 405 ] && pass || fail "GET alias answered $CODE"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/alias?spelling=AA%20Long")
[ "$CODE" = 400 ] && pass || fail "alias without the player answered $CODE"
N0=$("$PDNKIT" query --db "$DB" --player "AA Long" --format count 2>/dev/null)
get "/api/players?player=Long,%20Asa"
get "/api/players?player=Long,%20Asa"
case $OUT in *'"name":"Long, Asa","key":"asa long"'*) fail "a player of that name before the alias" ;; *) pass ;; esac
get "/api/info"
[ "$(num hits)" -ge 1 ] && pass || fail "the second players call was not answered from the kept answers: $OUT"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/alias?spelling=AA%20Long&player=Long,%20Asa")
[ "$CODE" = 200 ] && grep -q "\"games_changed\":$N0}" "$T_TMP/body" && pass || fail "alias answered $CODE: $(cat "$T_TMP/body") (games $N0)"
get "/api/players?player=Long,%20Asa"
expect_out_has "\"name\":\"Long, Asa\",\"key\":\"asa long\",\"games\":$N0," "the player's games under the canonical name"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/alias?spelling=AA%20Long&player=Long,%20Asa")
[ "$CODE" = 400 ] && grep -q "already a spelling" "$T_TMP/body" && pass || fail "the same alias again answered $CODE"
# a game imported by another program while serving: the kept answers are not served stale
get "/api/games?limit=1"
get "/api/games?limit=1"
C0=$(num count)
printf '[Event "Imported while serving"]\n[Result "*"]\n\n1. 11-15 *\n' >"$T_TMP/one.pdn"
"$PDNKIT" import --db "$DB" "$T_TMP/one.pdn" 2>/dev/null
get "/api/games?limit=1"
[ -n "$C0" ] && [ "$(num count)" = $((C0 + 1)) ] && pass || fail "games after an import: $(num count), before $C0"
kill -TERM $SPID
wait $SPID
run "$PDNKIT" blunders --db "$DB" --event "Petal 1981, game 5" --min-loss 0 --limit 1
expect_rc 0 "the annotation made through the server is the store's like any other"
DB=$DB0
start -q
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/annotate?id=$GID")
[ "$CODE" = 403 ] && grep -q "allow-write" "$T_TMP/body" && pass || fail "a read-only server annotated: $CODE"
CODE=$(curl -s -o "$T_TMP/body" -w '%{http_code}' -X POST -H 'X-Pdnkit: 1' "$U/api/alias?spelling=x&player=y")
[ "$CODE" = 403 ] && pass || fail "a read-only server took an alias: $CODE"
kill -TERM $SPID
wait $SPID

# a request whose queries take longer than --query-time: 503, said
start -q --query-time 0.000001
get "/api/stats"
[ "$CODE" = 503 ] && pass || fail "a request over --query-time answered $CODE"
expect_out_has "took longer than the time allowed" "the time limit said"
get "/api/info"
[ "$CODE" = 200 ] && pass || fail "after a timed-out request: $CODE"
kill -TERM $SPID
wait $SPID

# bad options and a store that is not there
run "$PDNKIT" serve --db "$T_TMP/none.db"
expect_rc 3 "a missing store"
expect_err_has "no such store" "the missing store said"
run "$PDNKIT" serve --db "$DB" --port 70000
expect_rc 2 "a port out of range"
run "$PDNKIT" serve --db "$DB" --bind nowhere --port 0
expect_rc 3 "a bind address that is no address"
expect_err_has "is not a numeric IPv4 or IPv6 address" "the bad address said"

# a real browser: list, a game stepped with the keyboard, the explorer by clicks
if command -v chromium >/dev/null 2>&1 && [ -x "$BINDIR/cdp" ]; then
	start -q
	WANT=$("$PDNKIT" query --db "$DB" --after "11-15 23-19" --format count)
	sed "s|@URL@|$U|g; s|@ID@|$ID37|g; s|@IDI@|$IDI|g; s|@IDV@|$IDV|g; s|@WANT@|$WANT|g; s|@SHOTS@|${SERVE_SHOTS:-$T_TMP}|g" "$TESTS_DIR/serve_browser.cdp" >"$T_TMP/script"
	"$BINDIR/cdp" chromium "$T_TMP/script" >"$T_TMP/cdp.out" 2>&1
	RC=$?
	grep '^FAIL' "$T_TMP/cdp.out" | while read -r line; do echo "FAIL $T_NAME: browser: $line"; done
	P=$(grep -c '^ok' "$T_TMP/cdp.out")
	F=$(grep -c '^FAIL' "$T_TMP/cdp.out")
	T_PASSED=$((T_PASSED + P))
	T_FAILED=$((T_FAILED + F))
	[ "$RC" -eq 0 ] && [ "$P" -ge 10 ] && pass || fail "the browser run: status $RC, $P checks passed: $(tail -5 "$T_TMP/cdp.out")"
	kill -TERM $SPID
	wait $SPID
else
	echo "SKIP $T_NAME: the browser checks: chromium not installed (apt-get install chromium)"
fi

done_testing
