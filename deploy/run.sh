#!/usr/bin/env bash
# deploy/run.sh N [PORT]: N replicas of the app behind nginx, for a lecture hall.
#
# Starts `streamlit run app.py` N times, each on 127.0.0.1 only (ports 8601, 8602, ...), waits
# until every one answers /_stcore/health, then runs nginx on PORT (default 8080) in front of
# them with sticky sessions and websockets (deploy/nginx.conf.template says how and why), and
# prints the address to open. Ctrl-C or SIGTERM stops all of them. No root needed: nginx gets
# its own prefix, config, pid file, logs and temp folders in the run folder.
#
# Environment (all optional):
#   TOKEX_CACHE_DIR     trained tokenizers on disk, shared by every replica
#                       (default ~/.cache/tokenization-explorer, as for one server)
#   TOKEX_RUN_DIR       run folder: nginx.conf, pid files, logs (default: a new folder in /tmp)
#   TOKEX_REPLICA_PORT  the first replica's port; the others follow it (default 8601)
#   TOKEX_LISTEN        nginx's address (default: every interface; 127.0.0.1 for this machine)
#   TOKEX_NGINX         the nginx binary (default: nginx on PATH, else /usr/sbin/nginx)
#   PYTHON              a Python with requirements.txt installed (default: the active venv,
#                       else ./.venv, else python3)
#   TOKEX_APP           the Streamlit script the replicas run (default app.py; the load
#                       benchmark runs its bare one-text-area app behind the same nginx)
#
# Leaves out: restarting a replica that dies (its students reload and land on the others),
# TLS, and more than one machine.
set -euo pipefail

START_TIMEOUT_S=180
STOP_GRACE_S=10
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")

usage() {
  echo "usage: deploy/run.sh N [PORT]   N replicas (1-32) behind nginx on PORT (default 8080)" >&2
  exit 2
}
die() { echo "run.sh: $*" >&2; exit 1; }

