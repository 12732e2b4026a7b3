//! strace's record of a batch, cut into what each command line did.
//!
//! The driver marks line `I` by opening `/.toolreg-mark/BI` before it and
//! `/.toolreg-mark/EI.STATUS` after it; every call between the two marks by a process other
//! than the driver and its watchdog is the line's. Of those calls, [`Event`]s keep the ones
//! the test judges: a program started, a file opened for writing or changed, a socket.

/// The calls strace records (`-e trace=`).
pub const TRACED: &str = concat!(
    "execve,execveat,open,openat,openat2,creat,truncate,unlink,unlinkat,rename,renameat,",
    "renameat2,mkdir,mkdirat,rmdir,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,chown,",
    "fchown,lchown,fchownat,utime,utimes,utimensat,futimesat,mknod,mknodat,setxattr,",
    "lsetxattr,fsetxattr,removexattr,lremovexattr,fremovexattr,socket,connect",
);

/// Where the driver's marks are.
pub const MARK: &str = "/.toolreg-mark/";

/// One thing a line's process did that the test judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `execve` of `path`; `ok` when it succeeded.
    Exec {
        /// The program's path as given to `execve`.
        path: String,
        /// The call succeeded: the program ran.
        ok: bool,
    },
    /// A call that writes or changes a file: an `open` for writing, `creat`, `unlink`,
    /// `rename`, `mkdir`, `chmod`, `utimensat`, … (attempts count, failed or not).
    Write {
        /// The call.
        call: String,
        /// The path it names (empty for a call on a descriptor).
        path: String,
    },
    /// `socket` or `connect`, with its arguments as strace printed them.
    Socket {
        /// The call and its arguments.
        call: String,
    },
    /// A file opened for reading, successfully, by a path relative to the working directory
    /// or absolute (not one relative to a directory descriptor, as `find` and `du` open what
    /// they walk).
    Read {
        /// The path as given.
        path: String,
    },
}

/// What one line did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    /// The exit status of `bash -c LINE` (137 when killed at the timeout).
    pub status: i32,
    /// What its processes did, in order.
    pub events: Vec<Event>,
    /// Microseconds it took, the wait for its leftovers included.
    pub micros: u64,
}

