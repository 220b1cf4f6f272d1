#!/usr/bin/env bash
# Start the server: run.sh [port]   (port 0 or omitted = any free port)
# Builds with g++ -O2 when the binary is missing or older than any source file.
set -e
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN="$DIR/build/platform-server"
OBJ="$DIR/build/obj"
PORT="${1:-0}"
need=0
if [ ! -x "$BIN" ]; then need=1
else
  for f in "$DIR"/src/*.cpp "$DIR"/src/*.hpp "$DIR"/src/*.inc; do
    if [ "$f" -nt "$BIN" ]; then need=1; break; fi
  done
fi
if [ "$need" = 1 ]; then
  mkdir -p "$OBJ"
  echo "building $BIN" >&2
  pids=()
  for f in "$DIR"/src/*.cpp; do
    o="$OBJ/$(basename "${f%.cpp}").o"
    g++ -std=c++17 -O2 -pthread -c "$f" -o "$o" 1>&2 &
    pids+=($!)
  done
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  [ "$ok" = 1 ] || { echo "build failed" >&2; exit 1; }
  g++ -pthread -o "$BIN.tmp" "$OBJ"/*.o 1>&2
  mv "$BIN.tmp" "$BIN"
fi
exec "$BIN" "$PORT"
