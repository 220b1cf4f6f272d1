#!/usr/bin/env bash
# Compiles (if needed) and starts the blind Java server: bash run.sh [port]
set -e
DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PORT="${1:-0}"
if [ ! -f "$DIR/out/Main.class" ] || [ -n "$(find "$DIR/src" -name '*.java' -newer "$DIR/out/Main.class" 2>/dev/null)" ]; then
  mkdir -p "$DIR/out"
  javac -encoding UTF-8 -nowarn -d "$DIR/out" "$DIR"/src/*.java >&2
fi
exec java -Xss4m -cp "$DIR/out" Main "$PORT"
