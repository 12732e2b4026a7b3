//! The shell checker against bash itself: command lines run under real bash
//! in a bubblewrap sandbox with a logging stand-in for `rm`; whenever the stand-in ran, the
//! checker must have denied the line under `Bash(rm:*)` in bypass mode and must not have
//! allowed it under `Bash(echo:*)` in the default mode (`toolreg_tests::fuzz::shell`).
//!
//! The lines: every line of `tests/data/shell-attacks.txt`, and [`GENERATED`] lines from the
//! grammar, from a fixed seed. The allow oracle counts a line the Bash tool would run unasked
//! (every command read-only) as allowed; that such lines only read is the read-only
//! differential's to show (`read_only_differential.rs`). Without bubblewrap the tests say so
//! and return, unless `TOOLREG_REQUIRE_SANDBOX` is set. The long run is `long_run` (ignored;
//! see its docs).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use toolreg_tests::fuzz;
use toolreg_tests::fuzz::shell::{
    Breach, Failure, Line, Oracle, Sandbox, Tally, differential, differential_on, generate,
    minimize,
};

/// Generated lines run in CI (about a minute on the 2-core machine).
const GENERATED: u64 = 3_000;
/// The seed of CI's lines.
const SEED: u64 = 0x005e_ed0f_5e11;
/// Bytes of generator input a line.
const BYTES: usize = 512;

/// The sandbox, or `None` (with the reason printed) where bubblewrap cannot run and
/// `TOOLREG_REQUIRE_SANDBOX` is unset.
fn sandbox() -> Option<Sandbox> {
    match Sandbox::new() {
        Ok(sandbox) => Some(sandbox),
        Err(e) if std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_none() => {
            eprintln!(
                "skipped: bubblewrap cannot run here ({e}); set TOOLREG_REQUIRE_SANDBOX to fail instead"
            );
            None
        }
        Err(e) => panic!("TOOLREG_REQUIRE_SANDBOX is set, but bubblewrap cannot run: {e}"),
    }
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// The hand-written attacks, one a line; `#` lines are comments.
fn attacks() -> Vec<Line> {
    let path = data_dir().join("shell-attacks.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| Line {
            text: line.to_owned(),
            labels: Vec::new(),
        })
        .collect()
}

/// SplitMix64: the generator's input bytes from a seed.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn fill(&mut self) -> Vec<u8> {
        (0..BYTES / 8)
            .flat_map(|_| self.next().to_le_bytes())
            .collect()
    }
}

/// Lines `first..first + count` of the stream of `seed`.
fn generated(seed: u64, first: u64, count: u64) -> Vec<Line> {
    (first..first + count)
        .map(|i| generate(&Bytes(seed ^ i.wrapping_mul(0xd1b5_4a32_d192_ed03)).fill()))
        .collect()
}

/// The failures, shortest first, as text: each line with its breaches and verdicts.
fn describe(failures: &[Failure], limit: usize) -> String {
    let mut sorted: Vec<&Failure> = failures.iter().collect();
    sorted.sort_by_key(|f| (f.line.len(), f.line.clone()));
    let mut out = String::new();
    for f in sorted.iter().take(limit) {
        let _ = writeln!(
            out,
            "  {:?}\n    {:?}; under Bash(rm:*): {:?}; under Bash(echo:*): {:?}",
            f.line, f.breaches, f.verdicts.deny, f.verdicts.allow
        );
    }
    if sorted.len() > limit {
        let _ = writeln!(out, "  … and {} more", sorted.len() - limit);
    }
    out
}

fn summary(tally: &Tally) -> String {
    format!(
        "{} lines, {} ran rm ({} runs), {} timed out; ran rm past the checker: {} not denied \
         by Bash(rm:*), {} allowed by Bash(echo:*)\n\
         verdicts under Bash(rm:*): {:?}\nverdicts under Bash(echo:*): {:?}\n\
         verdicts of the lines that ran rm: under Bash(rm:*) {:?}; under Bash(echo:*) {:?}",
        tally.lines,
        tally.ran_rm,
        tally.rm_runs,
        tally.timed_out,
        tally.deny_bypassed,
        tally.allow_escaped,
        tally.deny_verdicts,
        tally.allow_verdicts,
        tally.deny_verdicts_ran,
        tally.allow_verdicts_ran,
    )
}