# `wait -n -p` (which process ended) is bash 5.1; Debian 12 has 5.2.
((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 501)) || die "needs bash 5.1 or newer"
[[ $# -ge 1 && $# -le 2 ]] || usage
REPLICAS=$1
PORT=${2:-8080}
[[ $REPLICAS =~ ^[0-9]+$ ]] && ((REPLICAS >= 1 && REPLICAS <= 32)) || usage
[[ $PORT =~ ^[0-9]+$ ]] && ((PORT >= 1 && PORT <= 65535)) || usage
FIRST_PORT=${TOKEX_REPLICA_PORT:-8601}
[[ $FIRST_PORT =~ ^[0-9]+$ ]] && ((FIRST_PORT >= 1 && FIRST_PORT + REPLICAS - 1 <= 65535)) ||
  die "TOKEX_REPLICA_PORT=$FIRST_PORT: the $REPLICAS replica ports must lie within 1-65535"
LISTEN=${TOKEX_LISTEN:+$TOKEX_LISTEN:}$PORT

# --- what we run -------------------------------------------------------------------------------

if [[ -z ${PYTHON:-} ]]; then
  if [[ -n ${VIRTUAL_ENV:-} ]]; then PYTHON=$VIRTUAL_ENV/bin/python
  elif [[ -x $REPO/.venv/bin/python ]]; then PYTHON=$REPO/.venv/bin/python
  else PYTHON=python3
  fi
fi
# Where Streamlit keeps its frontend bundle: nginx serves /static/ from there.
STREAMLIT_STATIC=$("$PYTHON" -c \
  'import pathlib, streamlit; print(pathlib.Path(streamlit.__file__).parent / "static")') ||
  die "$PYTHON cannot import streamlit: pip install -r requirements.txt (or set PYTHON)"

NGINX_BIN=${TOKEX_NGINX:-$(command -v nginx || true)}
# subtle: Debian puts nginx in /usr/sbin, which is not on a normal user's PATH.
NGINX_BIN=${NGINX_BIN:-/usr/sbin/nginx}
[[ -x $NGINX_BIN ]] || die "nginx not found (apt-get install nginx, or set TOKEX_NGINX=/path/to/nginx)"

# One folder for every replica's trained tokenizers: the first to train one writes it, the
# others (and the next start) read it. tokenizer_core/store.py makes concurrent writes safe.
export TOKEX_CACHE_DIR=${TOKEX_CACHE_DIR:-$HOME/.cache/tokenization-explorer}
if [[ ${TOKEX_CACHE_DIR,,} != off ]]; then mkdir -p "$TOKEX_CACHE_DIR"; fi

RUN_DIR=${TOKEX_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tokex-deploy.XXXXXX")}
mkdir -p "$RUN_DIR/logs" "$RUN_DIR/tmp"
RUN_DIR=$(cd "$RUN_DIR" && pwd)

# --- health --------------------------------------------------------------------------------------

# http_status PORT PATH: the status line of GET http://127.0.0.1:PORT/PATH, or nothing.
# Bash's /dev/tcp, so no curl is needed; the subshell keeps a refused connection quiet.
http_status() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1"
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
    IFS= read -r -t 5 line <&3 && printf '%s\n' "${line%$'\r'}"
  ) 2>/dev/null || true
}
healthy() { [[ $(http_status "$1" /_stcore/health) == "HTTP/1."?" 200"* ]]; }
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
running() { jobs -rp | grep -qx "$1"; }

# --- start and stop ------------------------------------------------------------------------------

pids=()       # every process we started (each leads its own process group)
names=()      # what each one is, for messages

# spawn CMD...: start CMD in the background as the leader of a new process group (setsid), so
# stopping it also stops whatever it started, and Ctrl-C in the terminal reaches this script
# only, which then stops everything in order. subtle: a background child of a script is never
# a group leader, so setsid does not fork and $! is CMD's own pid.
spawn() { setsid "$@" </dev/null & }

stop() {
  trap - INT TERM EXIT
  ((${#pids[@]})) || return 0
  echo "run.sh: stopping ${#pids[@]} processes ..." >&2
  local pid deadline=$((SECONDS + STOP_GRACE_S))
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  while [[ -n $(jobs -rp) ]] && ((SECONDS < deadline)); do sleep 0.1; done
  # Whatever has not stopped by now is killed, with anything left in its process group.
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "run.sh: stopped; logs are in $RUN_DIR/logs" >&2
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for ((i = 0; i < REPLICAS; i++)); do
  port_taken $((FIRST_PORT + i)) && die "port $((FIRST_PORT + i)) is in use (set TOKEX_REPLICA_PORT)"
done
port_taken "$PORT" && die "port $PORT is in use (give another: deploy/run.sh $REPLICAS PORT)"

cd "$REPO"  # Streamlit reads .streamlit/config.toml from the folder it starts in
for ((i = 0; i < REPLICAS; i++)); do
  port=$((FIRST_PORT + i))
  # Loopback only: students reach a replica through nginx, never directly. No file watcher:
  # nobody edits the code during a lecture, and N watchers would cost CPU for nothing.
  PYTHONUNBUFFERED=1 spawn "$PYTHON" -m streamlit run "${TOKEX_APP:-app.py}" \
    --server.port "$port" --server.address 127.0.0.1 --server.headless true \
    --server.fileWatcherType none >"$RUN_DIR/logs/replica-$port.log" 2>&1
  pids+=($!)
  names+=("replica on port $port")
  echo $! >"$RUN_DIR/replica-$port.pid"
done

echo "run.sh: starting $REPLICAS replica(s) on ports $FIRST_PORT-$((FIRST_PORT + REPLICAS - 1)) ..." >&2
deadline=$((SECONDS + START_TIMEOUT_S))
for ((i = 0; i < REPLICAS; i++)); do
  port=$((FIRST_PORT + i))
  until healthy "$port"; do
    running "${pids[i]}" || die "the replica on port $port exited; see $RUN_DIR/logs/replica-$port.log"
    ((SECONDS < deadline)) ||
      die "the replica on port $port is not healthy after ${START_TIMEOUT_S} s; see its log"
    sleep 0.2
  done
done

# The nginx config, from the template: paths, the listen address and one line per replica.
servers=""
for ((i = 0; i < REPLICAS; i++)); do
  servers+="        server 127.0.0.1:$((FIRST_PORT + i)) max_fails=0;"$'\n'
done
user_line=""
if ((EUID == 0)); then
  # As root, nginx's workers would drop to `nobody`, who may not read this checkout's venv:
  # run them as the checkout's owner instead, and let that user write the temp folders.
  owner=$(stat -c %U "$REPO")
  user_line="user $owner;"
  chown -R "$owner" "$RUN_DIR"
fi
template=$(<"$HERE/nginx.conf.template")
template=${template//@RUN_DIR@/"$RUN_DIR"}
template=${template//@LISTEN@/"$LISTEN"}
template=${template//@STREAMLIT_STATIC@/"$STREAMLIT_STATIC"}
template=${template//@SERVERS@/"${servers%$'\n'}"}
printf '%s\n%s\n' "$user_line" "$template" >"$RUN_DIR/nginx.conf"

nginx_args=(-p "$RUN_DIR" -c "$RUN_DIR/nginx.conf" -e "$RUN_DIR/logs/nginx-error.log")
# subtle: nginx reads $NGINX as listening sockets inherited from an old nginx (binary upgrade).
unset NGINX
"$NGINX_BIN" -t -q "${nginx_args[@]}" || die "nginx rejected $RUN_DIR/nginx.conf (see above)"
spawn "$NGINX_BIN" "${nginx_args[@]}"
pids+=($!)
names+=("nginx")
until healthy "$PORT"; do
  running "${pids[-1]}" || die "nginx exited; see $RUN_DIR/logs/nginx-error.log"
  ((SECONDS < deadline)) || die "nginx does not answer on port $PORT"
  sleep 0.1
done

cat <<EOF
run.sh: $REPLICAS replica(s) behind nginx; run folder $RUN_DIR
run.sh: students open http://<this machine's address>:$PORT/ (hostname -I shows it)
ready: http://${TOKEX_LISTEN:-127.0.0.1}:$PORT/
EOF

# Watch: a replica that dies is reported (nginx sends its browsers to the others); when nginx
# or the last replica goes, everything stops.
watched=("${pids[@]}")
live=$REPLICAS
while true; do
  gone="" status=0
  wait -n -p gone "${watched[@]}" || status=$?
  [[ -n $gone ]] || continue
  for ((i = 0; i < ${#pids[@]}; i++)); do
    [[ ${pids[i]} == "$gone" ]] || continue
    echo "run.sh: the ${names[i]} stopped (exit status $status)" >&2
    [[ ${names[i]} == nginx ]] && exit 1
    ((--live > 0)) || die "no replica is left"
  done
  # subtle: a pid that was reaped must leave the list, or `wait -n` fails at once, forever.
  keep=()
  for pid in "${watched[@]}"; do [[ $pid == "$gone" ]] || keep+=("$pid"); done
  watched=("${keep[@]}")
done
