#!/usr/bin/env bash
# Builds the server (Go 1.19 or later, standard library only; Debian: golang-go) into a scratch
# folder when its sources are newer, then runs it: bash run.sh [port] (0: any free port).
set -e
here="$(cd "$(dirname "$0")" && pwd)"
out="${BLIND_GO_BUILD:-${TMPDIR:-/tmp}/blind-go-build}"
mkdir -p "$out"
if [ ! -x "$out/server" ] || [ -n "$(find "$here" -name '*.go' -newer "$out/server" | head -1)" ]; then
  (cd "$here" && GOCACHE="${GOCACHE:-$out/gocache}" GOPATH="${GOPATH:-$out/gopath}" go build -o "$out/server" .) >&2
fi
exec "$out/server" --port "${1:-0}"
