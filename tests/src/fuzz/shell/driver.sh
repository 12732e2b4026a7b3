# The batch driver of the shell differential test, run by bash as the command of one
# bubblewrap sandbox (see sandbox.rs). Arguments: the scratch directory, the timeout of one
# command in seconds. It reads the command lines from SCRATCH/lines (each ended by a NUL) and,
# for line I, runs `bash -c LINE` in SCRATCH/work/I with stdin from /dev/null, waits until
# every process it left is gone, and appends "I STATUS RUNS" to SCRATCH/results, where RUNS is
# the number of lines the rm stand-in appended to SCRATCH/log meanwhile.
#
# A watchdog (one background subshell for the whole batch) stops, then kills, every process of
# a line that has run for the timeout, leftovers included; a line killed so exits 137. Between
# two lines only builtins run, so a line costs one fork and one exec besides its own processes.
#
# Each line is a job of its own (`set -m`: its own process group), so `kill 0` in a line
# reaches only the line; the driver and the watchdog catch the signals a line may send them
# with `kill -1` (catching, unlike ignoring, is not inherited: lines start with the default
# dispositions).
set -u -m
S=$1
T=$2
SIGNALS=(HUP INT QUIT USR1 USR2 PIPE ALRM TERM)
trap : "${SIGNALS[@]}"
log=$S/log
exec 9<>"$S/sleep"          # a FIFO nobody writes: `read -t` on it sleeps without a fork
exec 8>>"$S/results"

# The processes of the sandbox's pid namespace but pid 1 (bubblewrap's init), this shell and
# the watchdog, into the array `others`.
others() {
  local p
  others=()
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [[ $p == 1 || $p == "$$" || $p == "${watchdog:-}" || $p == "$BASHPID" ]] || others+=("$p")
  done
}

# Every quarter second: when the line named in SCRATCH/current started $T seconds ago or more,
# kills every other process.
watch() {
  local line start now prev
  trap : "${SIGNALS[@]}"
  while :; do
    read -r -t 0.25 -u 9 _
    read -r line start <"$S/current" 2>/dev/null || continue
    now=${EPOCHREALTIME/./}
    if ((now - start >= T * 1000000)); then
      # Stop first, then kill: a stopped process cannot fork, so a line that forks without end
      # (a fork bomb) is held still pass by pass until a pass finds no new process.
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

i=0
while IFS= read -r -d '' line; do
  w=$S/work/$i
  printf '%d %s\n' "$i" "${EPOCHREALTIME/./}" >"$S/current"
  (cd "$w" && HOME=$w TMPDIR=$w exec bash -c "$line" 8>&- 9<&-) </dev/null >/dev/null 2>&1 &
  job=$!
  # `wait` returns early when a trapped signal arrives; the line may still run.
  while wait "$job"; status=$?; ((status > 128)) && kill -0 "$job" 2>/dev/null; do :; done
  # Leftovers (background jobs, `setsid -f`) may still run the stand-in: wait for them.
  while others; ((${#others[@]})); do
    read -r -t 0.01 -u 9 _
  done
  : >"$S/current"
  runs=()
  [[ -s $log ]] && mapfile -t runs <"$log"
  : >"$log"
  printf '%d %d %d\n' "$i" "$status" "${#runs[@]}" >&8
  i=$((i + 1))
done <"$S/lines"
kill -KILL "$watchdog"