/// Cuts strace's output of a batch of `count` lines into one [`Trace`] a line, or says why
/// it cannot.
pub fn split(text: &str, count: usize) -> Result<Vec<Trace>, String> {
    let mut traces: Vec<Trace> = Vec::new();
    let mut current: Option<usize> = None;
    let mut driver: Option<&str> = None;
    let mut watchdog: Option<String> = None;
    // A call that strace left unfinished, by pid: its index among the line's events.
    let mut pending: Vec<(String, usize)> = Vec::new();
    // A call strace could not name (`???`), by pid: its line and its index among the events.
    let mut unnamed: Vec<(String, usize, usize)> = Vec::new();
    // The calls found not to have run: (line, index among its events).
    let mut not_run: Vec<(usize, usize)> = Vec::new();
    for line in text.lines() {
        let Some((pid, rest)) = line.split_once(' ') else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(at) = unnamed.iter().position(|(p, ..)| p == pid) {
            if rest.starts_with("+++ ") {
                // The thread ended in the call: strace could not name it because a fatal
                // signal had taken the thread out of its stop, and the kernel skips a
                // seccomp-traced call whose task has a fatal signal pending (kernel/seccomp.c,
                // `SECCOMP_RET_TRACE`). The call never ran.
                let (_, line, index) = unnamed.swap_remove(at);
                not_run.push((line, index));
                continue;
            }
            if !rest.starts_with("<... ???") {
                // The thread went on: what the call did is unknown, and it stays judged.
                unnamed.swap_remove(at);
            }
        }
        let driver_pid = *driver.get_or_insert(pid);
        if pid == driver_pid {
            let path = first_string(rest).unwrap_or_default();
            if let Some(mark) = path.strip_prefix(MARK) {
                match mark.split_at_checked(1) {
                    Some(("W", pid)) => watchdog = Some(pid.to_owned()),
                    Some(("B", i)) => {
                        let i: usize = i.parse().map_err(|_| format!("bad mark {mark}"))?;
                        if i != traces.len() {
                            return Err(format!("line {i} began after {} lines", traces.len()));
                        }
                        traces.push(Trace::default());
                        current = Some(i);
                    }
                    Some(("E", end)) => {
                        let bad = || format!("bad mark {mark}");
                        let mut fields = end.split('.');
                        let mut field = || fields.next().ok_or_else(bad);
                        let i: usize = field()?.parse().map_err(|_| bad())?;
                        let status = field()?.parse().map_err(|_| bad())?;
                        let micros = field()?.parse().map_err(|_| bad())?;
                        let trace = traces.get_mut(i).ok_or("an end without a beginning")?;
                        trace.status = status;
                        trace.micros = micros;
                        current = None;
                    }
                    _ => {}
                }
            }
            continue;
        }
        if watchdog.as_deref() == Some(pid) {
            continue;
        }
        let Some(trace) = current.and_then(|i| traces.get_mut(i)) else {
            continue;
        };
        if let Some(resumed) = rest.strip_prefix("<... ") {
            let Some(at) = pending.iter().position(|(p, _)| p == pid) else {
                continue;
            };
            let (_, index) = pending.swap_remove(at);
            if let Some(Event::Exec { ok, .. }) = trace.events.get_mut(index) {
                *ok = succeeded(resumed);
            }
            continue;
        }
        let Some((call, args)) = rest.split_once('(') else {
            continue;
        };
        let Some(event) = event(call, args) else {
            continue;
        };
        if rest.ends_with("<unfinished ...>") {
            pending.retain(|(p, _)| p != pid);
            pending.push((pid.to_owned(), trace.events.len()));
        }
        if call == "???" {
            unnamed.push((
                pid.to_owned(),
                current.unwrap_or_default(),
                trace.events.len(),
            ));
        }
        trace.events.push(event);
    }
    if traces.len() != count {
        return Err(format!("the trace holds {} of {count} lines", traces.len()));
    }
    not_run.sort_unstable();
    for (line, index) in not_run.into_iter().rev() {
        traces[line].events.remove(index);
    }
    Ok(traces)
}

/// Whether a call's line ends in success (`= 0`, `= 3`), not `= -1 E…`.
fn succeeded(line: &str) -> bool {
    line.rsplit_once(" = ")
        .is_some_and(|(_, result)| !result.starts_with('-') && !result.starts_with('?'))
}

/// The event a call is, if the test judges it.
fn event(call: &str, args: &str) -> Option<Event> {
    let path = || first_string(args).unwrap_or_default();
    match call {
        "execve" | "execveat" => Some(Event::Exec {
            path: path(),
            ok: succeeded(args),
        }),
        "open" | "openat" | "openat2" => {
            let after = after_first_string(args);
            let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"]
                .iter()
                .any(|flag| after.contains(flag));
            let path = path();
            let harmless = ["/dev/null", "/dev/tty"].contains(&path.as_str());
            let from_cwd = call == "open" || args.starts_with("AT_FDCWD") || path.starts_with('/');
            if writes {
                (!harmless).then(|| Event::Write {
                    call: call.to_owned(),
                    path,
                })
            } else {
                (from_cwd && succeeded(args)).then_some(Event::Read { path })
            }
        }
        "socket" | "connect" => {
            let local = args.starts_with("AF_UNIX")
                || ["/var/run/nscd/socket", "/run/nscd/socket"]
                    .iter()
                    .any(|nscd| args.contains(&format!("sun_path=\"{nscd}\"")));
            (!local).then(|| Event::Socket {
                call: format!("{call}({}", args.split(" = ").next().unwrap_or(args)),
            })
        }
        _ => Some(Event::Write {
            call: call.to_owned(),
            path: path(),
        }),
    }
}

