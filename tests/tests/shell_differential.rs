//! The shell checker against bash itself (issue J, item 3): command lines run under real bash
//! in a bubblewrap sandbox with a logging stand-in for `rm`; whenever the stand-in ran, the
//! checker must have denied the line under `Bash(rm:*)` in bypass mode and must not have
//! allowed it under `Bash(echo:*)` in the default mode (`toolreg_tests::fuzz::shell`).
//!
//! The lines: every line of `tests/data/shell-attacks.txt`, and [`GENERATED`] lines from the
//! grammar, from a fixed seed. Without bubblewrap the tests say so and return, unless
//! `TOOLREG_REQUIRE_SANDBOX` is set. The long run is `long_run` (ignored; see its docs).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use toolreg_tests::fuzz;
use toolreg_tests::fuzz::shell::{
    Breach, Failure, Line, Oracle, Sandbox, Tally, differential, generate, minimize,
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
    let Some(mut sandbox) = sandbox() else { return };
    let mut tally = Tally::default();
    let lines = generated(SEED, 0, GENERATED);
    differential(&mut sandbox, &Oracle::new(), &lines, &mut tally).expect("the sandbox runs");
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
/// `cargo test -p toolreg-tests --test shell_differential -- --ignored --nocapture long_run`
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
    let oracle = Oracle::new();
    let mut tally = Tally::default();
    // Per construct and breach: the shortest failure.
    let mut shortest: BTreeMap<(&'static str, Breach), Failure> = BTreeMap::new();
    let start = std::time::Instant::now();
    let chunk = 2_000;
    let mut first = begin;
    while first < begin + count {
        let n = chunk.min(begin + count - first);
        let lines = generated(seed, first, n);
        differential(&mut sandbox, &oracle, &lines, &mut tally).expect("the sandbox runs");
        for failure in tally.failures.drain(..) {
            for &breach in &failure.breaches {
                for &label in &failure.labels {
                    let entry = shortest
                        .entry((label, breach))
                        .or_insert_with(|| failure.clone());
                    if failure.line.len() < entry.line.len() {
                        *entry = failure.clone();
                    }
                }
            }
        }
        first += n;
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:>8} lines, {:.0} s, {:.1} lines/s; ran rm {}; past the checker: {} not denied, {} allowed",
            tally.lines,
            secs,
            tally.lines as f64 / secs,
            tally.ran_rm,
            tally.deny_bypassed,
            tally.allow_escaped,
        );
    }
    println!("\n{}", summary(&tally));
    println!(
        "timed out (first {}): {:#?}",
        tally.timeouts.len(),
        tally.timeouts
    );
    println!("\nper construct: lines, ran rm, past the checker");
    for (label, c) in &tally.labels {
        println!(
            "  {:>7} {:>7} {:>7}  {label:?}",
            c.lines, c.ran_rm, c.failed
        );
    }
    let mut picked: Vec<(String, Breach)> = shortest
        .values()
        .flat_map(|f| f.breaches.iter().map(|&b| (f.line.clone(), b)))
        .collect();
    picked.sort_by_key(|(line, breach)| (line.len(), line.clone(), *breach));
    picked.dedup();
    println!(
        "\nshortest failure per construct: {} lines; minimizing up to {to_minimize}",
        picked.len()
    );
    let mut minimized: BTreeMap<String, Vec<Breach>> = BTreeMap::new();
    for (line, breach) in picked.into_iter().take(to_minimize) {
        let small = minimize(&mut sandbox, &oracle, &line, breach).expect("the sandbox runs");
        println!("  {line:?} -> {small:?} ({breach:?})");
        minimized.entry(small).or_default().push(breach);
    }
    println!("\nminimized failures ({}):", minimized.len());
    for (line, breaches) in &minimized {
        println!("  {line:?}  {breaches:?}");
    }
}
