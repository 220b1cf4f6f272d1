#!/usr/bin/env bash
# Usage: run.sh [port]   (port 0 or omitted = pick a free port)
# Starts the PHP server on 127.0.0.1 with a FRESH database; first stdout line is the JSON start line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PORT="${1:-0}"
if [ "$PORT" = "0" ]; then
  PORT="$(php -r '$s=stream_socket_server("tcp://127.0.0.1:0"); $n=stream_socket_get_name($s,false); echo substr($n, strrpos($n,":")+1);')"
fi
mkdir -p "$HERE/var"
DATA="$(mktemp -d "$HERE/var/run.XXXXXX")"
export BP_DB="$DATA/platform.db"
export BP_SALT="$(php -r 'echo bin2hex(random_bytes(24));')"
SEED="$(php "$HERE/server/seed.php")"
SRV_PID=""
cleanup() {
  if [ -n "$SRV_PID" ]; then
    pkill -TERM -P "$SRV_PID" 2>/dev/null || true
    kill -TERM "$SRV_PID" 2>/dev/null || true
    wait "$SRV_PID" 2>/dev/null || true
  fi
  rm -rf "$DATA"
}
trap 'cleanup; exit 0' TERM INT HUP
trap cleanup EXIT
PHP_CLI_SERVER_WORKERS=4 php -d expose_php=0 -d variables_order=EGPCS -d post_max_size=0 -d enable_post_data_reading=0 \
  -S "127.0.0.1:$PORT" "$HERE/server/router.php" 1>&2 &
SRV_PID=$!
for i in $(seq 1 100); do
  if php -r '$c=@fsockopen("127.0.0.1", (int)$argv[1], $e, $s, 0.2); exit($c ? 0 : 1);' "$PORT"; then break; fi
  sleep 0.1
done
if ! kill -0 "$SRV_PID" 2>/dev/null; then echo "server failed to start on port $PORT" >&2; exit 1; fi
php -r '$s=json_decode($argv[2], true); echo json_encode(["baseUrl"=>"http://127.0.0.1:".$argv[1], "token"=>$s["tokens"]["admin"], "tokens"=>$s["tokens"], "fixtures"=>$s["fixtures"]], JSON_UNESCAPED_SLASHES), "\n";' "$PORT" "$SEED"
wait "$SRV_PID"
