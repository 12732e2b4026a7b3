//! The words and templates the grammar ([`super::grammar`]) glues together.
//!
//! In templates, `{}` is a nested list (or `rm` command) quoted as one word, `{raw}` the same
//! text unquoted, `{sub}` the quoted text `$(LIST)`, `{file}` a fresh file name, and `CMD` a
//! simple command.

/// `rm` as a command word. All run the stand-in when the working directory holds only the
/// seed files (`r?` expands to the file named `rm`, then runs `rm` from `PATH`).
#[rustfmt::skip]
pub const RM_SPELLINGS: &[&str] = &[
    "rm", "rm", "rm", "'rm'", "\"rm\"", "\\rm", "r\\m", "r''m", "r\"\"m", "'r'm", "\\r\\m",
    "r\\\nm", "/bin/rm", "/usr/bin/rm", "/usr//bin/rm", "/usr/bin/../bin/rm", "//bin/rm",
    "$'rm'", "$'\\x72m'", "$'\\162m'", "$\"rm\"", "r$@m", "r${u}m", "r$(:)m", "r`:`m",
    "{rm,}", "r?", "r[m]", "r*", "$(echo rm)", "`echo rm`", "\"$(printf rm)\"", "${u:-rm}",
    "${u-rm}",
];

/// Arguments of `rm`.
pub const RM_ARGS: &[&str] = &[
    "t", "t", "-f t", "-rf u", "-- t", "", "t u", "\"t\"", "-i t",
];

/// Wrappers: a program and the words that run the command after them. `time`, `command`,
/// `exec` are bash's own.
#[rustfmt::skip]
pub const WRAPPERS: &[(&str, &[&str])] = &[
    ("setsid", &["setsid", "setsid -f", "setsid -w", "setsid --fork"]),
    ("stdbuf", &["stdbuf -o0", "stdbuf -oL", "stdbuf -i0 -o0 -e0", "stdbuf --output=0"]),
    ("ionice", &["ionice -c3", "ionice -c 3", "ionice -c2 -n7", "ionice"]),
    ("taskset", &["taskset 1", "taskset -c 0", "taskset 0x1"]),
    ("chrt", &["chrt -o 0", "chrt --other 0", "chrt -b 0", "chrt -i 0"]),
    ("flock", &["flock f", "flock -n f", "flock -x f", "flock -w 1 f"]),
    ("unshare", &["unshare -r", "unshare -U", "unshare --user", "unshare -r --"]),
    ("runuser", &["runuser -u root --", "runuser -u root"]),
    ("nice", &["nice", "nice -n 5", "nice -5", "nice --adjustment=5", "nice -n5"]),
    ("nohup", &["nohup"]),
    ("timeout", &["timeout 5", "timeout -s KILL 5", "timeout -k 1 5", "timeout --foreground 5", "timeout 5s"]),
    ("env", &["env", "env -i", "env A=1", "env -u A", "env --", "env -i PATH=/usr/bin", "env -C ."]),
    ("time", &["time", "time -p"]),
    ("command", &["command", "command -p", "command --"]),
    ("exec", &["exec", "exec -a x", "exec -c", "exec --"]),
    ("prlimit", &["prlimit --nofile=64", "prlimit"]),
    ("chroot", &["chroot /"]),
    ("sudo", &["sudo", "sudo -u root", "sudo --"]),
    ("busybox", &["busybox"]),
    ("doas", &["doas"]),
];

/// Wrappers generated only when installed.
pub const OPTIONAL: &[&str] = &["sudo", "busybox", "doas"];

/// Commands that run a nested list, `{}` the list quoted as one word.
#[rustfmt::skip]
pub const NESTERS: &[&str] = &[
    "bash -c {}", "sh -c {}", "dash -c {}", "rbash -c {}", "bash -ec {}", "bash --norc -c {}",
    "bash -c {} x", "sh -c -- {}", "bash -lc {}", "bash -o posix -c {}", "eval {}",
    "builtin eval {}", "command eval {}", "su -c {}", "su root -c {}",
    "script -qc {} /dev/null", "script -q -c {} /dev/null", "flock f -c {}",
];

