# The batch driver of the shell differential test, run by bash as the command of one
# bubblewrap sandbox (see sandbox.rs). Arguments: the scratch directory, the timeout of one
# command in seconds. It reads the command lines from SCRATCH/lines (each ended by a NUL) and,
# for line I, runs `bash -c LINE` in SCRATCH/work/I with stdin from /dev/null, waits until
# every process it left is gone (killing them after the timeout), and appends
# "I STATUS RUNS" to SCRATCH/results, where RUNS is the number of lines the rm stand-in
# appended to SCRATCH/log meanwhile. Only builtins run between two commands, besides
# `timeout`, so the loop costs two exec calls a command.
set -u
S=$1
T=$2
log=$S/log
exec 9<>"$S/sleep"          # a FIFO nobody writes: `read -t` on it sleeps without a fork
exec 8>>"$S/results"

# Waits until no process but pid 1 (bubblewrap's init) and this shell is left in the sandbox's
# pid namespace; kills what is left once $T seconds have gone by.
reap() {
  local rounds=0 p alive
  while :; do
    alive=()
    for p in /proc/[0-9]*; do
      p=${p#/proc/}
      [[ $p == 1 || $p == "$$" ]] || alive+=("$p")
    done
    ((${#alive[@]} == 0)) && return 0
    if ((rounds >= T * 50)); then
      kill -KILL "${alive[@]}" 2>/dev/null
    fi
    rounds=$((rounds + 1))
    read -r -t 0.02 -u 9 _
  done
}

i=0
while IFS= read -r -d '' line; do
  w=$S/work/$i
  (cd "$w" && HOME=$w TMPDIR=$w exec timeout -s KILL "$T" bash -c "$line" 8>&- 9<&-) \
    </dev/null >/dev/null 2>&1
  status=$?
  reap
  runs=()
  [[ -s $log ]] && mapfile -t runs <"$log"
  : >"$log"
  printf '%d %d %d\n' "$i" "$status" "${#runs[@]}" >&8
  i=$((i + 1))
done <"$S/lines"
