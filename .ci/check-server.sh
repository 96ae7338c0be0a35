#!/usr/bin/env bash
# Starts the NotesServer package's server (already built) on 127.0.0.1, sends it real requests —
# every route, bad input, 200 concurrent requests, each bounded in time — checks the answers, then
# sends SIGTERM and checks that it shut every singleton down and exited 0.
#
#     .ci/check-server.sh PATH-TO-notes-server LOG-DIRECTORY
set -euo pipefail
server="$1"
logs="$2"
log="$logs/notes-server.log"
graph="$logs/notes-graph.mmd"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"

fail() {
    echo "error: $*" >&2
    echo "--- server log ---" >&2
    cat "$log" >&2 || true
    kill -KILL "$pid" 2>/dev/null || true
    exit 1
}

rm -f "$graph"
HOST=127.0.0.1 PORT="$port" LOG_LEVEL=info GRAPH_PATH="$graph" "$server" > "$log" 2>&1 &
pid=$!

# Up within 30 s.
for _ in $(seq 300); do
    if curl -s --max-time 1 "$base/health" 2>/dev/null | grep -qx ok; then break; fi
    kill -0 "$pid" 2>/dev/null || fail "the server exited before serving"
    sleep 0.1
done
curl -s --max-time 1 "$base/health" | grep -qx ok || fail "the server didn't answer /health within 30 s"
grep -q "wiring checked: no problem" "$log" || fail "the server didn't report its wiring check"
grep -q "HTTPAssembly.handler" "$graph" || fail "the server didn't export its wiring graph to $graph"

# One request: METHOD PATH [BODY] → the status code; the body is left in $body.
body="$logs/notes-body.json"
request() {
    local data=()
    if [ $# -ge 3 ]; then data=(--data "$3" -H "Content-Type: application/json"); fi
    curl -s --max-time 5 -o "$body" -w '%{http_code}' -X "$1" "${data[@]}" "$base$2"
}
expect() {
    local expected="$1"
    shift
    local status
    status="$(request "$@")" || fail "$* didn't complete"
    [ "$status" = "$expected" ] || fail "$* answered $status, not $expected: $(cat "$body")"
}
json() { python3 -c "import json, sys; print($1)" < "$body"; }

expect 201 POST /notes '{"text":"milk"}'
[ "$(json 'json.load(sys.stdin)["text"]')" = milk ] || fail "POST /notes returned $(cat "$body")"
id="$(json 'json.load(sys.stdin)["id"]')"
expect 200 GET /notes
[ "$(json 'len(json.load(sys.stdin)["notes"])')" = 1 ] || fail "GET /notes returned $(cat "$body")"
expect 200 GET "/notes/$id"
[ "$(json 'json.load(sys.stdin)["text"]')" = milk ] || fail "GET /notes/$id returned $(cat "$body")"
expect 404 GET /notes/999
expect 400 GET /notes/abc
expect 400 POST /notes '{"text":"   "}'
expect 400 POST /notes 'not json'
expect 204 DELETE "/notes/$id"
expect 404 DELETE "/notes/$id"

# 200 requests at once, 50 connections at a time, each within 10 s.
statuses="$(seq 200 | xargs -P 50 -I{} curl -s --max-time 10 -o /dev/null -w '%{http_code}\n' \
    -X POST -H "Content-Type: application/json" --data '{"text":"note {}"}' "$base/notes")" || true
created="$(grep -c '^201$' <<< "$statuses" || true)"
[ "$created" = 200 ] || fail "$created of 200 concurrent POSTs were created: $(sort <<< "$statuses" | uniq -c | tr '\n' ' ')"
expect 200 GET /notes
[ "$(json 'len(json.load(sys.stdin)["notes"])')" = 200 ] || fail "after 200 POSTs, GET /notes listed $(json 'len(json.load(sys.stdin)["notes"])')"
[ "$(json 'len({n["id"] for n in json.load(sys.stdin)["notes"]})')" = 200 ] || fail "the 200 notes don't have 200 ids"

# SIGTERM: a graceful shutdown within 20 s, exit status 0, every singleton that owns something shut down.
kill -TERM "$pid"
for _ in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "the server was still running 20 s after SIGTERM"
status=0
wait "$pid" || status=$?
[ "$status" = 0 ] || fail "the server exited with status $status after SIGTERM"
for line in "shut down: notes controller" "shut down: note store" "stopped"; do
    grep -q "$line" "$log" || fail "the server's log has no '$line'"
done
echo "The server answered every route, 200 concurrent requests, and shut down on SIGTERM with status 0."