/// A variable set to (part of) `rm`, and its expansions that make `rm` the command word.
#[rustfmt::skip]
pub const VARIABLES: &[(&str, &[&str])] = &[
    ("R=rm", &["$R", "${R}", "\"$R\"", "\"${R}\""]),
    ("R='rm'", &["$R", "${R}"]),
    ("declare R=rm", &["$R", "\"$R\""]),
    ("export R=rm", &["$R", "env \"$R\""]),
    ("readonly R=rm", &["$R"]),
    ("typeset R=rm", &["$R"]),
    ("read R <<< rm", &["$R", "${R}"]),
    ("IFS=: read -r R _ <<< rm:x", &["$R"]),
    ("printf -v R rm", &["$R", "\"$R\""]),
    ("printf -v R %s rm", &["$R"]),
    ("R=(rm)", &["${R[@]}", "\"${R[0]}\"", "${R}", "$R"]),
    ("set -- rm", &["$1", "\"$@\"", "${1}", "$*"]),
    ("mapfile -t R <<< rm", &["${R[0]}", "$R"]),
    ("declare -n R=S; S=rm", &["$R", "${R}"]),
    ("declare -A A=([k]=rm)", &["${A[k]}"]),
    ("R=r", &["${R}m", "$R'm'", "\"$R\"m"]),
    ("R=m", &["r$R", "r${R}"]),
    ("R=RM", &["${R,,}"]),
    ("R=xrm", &["${R#x}", "${R:1}"]),
    ("R=rmx", &["${R%x}", "${R::2}"]),
    ("R=r_m", &["${R/_/}", "${R//_}"]),
    ("R=rm; S=R", &["${!S}"]),
    ("R=$(echo rm)", &["$R"]),
    ("R=`echo rm`", &["$R"]),
    ("R='rm t'", &["$R"]),
];

/// Separators after a statement whose effect a later one uses (same shell, in order).
pub const SEPARATORS_AFTER_SETUP: &[&str] = &["; ", " && ", "\n", ";"];

/// Separators between statements of a list.
pub const SEPARATORS: &[&str] = &[
    "; ", "; ", " && ", " || ", "\n", " & ", " | ", " |& ", ";", " ;\n",
];

/// Endings of a whole line.
pub const TRAILERS: &[&str] = &[" # done", " &", ";", " 2>/dev/null", "\n"];

/// Assignments before a command.
pub const ASSIGNMENTS: &[&str] = &[
    "A=1",
    "PATH=$PATH",
    "IFS=x",
    "LC_ALL=C",
    "A=\"a b\"",
    "BASH_ENV=/dev/null",
    "A=$(echo)",
];

/// Redirections.
pub const REDIRECTIONS: &[&str] = &[
    ">/dev/null",
    "2>&1",
    "<f",
    ">o",
    "2>e",
    "&>o",
    ">>o",
    "<<<x",
    ">|o",
    "1>&2",
    "0<f",
    "<>f",
];

/// Compound commands around a list `{}`.
#[rustfmt::skip]
pub const COMPOUNDS: &[&str] = &[
    "( {} )", "({})", "{ {}; }", "{ {}\n}", "if true; then {}; fi", "if {}; then :; fi",
    "if false; then :; else {}; fi", "if false; then :; elif true; then {}; fi",
    "while true; do {}; break; done", "until false; do {}; break; done",
    "while {}; do break; done", "for i in 1; do {}; done", "for ((i=0;i<1;i++)); do {}; done",
    "case x in x) {};; esac", "case x in (x) {} ;; esac", "select i in 1; do {}; break; done",
    "f() { {}; }; f", "f() ( {} ); f", "function f { {}; }; f", "function f() { {}; }\nf",
    "! {}", "time {}", "time { {}; }", "coproc { {}; }", "coproc c { {}; }", "[[ -e t ]] && {}",
    "true && {}", "false || {}", "echo $( {} )", "echo \"$({})\"", ": <({})", "cat <({})",
    "echo >({})",
];

