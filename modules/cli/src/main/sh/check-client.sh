# Sourced by ./lab: the client of the check server (io.looplab.cli.server.CheckServer), in bash alone, so that a
# warm check costs no JVM start of its own. Needs: here (the kit), java_bin, cli_jar, cli_cp (the CLI's class path
# file). Sets server_rc. The server listens on 127.0.0.1; its port and secret are in target/lab/server (mode 600).

server_file="$here/target/lab/server"

# A check server started by an older build runs old machinery: a rebuild stops it (the next check starts a new one).
stop_server() {
  local port secret rest
  [ -f "$server_file" ] && read -r port secret rest <"$server_file" 2>/dev/null || return 0
  { exec 4<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 0
  printf '%s\nstop\n' "$secret" >&4
  exec 4>&-
}

# `lab check ID` through the check server (modules/cli/.../server/CheckServer.java), which keeps the compiler warm
# and the next grading JVM started: the answer comes in a fraction of the time. Starts the server when none answers.
# Returns 1 to run the check here instead. LOOPLAB_NO_SERVER=1 never uses it.
check_with_server() {
  local id="$1" port secret rest i
  if ! { [ -f "$server_file" ] && connect_to_server; }; then
    mkdir -p "$here/target/lab"
    rm -f "$server_file"
    nohup "$java_bin" -Dlooplab.home="$here" -cp "$cli_jar:$(cat "$cli_cp")" io.looplab.cli.server.CheckServer \
      >"$here/target/lab/server.log" 2>&1 </dev/null &
    for i in $(seq 1 100); do
      [ -f "$server_file" ] && break
      sleep 0.1
    done
    [ -f "$server_file" ] && connect_to_server || return 1
  fi
  ask_server check "$id"
  [ -n "$server_rc" ] || { echo "lab: the check server stopped during the check; checking without it" >&2; return 1; }
  return 0
}

# `lab help`, `list`, `hint`, `solution`, `version` and `reset --yes` through a check server that is up already:
# answered in milliseconds instead of a JVM's start. It never starts one for them (a start costs more than it
# saves). Returns 1 to run the command here instead, as when the server takes no such request.
quick_with_server() {
  local port secret rest a
  [ -f "$server_file" ] || return 1
  for a in "$@"; do
    case "$a" in *$'\n'*) return 1 ;; esac
  done
  connect_to_server || return 1
  ask_server run "$#" "$@"
  [ -n "$server_rc" ]
}

# Reads the server file into port and secret (the caller's locals) and opens the connection as descriptor 3.
connect_to_server() {
  read -r port secret rest <"$server_file" 2>/dev/null && { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null
}

# Sends a request (the lines after the secret) on descriptor 3 with what this terminal is, and copies the answer
# to it. Sets server_rc to the command's exit status, or to nothing when the server gave none.
ask_server() {
  local nonce rc_file err_file tty colour screen columns stty_size copier
  nonce="$$-$RANDOM"
  rc_file="$here/target/lab/server-$nonce.rc"
  err_file="$here/target/lab/server-$nonce.err"
  tty=0; [ -t 1 ] && [ -z "${CI:-}" ] && tty=1
  colour=$tty; [ -n "${NO_COLOR:-}" ] && colour=0
  # The server has no terminal: it lays the answer out for ours, from the answers its TerminalWidth decides on
  # (stty answers at once on a terminal, so it needs no time limit here).
  screen=0; columns=""; stty_size=""
  if [ -t 1 ]; then
    screen=1; columns="${COLUMNS:-}"; stty_size="$(stty size </dev/tty 2>/dev/null || true)"
  fi
  printf '%s\n' "$secret" "$@" "$tty" "$colour" "$rc_file" "$err_file" "$screen" "$columns" "$stty_size" >&3
  # cat runs in the background so that a signal interrupts `wait` at once (bash would run the trap only after a
  # foreground cat ends); closing the socket tells the server to stop the grading.
  cat <&3 &
  copier=$!
  trap 'kill "$copier" 2>/dev/null; exec 3>&-; rm -f "$rc_file" "$err_file"; exit 130' INT TERM
  wait "$copier"
  exec 3>&-
  trap - INT TERM
  server_rc=""
  if [ -f "$rc_file" ]; then
    read -r server_rc <"$rc_file"
    [ -f "$err_file" ] && cat "$err_file" >&2
  fi
  rm -f "$rc_file" "$err_file"
}
