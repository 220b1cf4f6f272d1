#!/usr/bin/env bash
# Runs Schemathesis, every check and every phase, against the bundled reference server and the
# document it serves (GET /api/v1/spec). Issue 29: the reference, the model server users compare
# theirs with, should pass a peer's tool cleanly; docs/schemathesis.md has the installed versions,
# the command as last run and the triage of what it reported.
#
# Schemathesis is not a dependency of this project and no test needs it: this script only runs an
# `st` that is already installed (ST=/path/to/st, else `st` on PATH). Build the project first
# (npm run build).
#
# Usage: scripts/schemathesis.sh [extra st options]     (env: ST, PORT, SEED, MAX_EXAMPLES, OUT)
set -euo pipefail

ST="${ST:-st}"
PORT="${PORT:-18429}"
SEED="${SEED:-1}"
MAX_EXAMPLES="${MAX_EXAMPLES:-5}"
OUT="${OUT:-schemathesis-report}"
root="$(cd "$(dirname "$0")/.." && pwd)"

command -v "$ST" >/dev/null || { echo "schemathesis.sh: no '$ST' (set ST=/path/to/st)" >&2; exit 2; }
[ -f "$root/dist/cli/conformance.js" ] || { echo "schemathesis.sh: run npm run build first" >&2; exit 2; }

work="$(mktemp -d)"
node "$root/dist/cli/conformance.js" reference --port "$PORT" --write-config "$work/ref.json" >"$work/ref.log" 2>&1 &
ref_pid=$!
trap 'kill "$ref_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/ref.json" ] && break; sleep 0.2; done
base="$(node -e 'console.log(JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).baseUrl)' "$work/ref.json")"
token="$(node -e 'console.log(JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).token)' "$work/ref.json")"

"$ST" --version
# The document names no server, so --url gives the base; the token is the reference's admin key.
"$ST" run "$base/api/v1/spec" \
  -H "Authorization: Bearer $token" \
  --url "$base" \
  --checks all \
  --phases examples,coverage,fuzzing,stateful \
  --max-examples "$MAX_EXAMPLES" \
  --seed "$SEED" \
  --workers 1 \
  --generation-database none \
  --no-color \
  --report junit,ndjson \
  --report-dir "$OUT" \
  "$@"
