#!/usr/bin/env bash
# A whole two-seat Bloqueio game over the REST API with curl and jq.
# Usage: BASE=http://127.0.0.1:8000 bash docs/examples/curl_game.sh
set -euo pipefail
BASE=${BASE:-http://127.0.0.1:8000}
json=(-s -H 'Content-Type: application/json')

# 1. Two players register; each gets an API token.
RED=$(curl "${json[@]}" -X POST "$BASE/api/auth/register/" \
  -d '{"username": "red", "password": "a-long-pass-phrase-1"}' | jq -r .token)
GREEN=$(curl "${json[@]}" -X POST "$BASE/api/auth/register/" \
  -d '{"username": "green", "password": "a-long-pass-phrase-2"}' | jq -r .token)

# 2. Red creates a game (seat 0); green joins (seat 1) and the game starts.
GAME=$(curl "${json[@]}" -H "Authorization: Token $RED" -X POST "$BASE/api/games/" \
  -d '{"kind": "bloqueio2", "ranked": false, "time_control": null}' | jq -r .id)
curl "${json[@]}" -H "Authorization: Token $GREEN" -X POST "$BASE/api/games/$GAME/join/" \
  -d '{}' | jq -c '{status, seats}'

act() {  # act TOKEN ACTION-JSON: submit at the game's current ply
  local ply
  ply=$(curl -s "$BASE/api/games/$GAME/" | jq .ply)
  curl "${json[@]}" -H "Authorization: Token $1" -X POST "$BASE/api/games/$GAME/actions/" \
    -d "{\"action\": $2, \"ply\": $ply}"
}

# 3. Play. Red walks down column 5; green steps left once, places a barrier, walks up.
act "$RED" '{"type": "move", "to": [2, 5]}' | jq -c .event
act "$GREEN" '{"type": "move", "to": [9, 4]}' | jq -c .event
act "$RED" '{"type": "move", "to": [3, 5]}' | jq -c .event
act "$GREEN" '{"type": "barrier", "at": [5, 6], "orientation": "V"}' | jq -c .event
# A refused action: not green's turn.
act "$GREEN" '{"type": "move", "to": [8, 4]}' | jq -c .
for row in 4 5 6 7 8 9 10; do
  act "$RED" "{\"type\": \"move\", \"to\": [$row, 5]}" | jq -c '.event.action'
  [ "$row" = 10 ] && break
  act "$GREEN" "{\"type\": \"move\", \"to\": [$((12 - row)), 4]}" | jq -c '.event.action'
done

# 4. The result, the history, a replayed position, and the one-line export.
curl -s "$BASE/api/games/$GAME/" | jq -c '{status, ply, result}'
curl -s "$BASE/api/games/$GAME/events/?after=15" | jq -c '.events[] | {ply, seat, action}'
curl -s "$BASE/api/games/$GAME/replay/?ply=4" | jq -c .state
curl -s "$BASE/api/games/$GAME/export/" | jq -r .notation