/// Text a variable `X` holds `a[$(LIST)]`: where bash evaluates it as an arithmetic
/// expression or subscript.
#[rustfmt::skip]
pub const ARITH_TRIGGERS: &[&str] = &[
    "(( X ))", "((X))", "(( y = X ))", "echo $((X))", ": $(( X + 1 ))", "echo $[X]", "let X",
    "let y=X", "let 'y = X'", "declare -i y=X", "declare -i y; y=X", "typeset -i y=X",
    "declare -i y; y+=X", "[[ X -eq 0 ]]", "[[ $X -lt 1 ]]", "[[ -v $X ]]", "echo ${a[X]}",
    "y=${a[X]}", "echo ${z:X}", "z=abc; echo ${z:0:X}", "echo ${@:X}",
    "for ((i=X; i<0; )); do :; done", "printf -v \"$X\" %s 1", "read \"$X\" <<< 1",
    "test -v \"$X\"", "[ -v \"$X\" ]", "echo ${!X}", "y=${!X}", "echo ${#a[X]}", "a[X]=1",
    "echo $(( $X ))", "unset \"$X\"", "shift $((X))",
];

/// Where bash expands a variable `X` holding `$(LIST)` once more.
pub const PROMPT_TRIGGERS: &[&str] = &[
    "echo ${X@P}",
    ": \"${X@P}\"",
    "y=${X@P}",
    "printf %s \"${X@P}\"",
    "echo ${X@P}x",
];

/// Statements of only `echo` and assignments where bash evaluates a variable `X` holding
/// `a[$(LIST)]`: an allow rule for `echo` may allow them.
#[rustfmt::skip]
pub const ECHO_ARITH_TRIGGERS: &[&str] = &[
    "echo ${a[X]}", "echo \"${a[X]}\"", "echo ${z:X}", "z=abc; echo ${z:0:X}", "echo ${!X}",
    "echo ${#a[X]}", "echo ${@:X}", "y=${a[X]}; echo hi", "y=${!X}; echo hi", "echo $((X))",
    "y=${z:X} echo hi",
];

/// The same for `X` holding `$(LIST)`.
pub const ECHO_PROMPT_TRIGGERS: &[&str] = &[
    "echo ${X@P}",
    "echo \"${X@P}\"",
    "y=${X@P}; echo hi",
    "echo ${X@P}x",
    "echo hi ${X@P}",
];

/// Ways to set `X` to the quoted value `{}`.
#[rustfmt::skip]
pub const SETTERS: &[&str] = &[
    "X={}", "X={}", "declare X={}", "export X={}", "readonly X={}", "typeset X={}",
    "read -r X <<< {}", "IFS= read -r X <<< {}", "printf -v X %s {}", "X=({})", "declare -g X={}",
];

/// Builtins given the evaluated text `{}` (`a[$(LIST)]` or `$(LIST)`) in place.
#[rustfmt::skip]
pub const IN_PLACE: &[&str] = &[
    "let {}", "declare -i y={}", "printf -v {} %s 1", "read {} <<< 1", "test -v {}",
    "[ -v {} ]", "[[ -v {} ]]", "unset {}", "declare {}", "export y={}; let y",
];