#[test]
fn every_listed_attack_runs_rm_under_bash() {
    let Some(mut sandbox) = sandbox() else { return };
    let lines = attacks();
    let texts: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    let outcomes = sandbox.run(&texts).expect("the sandbox runs the attacks");
    let idle: Vec<&String> = texts
        .iter()
        .zip(&outcomes)
        .filter(|(_, o)| o.rm_runs == 0)
        .map(|(t, _)| t)
        .collect();
    assert!(
        idle.is_empty(),
        "these attacks no longer run rm under bash: {idle:#?}"
    );
}

#[test]
fn checker_denies_every_listed_attack_that_runs_rm() {
    let Some(mut sandbox) = sandbox() else { return };
    let mut tally = Tally::default();
    differential(&mut sandbox, &Oracle::new(), &attacks(), &mut tally).expect("the sandbox runs");
    assert!(
        tally.failures.is_empty(),
        "{}\n{}",
        summary(&tally),
        describe(&tally.failures, usize::MAX)
    );
}

#[test]
fn checker_denies_every_generated_line_that_runs_rm() {
    let Some(first) = sandbox() else { return };
    // Two sandboxes take the batches in turn: a line mostly waits on its processes.
    let second = Sandbox::new().expect("a second sandbox");
    let mut tally = Tally::default();
    // A tenth of them outside the slow suites.
    let count = if toolreg_tests::slow_tests("the full generated shell differential") {
        GENERATED
    } else {
        GENERATED / 10
    };
    let lines = generated(SEED, 0, count);
    differential_on(&mut [first, second], &Oracle::new(), &lines, &mut tally)
        .expect("the sandbox runs");
    println!("{}", summary(&tally));
    assert!(
        tally.ran_rm * 3 > tally.lines,
        "too few lines ran rm: {}",
        summary(&tally)
    );
    assert!(
        tally.failures.is_empty(),
        "{}\n{}",
        summary(&tally),
        describe(&tally.failures, 40)
    );
}

#[test]
fn sandbox_keeps_lines_from_changing_anything_outside_its_scratch_directory() {
    let Some(mut sandbox) = sandbox() else { return };
    let outside = tempfile::Builder::new()
        .prefix("toolreg-shelldiff-outside-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a directory outside the sandbox's scratch directory");
    let keep = outside.path().join("keep");
    std::fs::write(&keep, "kept").expect("a file to keep");
    let dir = outside.path().display();
    let lines = [
        format!("echo x > {dir}/new"),
        format!("/usr/bin/rm -f {dir}/keep; /bin/rm -f {dir}/keep"),
        format!("mv {dir}/keep {dir}/moved"),
        format!("ln -s /etc {dir}/link"),
        format!("cd {dir} && touch made"),
        format!("setsid -f sh -c 'echo x > {dir}/later' &"),
        // Process groups are not confined by the pid namespace: were this one the test's, the
        // test would die here.
        "kill -USR1 0; kill -USR1 -1".to_owned(),
    ];
    let outcomes = sandbox.run(&lines).expect("the sandbox runs");
    assert_eq!(
        outcomes[1].rm_runs, 2,
        "the stand-in, not rm, ran: {outcomes:?}"
    );
    let mut left: Vec<String> = std::fs::read_dir(outside.path())
        .expect("the directory reads")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["keep"],
        "lines changed a directory outside the sandbox"
    );
    assert_eq!(std::fs::read_to_string(&keep).expect("keep reads"), "kept");
}

