#!/usr/bin/env bash
# A Chroma server on loopback for the vector-store and end-to-end tests, from the project's venv.
#
#   url=$(bash .ci/chroma.sh start DIR)   starts `chroma run` on a free port with its data in DIR/data, waits until its
#                                          heartbeat answers (at most 60 s), prints http://127.0.0.1:PORT
#   bash .ci/chroma.sh stop DIR            stops the server started with DIR (its pid is in DIR/pid)
#
# The server's output goes to DIR/server.log (printed if it does not come up). .ci/run exports the URL as
# EVIDENCE_TEST_CHROMA_URL, which tests/conftest.py's `chroma_server` fixture reads.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
action="${1:-}"
dir="${2:-}"
if [ -z "$dir" ] || { [ "$action" != start ] && [ "$action" != stop ]; }; then
  echo "usage: bash .ci/chroma.sh start|stop DIR" >&2
  exit 2
fi

if [ "$action" = stop ]; then
  [ -f "$dir/pid" ] || exit 0
  pid=$(cat "$dir/pid")
  kill "$pid" 2>/dev/null || exit 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null
  exit 0
fi

mkdir -p "$dir/data"
port=$("$root/.venv/bin/python" -c \
  'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()') || exit 1
ANONYMIZED_TELEMETRY=False nohup "$root/.venv/bin/chroma" run --path "$dir/data" --host 127.0.0.1 --port "$port" \
  >"$dir/server.log" 2>&1 </dev/null &
echo $! >"$dir/pid"
url="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  if "$root/.venv/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" \
    "$url/api/v2/heartbeat" 2>/dev/null; then
    echo "$url"
    exit 0
  fi
  if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then break; fi
  sleep 0.5
done
echo "the Chroma server did not answer at $url; its log:" >&2
cat "$dir/server.log" >&2
bash "$root/.ci/chroma.sh" stop "$dir"
exit 1
