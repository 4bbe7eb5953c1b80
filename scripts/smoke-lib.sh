# Shared by the smoke scripts (sourced, not run): timestamped messages, background processes
# stopped at exit (unless KEEP_RUNNING=1), a free loopback port, waiting for a URL, and installing
# npm packages into a client folder without their install scripts.
# Before sourcing, set SMOKE_NAME (the message prefix).
T0=$(date +%s)
say() { printf '[%s %4ss] %s\n' "$SMOKE_NAME" "$(( $(date +%s) - T0 ))" "$*"; }

PIDS=()
cleanup() {
  if [ "${KEEP_RUNNING:-0}" != 1 ]; then
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  fi
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
wait_for() { # url, seconds
  for _ in $(seq 1 "$2"); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 1; done
  return 1
}

install_clients() { # folder, log file, packages…
  local dir="$1" log="$2"; shift 2
  say "installing $*"
  mkdir -p "$dir"
  (cd "$dir" && npm install --prefix "$dir" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error "$@" >"$log" 2>&1) \
    || { tail -20 "$log"; exit 1; }
}
