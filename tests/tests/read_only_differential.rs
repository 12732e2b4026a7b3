//! The read-only list against bash: every line the checker calls read-only, run under real
//! bash and strace in a bubblewrap sandbox, must neither write a file, nor start a program it
//! does not name, nor open a socket (`toolreg_tests::fuzz::read_only`).
//!
//! The lines: the attacks of `tests/data/read-only-attacks.txt` (each must misbehave under
//! bash and not be read-only), the git lines of `tests/data/read-only-git-environment.txt`
//! (read-only; each misbehaves without the environment read-only commands run with, none
//! with it), and the generated lines: every program of the list with each of its options in
//! every spelling, each of its dangerous options in every spelling, its operands; then random
//! lines. CI runs a slice of them (every [`STRIDE`]th generated line and [`RANDOM`] random
//! ones); `long_run` (ignored) runs them all and a million more. Without bubblewrap or strace
//! the tests say so and return, unless `TOOLREG_REQUIRE_SANDBOX` is set.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use toolreg_tests::fuzz::read_only::{
    BATCH, Failure, Line, Sandbox, Tally, classify, differential, installed_gits, random,
    systematic, violations,
};

/// CI runs every `STRIDE`th generated line (a tenth of that outside the slow suites).
const STRIDE: usize = 6;
/// Random lines CI runs.
const RANDOM: u64 = 250;
/// The seed of CI's random lines.
const SEED: u64 = 0x0005_eed0_0f50_5e11;

fn sandbox() -> Option<Sandbox> {
    match Sandbox::new() {
        Ok(sandbox) => Some(sandbox),
        Err(e) if std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_none() => {
            eprintln!(
                "skipped: bubblewrap or strace cannot run here ({e}); set \
                 TOOLREG_REQUIRE_SANDBOX to fail instead"
            );
            None
        }
        Err(e) => panic!("TOOLREG_REQUIRE_SANDBOX is set, but the traced sandbox cannot run: {e}"),
    }
}

/// The lines of a file of `tests/data`, one a line; `#` lines are comments.
fn listed(file: &str, label: &'static str) -> Vec<Line> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| Line {
            text: line.to_owned(),
            labels: vec![label],
        })
        .collect()
}

fn describe(failures: &[Failure], limit: usize) -> String {
    let mut out = String::new();
    for f in failures.iter().take(limit) {
        let _ = writeln!(out, "  {:?} {:?}\n    {:?}", f.line, f.labels, f.violations);
    }
    if failures.len() > limit {
        let _ = writeln!(out, "  … and {} more", failures.len() - limit);
    }
    out
}

fn summary(t: &Tally) -> String {
    let mut out = format!(
        "{} lines, {} read-only, {} misbehaved (wrote, ran another program or opened a socket), \
         {} timed out, {} failures; reads judged on {} read-only lines, {} opened what they do \
         not report\nper class: lines, read-only, misbehaved, failures\n",
        t.lines,
        t.read_only,
        t.misbehaved,
        t.timed_out,
        t.failures.len(),
        t.reads_judged,
        t.read_failures.len()
    );
    for (class, c) in &t.classes {
        let _ = writeln!(
            out,
            "  {:>8} {:>8} {:>8} {:>4}  {class}",
            c.lines, c.read_only, c.misbehaved, c.failed
        );
    }
    out
}

#[test]
fn every_listed_attack_misbehaves_under_bash_and_is_not_read_only() {
    let Some(mut sandbox) = sandbox() else { return };
    let lines = listed("read-only-attacks.txt", "attack");
    let texts: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    let traces = sandbox.run(&texts).expect("the sandbox runs the attacks");
    let mut stale = Vec::new();
    let mut passed = Vec::new();
    for (text, trace) in texts.iter().zip(&traces) {
        let verdict = classify(text);
        let found = violations(trace, &verdict.programs);
        if found.is_empty() {
            stale.push(text);
        } else if verdict.read_only {
            passed.push((text, found));
        }
    }
    assert!(
        stale.is_empty(),
        "these attacks no longer misbehave under bash: {stale:#?}"
    );
    assert!(
        passed.is_empty(),
        "the checker calls these attacks read-only: {passed:#?}"
    );
}

