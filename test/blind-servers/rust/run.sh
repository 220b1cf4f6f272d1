#!/bin/sh
# Usage: run.sh [port]   (port 0 or omitted = any free port; listens on 127.0.0.1)
set -e
DIR="$(cd "$(dirname "$0")" && pwd)"
BIN="$DIR/target/release/blind-rust"
CARGO="${CARGO:-/root/.cargo/bin/cargo}"
if [ ! -x "$BIN" ] || [ -n "$(find "$DIR/src" "$DIR/Cargo.toml" -newer "$BIN" 2>/dev/null | head -1)" ]; then
  (cd "$DIR" && "$CARGO" build --release --quiet 1>&2)
fi
exec "$BIN" "${1:-0}"
