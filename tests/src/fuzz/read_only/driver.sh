# The batch driver of the read-only differential test, run by bash under strace as the command
# of one bubblewrap sandbox (see sandbox.rs). Arguments: the scratch directory, the timeout of
# one command line in seconds. It reads the command lines from SCRATCH/lines (each ended by a
# NUL) and runs each as `bash -c LINE` in SCRATCH/tree with standard input from /dev/null,
# then waits until every process the line left is gone.
#
# strace records what every process does; the driver marks where each line starts and ends by
# opening paths that do not exist: `/.toolreg-mark/BI` before line I, `/.toolreg-mark/EI.STATUS.MICROS`
# after it (STATUS: its exit status, 137 when the watchdog killed it; MICROS: how long it took), and once
# `/.toolreg-mark/WPID` with the watchdog's pid, so that the parser can leave out the driver's
# own calls and the watchdog's.
#
# A watchdog (one background subshell for the whole batch) stops, then kills, every process of
# a line that has run for the timeout, leftovers included. Each line is a job of its own
# (`set -m`), so `kill 0` in a line reaches only the line.
set -u -m
S=$1
T=$2
SIGNALS=(HUP INT QUIT USR1 USR2 PIPE ALRM TERM)
trap : "${SIGNALS[@]}"
exec 9<>"$S/sleep"          # a FIFO nobody writes: `read -t` on it sleeps without a fork

# The processes of the sandbox's pid namespace but bubblewrap's init, strace, this shell and
# the watchdog, into the array `others`.
others() {
  local p
  others=()
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [[ $p == 1 || $p == "$PPID" || $p == "$$" || $p == "${watchdog:-}" || $p == "$BASHPID" ]] \
      || others+=("$p")
  done
}

watch() {
  local line start now prev
  trap : "${SIGNALS[@]}"
  while :; do
    read -r -t 0.25 -u 9 _
    read -r line start <"$S/current" 2>/dev/null || continue
    now=${EPOCHREALTIME/./}
    if ((now - start >= T * 1000000)); then
      prev=
      while others; ((${#others[@]})) && [[ ${others[*]} != "$prev" ]]; do
        kill -STOP "${others[@]}" 2>/dev/null
        prev=${others[*]}
      done
      ((${#others[@]})) && kill -KILL "${others[@]}" 2>/dev/null
    fi
  done
}

watch &
watchdog=$!
: 2>/dev/null <"/.toolreg-mark/W$watchdog"
cd "$S/tree" || exit 1
i=0
while IFS= read -r -d '' line; do
  start=${EPOCHREALTIME/./}
  printf '%d %s\n' "$i" "$start" >"$S/current"
  : 2>/dev/null <"/.toolreg-mark/B$i"
  (exec bash -c "$line" 9<&-) </dev/null >/dev/null 2>&1 &
  job=$!
  # `wait` returns early when a trapped signal arrives; the line may still run.
  while wait "$job"; status=$?; ((status > 128)) && kill -0 "$job" 2>/dev/null; do :; done
  while others; ((${#others[@]})); do
    read -r -t 0.01 -u 9 _
  done
  : 2>/dev/null <"/.toolreg-mark/E$i.$status.$((${EPOCHREALTIME/./} - start))"
  : >"$S/current"
  i=$((i + 1))
done <"$S/lines"
kill -KILL "$watchdog"