/// With each git installed in the system `PATH` (here 2.47 under `/usr/local/bin` and
/// Debian's 2.39), in turn.
#[test]
fn the_git_environment_keeps_read_only_git_lines_from_running_the_repository_s_programs() {
    let Some(mut sandbox) = sandbox() else { return };
    let lines = listed("read-only-git-environment.txt", "git environment");
    let texts: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    let not_read_only: Vec<&String> = texts.iter().filter(|t| !classify(t).read_only).collect();
    assert!(
        not_read_only.is_empty(),
        "not read-only: {not_read_only:#?}"
    );
    let gits = installed_gits();
    assert!(!gits.is_empty(), "no git in the system PATH");
    for git in gits {
        sandbox.set_git(Some(git.clone()));
        sandbox.set_bare_environment(true);
        let bare = sandbox.run(&texts).expect("the sandbox runs");
        sandbox.set_bare_environment(false);
        let full = sandbox.run(&texts).expect("the sandbox runs");
        for ((text, bare), full) in texts.iter().zip(&bare).zip(&full) {
            let programs = classify(text).programs;
            let without = violations(bare, &programs);
            let with = violations(full, &programs);
            let git = git.display();
            assert!(
                !without.is_empty(),
                "{git}: {text:?} no longer misbehaves without the environment"
            );
            assert!(
                with.is_empty(),
                "{git}: {text:?} misbehaves with the environment: {with:?}"
            );
        }
    }
}

/// Each attack on git misbehaves with every installed git that knows what it uses (a key of
/// `--sort` git 2.39 lacks aside), and none is read-only.
#[test]
fn every_listed_git_attack_misbehaves_with_every_installed_git() {
    let Some(mut sandbox) = sandbox() else { return };
    let texts: Vec<String> = listed("read-only-attacks.txt", "attack")
        .into_iter()
        .map(|l| l.text)
        .filter(|t| t.starts_with("git "))
        .collect();
    for git in installed_gits() {
        sandbox.set_git(Some(git.clone()));
        let traces = sandbox.run(&texts).expect("the sandbox runs");
        for (text, trace) in texts.iter().zip(&traces) {
            let verdict = classify(text);
            let found = violations(trace, &verdict.programs);
            let newer = text.contains("signature") && !text.contains("show-signature");
            assert!(
                !found.is_empty() || newer,
                "{}: {text:?} no longer misbehaves",
                git.display()
            );
            assert!(!verdict.read_only, "{text:?} is read-only");
        }
    }
}

#[test]
fn read_only_lines_neither_write_nor_run_programs_nor_open_sockets() {
    let Some(mut sandbox) = sandbox() else { return };
    let full = toolreg_tests::slow_tests("the full read-only differential slice");
    let stride = if full { STRIDE } else { STRIDE * 10 };
    let count = if full { RANDOM } else { RANDOM / 10 };
    let mut lines: Vec<Line> = systematic().into_iter().step_by(stride).collect();
    lines.extend((0..count).map(|i| random(SEED, i)));
    let start = std::time::Instant::now();
    let mut tally = Tally::default();
    differential(&mut sandbox, &lines, &mut tally).expect("the sandbox runs");
    println!(
        "{}\n{:.1} s",
        summary(&tally),
        start.elapsed().as_secs_f64()
    );
    assert!(
        tally.read_only * 3 > tally.lines,
        "too few lines are read-only: {}",
        summary(&tally)
    );
    assert!(
        tally.failures.is_empty(),
        "{}\n{}",
        summary(&tally),
        describe(&tally.failures, 40)
    );
    assert!(
        tally.read_failures.is_empty(),
        "read-only lines opened files their reads do not name:\n{}",
        describe(&tally.read_failures, 40)
    );
}