/// Builtins and contexts that run text: `{}` the quoted list, `{raw}` the list itself, `{sub}`
/// the quoted `$(LIST)`, `{file}` a file name used nowhere else in the line (a script that
/// wrote and ran a file of the same name would run itself forever). `BASH_ENV` is unset by
/// the file it names, or every bash the file starts would read it again.
#[rustfmt::skip]
pub const TEXT_RUNNERS: &[&str] = &[
    "trap {} EXIT", "trap {} EXIT; :", "trap {} DEBUG; :", "trap {} ERR; false",
    "trap {} USR1; kill -USR1 $$", "trap -- {} EXIT", "trap {} RETURN; f() { :; }; f",
    "PS4={sub}; set -x; :", "PS4={sub}\nset -o xtrace\n:", "PS4={sub} bash -xc :",
    "set -x; PS4={sub}; :", "mapfile -C {} -c 1 a <<< x", "readarray -C {} -c 1 a <<< x",
    "hash -p /usr/bin/rm ls; ls t", "hash -p /bin/rm cat; cat t", "hash -p /usr/bin/rm ls\nls t",
    "shopt -s expand_aliases\nalias x={}\nx", "shopt -s expand_aliases; alias x={}\nx",
    "alias x={}; x", "echo {} > {file}; . ./{file}", "echo {} > {file}; source ./{file}",
    "echo {} > {file}; source {file}",
    "printf '%s\\n' {} > {file}; bash {file}", "echo {} > {file}; sh {file}",
    "echo {} > {file}; bash < {file}",
    "echo {} | bash", "echo {} | sh", "bash <<< {}", "source /dev/stdin <<< {}",
    ". <(echo {})", "bash <(echo {})", "printf '%s\\n' 'unset BASH_ENV' {} > {file}; BASH_ENV=./{file} bash -c :",
    "echo {} > .bashrc; bash -ic :", "echo {} > {file}; ENV=./{file} sh -i -c :",
    "printf '#!/bin/sh\\n%s\\n' {} > {file}; chmod +x {file}; ./{file}", "bash -s <<< {}",
    "cat <<'E' | bash\n{raw}\nE", "bash <<E\n{raw}\nE", "compgen -C {} x", "compgen -W {sub} x",
    "bind -x '\"\\C-x\": rm t' 2>/dev/null", "coproc eval {}", "command eval {}",
    "builtin eval {}", "exec bash -c {}", "enable eval; eval {}", "enable -n echo; eval {}",
    "rm() { :; }; command rm t", "f() { {raw}\n}; f", "eval {}", "eval \"$(echo {})\"",
    "X={}; eval \"$X\"", "X={}; $X", "X={}; bash -c \"$X\"", "X={}; sh -c \"$X\"",
];

/// Pipelines feeding a simple command `CMD`.
#[rustfmt::skip]
pub const PIPELINES: &[&str] = &[
    "echo t | xargs CMD", "echo t | xargs -n1 CMD", "printf 't\\0' | xargs -0 CMD",
    "echo t | xargs -I@ CMD @", "xargs -a f CMD", "echo t | xargs -r CMD", "echo | CMD",
    "echo t | CMD", "CMD | cat", "true | CMD | true", "echo t |& CMD",
];

/// `find` running a simple command `CMD`.
#[rustfmt::skip]
pub const FINDS: &[&str] = &[
    "find t -exec CMD \\;", "find t -exec CMD {} \\;", "find t -exec CMD {} +",
    "find . -maxdepth 0 -exec CMD \\;", "find t -execdir CMD {} \\;", "find t -ok CMD \\;",
    "find t -type f -exec CMD {} ';'", "find t -exec CMD '{}' \\;",
];

/// Statements that mention `rm` without running it.
#[rustfmt::skip]
pub const DECOYS: &[&str] = &[
    "echo rm t", "echo 'rm t'", ": rm t", "printf '%s\\n' rm", "alias rm=:", "R=rm",
    "true || rm t", "false && rm t", "[ rm ]", "# rm t", "x='$(rm t)'", "x='a[$(rm t)]'",
    "echo '$(rm t)'", "cat <<< 'rm t'", "type rm >/dev/null", "command -v rm >/dev/null",
    "hash rm", "trap - EXIT",
];

/// Harmless statements.
#[rustfmt::skip]
pub const FILLERS: &[&str] = &[
    "echo hi", "true", ":", "cd .", "echo t > f", "cat f", "ls >/dev/null",
    "printf '%s\\n' x", "A=1", "x=$((1+2))", "[ -e t ]", "[[ -n x ]]", "test -f t",
    "pwd >/dev/null", "wc -l < f", "echo hi >/dev/null", "let i=1", "declare -i n=3",
    "read -r line <<< x", "shopt -s extglob", "set +e", "unset A",
];