/// The first double-quoted string of strace's arguments, unescaped enough to compare paths.
pub fn first_string(args: &str) -> Option<String> {
    let start = args.find('"')?;
    let mut out = String::new();
    let mut chars = args.get(start + 1..)?.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// The arguments after the first double-quoted string.
fn after_first_string(args: &str) -> &str {
    let Some(start) = args.find('"') else {
        return args;
    };
    let mut escaped = false;
    for (i, c) in args.char_indices().skip_while(|(i, _)| *i <= start) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return args.get(i + 1..).unwrap_or_default(),
            _ => escaped = false,
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_between_marks_are_the_lines_and_the_drivers_are_not() {
        let text = r#"6 execve("/bin/bash", ["/bin/bash"], 0x1 /* 3 vars */) = 0
6 openat(AT_FDCWD, "/.toolreg-mark/W7", O_RDONLY) = -1 ENOENT (No such file or directory)
7 openat(AT_FDCWD, "/tmp/s/current", O_RDONLY) = 3
6 openat(AT_FDCWD, "/tmp/s/current", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3
6 openat(AT_FDCWD, "/.toolreg-mark/B0", O_RDONLY) = -1 ENOENT (No such file or directory)
8 openat(AT_FDCWD, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3
8 execve("/usr/bin/bash", ["bash", "-c", "x"], 0x2 /* 5 vars */ <unfinished ...>
9 socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 3
8 <... execve resumed>) = 0
8 openat(AT_FDCWD, "o\"ut", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)
8 openat(AT_FDCWD, "f", O_RDONLY) = 3
8 openat(4, "g", O_RDONLY|O_NOFOLLOW) = 5
8 openat(AT_FDCWD, "missing", O_RDONLY) = -1 ENOENT (No such file or directory)
8 socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, 0) = 3
8 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT
6 openat(AT_FDCWD, "/.toolreg-mark/E0.1.250", O_RDONLY) = -1 ENOENT (No such file or directory)
"#;
        let traces = split(text, 1).unwrap();
        assert_eq!((traces[0].status, traces[0].micros), (1, 250));
        assert_eq!(
            traces[0].events,
            [
                Event::Exec {
                    path: "/usr/bin/bash".into(),
                    ok: true
                },
                Event::Socket {
                    call: "socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)".into()
                },
                Event::Write {
                    call: "openat".into(),
                    path: "o\"ut".into()
                },
                Event::Read { path: "f".into() },
            ]
        );
        assert!(split(text, 2).is_err());
    }

    #[test]
    fn a_call_strace_cannot_name_of_a_thread_that_ends_in_it_never_ran() {
        let text = r#"6 openat(AT_FDCWD, "/.toolreg-mark/B0", O_RDONLY) = -1 ENOENT (No such file or directory)
8 ???( <unfinished ...>
9 ???( <unfinished ...>
9 openat(AT_FDCWD, "f", O_RDONLY) = 3
10 ???() = ? <unavailable>
8 +++ killed by SIGPIPE +++
9 +++ killed by SIGPIPE +++
11 ???( <unfinished ...>
11 <... ??? resumed>) = ? <unavailable>
11 +++ exited with 141 +++
6 openat(AT_FDCWD, "/.toolreg-mark/E0.141.250", O_RDONLY) = -1 ENOENT (No such file or directory)
"#;
        let traces = split(text, 1).unwrap();
        let unnamed = Event::Write {
            call: "???".into(),
            path: String::new(),
        };
        // 8 and 11 ended in their call: dropped. 9 went on after it and 10 did not end: kept.
        assert_eq!(
            traces[0].events,
            [unnamed.clone(), Event::Read { path: "f".into() }, unnamed]
        );
    }
}