/// The long run: every generated line of the systematic set, then random lines of the stream
/// of `TOOLREG_READ_ONLY_DIFF_SEED` (default CI's seed) up to `TOOLREG_READ_ONLY_DIFF_COUNT`
/// lines in all (default 1,000,000), on `TOOLREG_READ_ONLY_DIFF_WORKERS` sandboxes at once
/// (default 2). Prints figures as it goes and the failures at the end; fails if there is one.
///
/// With `TOOLREG_READ_ONLY_DIFF_STATE=FILE`, the figures are saved to FILE (JSON) after
/// every batch, and a run started again with the same FILE goes on from where it was.
///
/// `TOOLREG_REQUIRE_SANDBOX=1 cargo test --release -p toolreg-tests --test end_to_end --
/// --ignored --nocapture --exact read_only_differential::long_run`
#[test]
#[ignore = "hours; run by hand for RELIABILITY.md"]
fn long_run() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let count = env("TOOLREG_READ_ONLY_DIFF_COUNT", 1_000_000);
    let seed = env("TOOLREG_READ_ONLY_DIFF_SEED", SEED);
    let workers = env("TOOLREG_READ_ONLY_DIFF_WORKERS", 2).max(1);
    let state = std::env::var_os("TOOLREG_READ_ONLY_DIFF_STATE").map(PathBuf::from);
    let systematic = systematic();
    let line = |i: u64| match systematic.get(i as usize) {
        Some(line) => line.clone(),
        None => random(seed, i - systematic.len() as u64),
    };
    let run = Mutex::new(match state.as_deref().filter(|f| f.exists()) {
        Some(file) => checkpoint::load(file),
        None => checkpoint::Run::default(),
    });
    let (done, seconds) = {
        let run = run.lock().expect("the run");
        (run.done, run.seconds)
    };
    println!("{count} lines from line {done}, {workers} workers, seed {seed:#x}");
    let next = AtomicU64::new(done);
    let start = std::time::Instant::now() - std::time::Duration::from_secs_f64(seconds);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let Some(mut sandbox) = sandbox() else { return };
                loop {
                    let first = next.fetch_add(BATCH as u64, Ordering::SeqCst);
                    if first >= count {
                        return;
                    }
                    let lines: Vec<Line> =
                        (first..count.min(first + BATCH as u64)).map(line).collect();
                    let mut tally = Tally::default();
                    differential(&mut sandbox, &lines, &mut tally).expect("the sandbox runs");
                    let mut run = run.lock().expect("the run");
                    run.add(&tally);
                    run.seconds = start.elapsed().as_secs_f64();
                    if let Some(file) = &state {
                        checkpoint::save(file, &run);
                    }
                    let t = &run.tally;
                    println!(
                        "{:>8} lines, {:.0} s, {:.1} lines/s; {} read-only, {} misbehaved, {} \
                         failures; {} unreported reads",
                        t.lines,
                        run.seconds,
                        (t.lines as u64 - done) as f64 / (run.seconds - seconds).max(1.0),
                        t.read_only,
                        t.misbehaved,
                        t.failures.len(),
                        t.read_failures.len()
                    );
                }
            });
        }
    });
    let run = run.into_inner().expect("the run");
    println!("\n{}", summary(&run.tally));
    println!("slowest: {:?}", run.tally.slowest);
    println!(
        "opened what they do not report:\n{}",
        describe(&run.tally.read_failures, 200)
    );
    assert!(
        run.tally.failures.is_empty(),
        "{}",
        describe(&run.tally.failures, 200)
    );
}

/// The long run's figures as JSON, to go on after a kill.
mod checkpoint {
    use std::path::Path;

    use serde_json::{Value, json};
    use toolreg_tests::fuzz::read_only::{ClassCounts, Failure, Tally};