#[test]
fn shell_corpus() {
    let Some(_) = sandbox() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/shell");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no inputs", dir.display());
    let failed: Vec<String> = files
        .iter()
        .filter(|file| {
            let data = std::fs::read(file).expect("a corpus file reads");
            std::panic::catch_unwind(|| fuzz::shell(&data)).is_err()
        })
        .map(|file| file.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{} inputs fail:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The long run: `TOOLREG_SHELL_DIFF_COUNT` lines (default 1,000,000) of the stream of
/// `TOOLREG_SHELL_DIFF_SEED` (default CI's seed), from line `TOOLREG_SHELL_DIFF_FIRST`
/// (default: the first after CI's; give workers disjoint ranges). Then, for each construct
/// and breach, the shortest line with that construct that broke the promise that way is
/// minimized, shortest first, up to `TOOLREG_SHELL_DIFF_MINIMIZE` lines (default 80). Prints
/// figures as it goes; never fails on a breach.
///
/// With `TOOLREG_SHELL_DIFF_STATE=FILE`, the figures so far are saved to FILE (JSON) after
/// every 2,000 lines and every minimized line, and a run started again with the same FILE
/// goes on from there: a run of hours survives being killed.
///
/// `cargo test -p toolreg-tests --test end_to_end -- --ignored --nocapture shell_differential::long_run`
#[test]
#[ignore = "hours; run by hand for RELIABILITY.md"]
fn long_run() {
    let Some(mut sandbox) = sandbox() else { return };
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let count = env("TOOLREG_SHELL_DIFF_COUNT", 1_000_000);
    let seed = env("TOOLREG_SHELL_DIFF_SEED", SEED);
    let begin = env("TOOLREG_SHELL_DIFF_FIRST", GENERATED);
    let to_minimize = usize::try_from(env("TOOLREG_SHELL_DIFF_MINIMIZE", 80)).unwrap_or(80);
    let state_file = std::env::var_os("TOOLREG_SHELL_DIFF_STATE").map(PathBuf::from);
    let mut run = match state_file.as_deref().filter(|f| f.exists()) {
        Some(file) => {
            let run = checkpoint::load(file);
            println!(
                "resuming {} at line {} of {}..{}",
                file.display(),
                run.next,
                begin,
                begin + count
            );
            run
        }
        None => checkpoint::Run {
            next: begin,
            ..checkpoint::Run::default()
        },
    };
    let save = |run: &checkpoint::Run| {
        if let Some(file) = &state_file {
            checkpoint::save(file, run);
        }
    };
    let oracle = Oracle::new();
    let start = std::time::Instant::now() - std::time::Duration::from_secs_f64(run.seconds);
    let end = begin + count;
    while run.next < end {
        let n = 2_000.min(end - run.next);
        let lines = generated(seed, run.next, n);
        differential(&mut sandbox, &oracle, &lines, &mut run.tally).expect("the sandbox runs");
        for failure in run.tally.failures.drain(..) {
            for &breach in &failure.breaches {
                for &label in &failure.labels {
                    let entry = run
                        .shortest
                        .entry((label, breach))
                        .or_insert_with(|| failure.line.clone());
                    if failure.line.len() < entry.len() {
                        entry.clone_from(&failure.line);
                    }
                }
            }
        }
        run.next += n;
        run.seconds = start.elapsed().as_secs_f64();
        save(&run);
        let t = &run.tally;
        println!(
            "{:>8} lines, {:.0} s, {:.1} lines/s; ran rm {}; past the checker: {} not denied, {} allowed",
            t.lines,
            run.seconds,
            t.lines as f64 / run.seconds,
            t.ran_rm,
            t.deny_bypassed,
            t.allow_escaped,
        );
    }
    let t = &run.tally;
    println!("\n{}", summary(t));
    println!("timed out (first {}): {:#?}", t.timeouts.len(), t.timeouts);
    println!("\nper construct: lines, ran rm, past the checker");
    for (label, c) in &t.labels {
        println!(
            "  {:>7} {:>7} {:>7}  {label:?}",
            c.lines, c.ran_rm, c.failed
        );
    }
    let mut picked: Vec<(String, Breach)> = run
        .shortest
        .iter()
        .map(|((_, breach), line)| (line.clone(), *breach))
        .collect();
    picked.sort_by_key(|(line, breach)| (line.len(), line.clone(), *breach));
    picked.dedup();
    println!(
        "\nshortest failure per construct: {} lines; minimizing up to {to_minimize}",
        picked.len()
    );
    for (line, breach) in picked.into_iter().take(to_minimize) {
        if run
            .minimized
            .iter()
            .any(|(l, b, _)| *l == line && *b == breach)
        {
            continue;
        }
        let small = minimize(&mut sandbox, &oracle, &line, breach).expect("the sandbox runs");
        println!("  {line:?} -> {small:?} ({breach:?})");
        run.minimized.push((line, breach, small));
        save(&run);
    }
    let mut minimized: BTreeMap<&str, Vec<Breach>> = BTreeMap::new();
    for (_, breach, small) in &run.minimized {
        minimized.entry(small).or_default().push(*breach);
    }
    println!("\nminimized failures ({}):", minimized.len());
    for (line, breaches) in &minimized {
        println!("  {line:?}  {breaches:?}");
    }
}

/// The long run's figures as JSON, to go on after a kill.
mod checkpoint {
    use std::collections::BTreeMap;
    use std::path::Path;

    use serde_json::{Value, json};
    use toolreg_tests::fuzz::shell::{Breach, LabelCounts, Tally, VerdictCounts};

    /// Where a long run is.
    #[derive(Default)]
    pub struct Run {
        /// The next line of the stream to run.
        pub next: u64,
        /// Seconds spent so far.
        pub seconds: f64,
        pub tally: Tally,
        /// Per construct and breach, the shortest failing line.
        pub shortest: BTreeMap<(&'static str, Breach), String>,
        /// Lines minimized: line, breach, minimized line.
        pub minimized: Vec<(String, Breach, String)>,
    }

    fn counts(c: &VerdictCounts) -> Value {
        json!([c.deny, c.ask, c.allow, c.undecided])
    }

    fn breach_name(b: Breach) -> &'static str {
        match b {
            Breach::DenyRuleBypassed => "deny",
            Breach::AllowRuleEscaped => "allow",
        }
    }

    pub fn save(file: &Path, run: &Run) {
        let t = &run.tally;
        let labels: serde_json::Map<String, Value> = t
            .labels
            .iter()
            .map(|(l, c)| ((*l).to_owned(), json!([c.lines, c.ran_rm, c.failed])))
            .collect();
        let shortest: Vec<Value> = run
            .shortest
            .iter()
            .map(|((l, b), line)| json!([l, breach_name(*b), line]))
            .collect();
        let minimized: Vec<Value> = run
            .minimized
            .iter()
            .map(|(line, b, small)| json!([line, breach_name(*b), small]))
            .collect();
        let value = json!({
            "next": run.next, "seconds": run.seconds,
            "lines": t.lines, "ran_rm": t.ran_rm, "rm_runs": t.rm_runs, "timed_out": t.timed_out,
            "deny_bypassed": t.deny_bypassed, "allow_escaped": t.allow_escaped,
            "deny_verdicts": counts(&t.deny_verdicts), "allow_verdicts": counts(&t.allow_verdicts),
            "deny_verdicts_ran": counts(&t.deny_verdicts_ran),
            "allow_verdicts_ran": counts(&t.allow_verdicts_ran),
            "timeouts": t.timeouts, "labels": labels, "shortest": shortest, "minimized": minimized,
        });
        // A full disk loses this save, not the run: the next one tries again.
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
        let counts = |key: &str| {
            let c = |i: usize| v[key][i].as_u64().expect("a count") as usize;
            VerdictCounts {
                deny: c(0),
                ask: c(1),
                allow: c(2),
                undecided: c(3),
            }
        };
        // Labels are vocabulary entries; a run loaded again holds a few hundred of them.
        let label = |l: &Value| -> &'static str {
            Box::leak(l.as_str().expect("a label").to_owned().into_boxed_str())
        };
        let breach = |b: &Value| match b.as_str() {
            Some("deny") => Breach::DenyRuleBypassed,
            _ => Breach::AllowRuleEscaped,
        };
        let text_of = |s: &Value| s.as_str().expect("a line").to_owned();
        let tally = Tally {
            lines: n("lines"),
            ran_rm: n("ran_rm"),
            rm_runs: n("rm_runs"),
            timed_out: n("timed_out"),
            deny_bypassed: n("deny_bypassed"),
            allow_escaped: n("allow_escaped"),
            deny_verdicts: counts("deny_verdicts"),
            allow_verdicts: counts("allow_verdicts"),
            deny_verdicts_ran: counts("deny_verdicts_ran"),
            allow_verdicts_ran: counts("allow_verdicts_ran"),
            labels: v["labels"]
                .as_object()
                .expect("labels")
                .iter()
                .map(|(l, c)| {
                    let c = |i: usize| c[i].as_u64().expect("a count") as usize;
                    let counts = LabelCounts {
                        lines: c(0),
                        ran_rm: c(1),
                        failed: c(2),
                    };
                    (label(&Value::String(l.clone())), counts)
                })
                .collect(),
            timeouts: v["timeouts"]
                .as_array()
                .expect("timeouts")
                .iter()
                .map(text_of)
                .collect(),
            failures: Vec::new(),
        };
        Run {
            next: v["next"].as_u64().expect("next"),
            seconds: v["seconds"].as_f64().expect("seconds"),
            tally,
            shortest: v["shortest"]
                .as_array()
                .expect("shortest")
                .iter()
                .map(|e| ((label(&e[0]), breach(&e[1])), text_of(&e[2])))
                .collect(),
            minimized: v["minimized"]
                .as_array()
                .expect("minimized")
                .iter()
                .map(|e| (text_of(&e[0]), breach(&e[1]), text_of(&e[2])))
                .collect(),
        }
    }
}