    /// Where a long run is.
    #[derive(Default)]
    pub struct Run {
        /// Lines done (from the start of the stream).
        pub done: u64,
        /// Seconds spent so far.
        pub seconds: f64,
        pub tally: Tally,
    }

    impl Run {
        pub fn add(&mut self, batch: &Tally) {
            let t = &mut self.tally;
            t.lines += batch.lines;
            t.read_only += batch.read_only;
            t.misbehaved += batch.misbehaved;
            t.timed_out += batch.timed_out;
            for (class, c) in &batch.classes {
                let total = t.classes.entry(class).or_default();
                total.lines += c.lines;
                total.read_only += c.read_only;
                total.misbehaved += c.misbehaved;
                total.failed += c.failed;
            }
            t.failures.extend(batch.failures.iter().cloned());
            t.reads_judged += batch.reads_judged;
            t.read_failures.extend(batch.read_failures.iter().cloned());
            t.slowest.extend(batch.slowest.iter().cloned());
            t.slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
            t.slowest.truncate(10);
            self.done = t.lines as u64;
        }
    }

    pub fn save(file: &Path, run: &Run) {
        let t = &run.tally;
        let classes: serde_json::Map<String, Value> = t
            .classes
            .iter()
            .map(|(l, c)| {
                (
                    (*l).to_owned(),
                    json!([c.lines, c.read_only, c.misbehaved, c.failed]),
                )
            })
            .collect();
        let listed = |failures: &[Failure]| -> Vec<Value> {
            failures
                .iter()
                .map(|f| json!([f.line, format!("{:?}", f.violations)]))
                .collect()
        };
        let value = json!({
            "done": run.done, "seconds": run.seconds, "lines": t.lines, "read_only": t.read_only,
            "misbehaved": t.misbehaved, "timed_out": t.timed_out, "classes": classes,
            "failures": listed(&t.failures), "reads_judged": t.reads_judged,
            "read_failures": listed(&t.read_failures),
        });
        let tmp = file.with_extension("tmp");
        if let Err(e) =
            std::fs::write(&tmp, value.to_string()).and_then(|()| std::fs::rename(&tmp, file))
        {
            eprintln!("warning: {}: {e}", file.display());
        }
    }

    pub fn load(file: &Path) -> Run {
        let text = std::fs::read_to_string(file).expect("the state file reads");
        let v: Value = serde_json::from_str(&text).expect("the state file is JSON");
        let n = |key: &str| v[key].as_u64().expect("a count") as usize;
        // Labels are the generator's; a run loaded again holds a few dozen of them.
        let label = |l: &str| -> &'static str { Box::leak(l.to_owned().into_boxed_str()) };
        let failures = |key: &str| -> Vec<Failure> {
            v[key]
                .as_array()
                .expect("failures")
                .iter()
                .map(|f| Failure {
                    line: f[0].as_str().expect("a line").to_owned(),
                    labels: vec!["loaded"],
                    violations: Vec::new(),
                })
                .collect()
        };
        let tally = Tally {
            lines: n("lines"),
            read_only: n("read_only"),
            misbehaved: n("misbehaved"),
            timed_out: n("timed_out"),
            classes: v["classes"]
                .as_object()
                .expect("classes")
                .iter()
                .map(|(l, c)| {
                    let c = |i: usize| c[i].as_u64().expect("a count") as usize;
                    let counts = ClassCounts {
                        lines: c(0),
                        read_only: c(1),
                        misbehaved: c(2),
                        failed: c(3),
                    };
                    (label(l), counts)
                })
                .collect(),
            failures: failures("failures"),
            reads_judged: n("reads_judged"),
            read_failures: failures("read_failures"),
            slowest: Vec::new(),
        };
        Run {
            done: v["done"].as_u64().expect("done"),
            seconds: v["seconds"].as_f64().expect("seconds"),
            tally,
        }
    }
}
