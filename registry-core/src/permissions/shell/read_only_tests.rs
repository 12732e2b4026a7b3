//! The read-only list against the ways a line can fool it: each test pins one class.

use super::*;

/// Whether the Bash tool would run `line` unasked: every command of it read-only.
fn read_only(line: &str) -> bool {
    split(line).is_ok_and(|c| !c.is_empty() && c.iter().all(|c| c.read_only))
}

#[track_caller]
fn all_read_only(lines: &[&str]) {
    for line in lines {
        assert!(read_only(line), "{line:?} should be read-only");
    }
}

#[track_caller]
fn none_read_only(lines: &[&str]) {
    for line in lines {
        assert!(!read_only(line), "{line:?} should not be read-only");
    }
}

#[test]
fn attached_output_option_is_not_read_only() {
    none_read_only(&[
        "sort -oout.txt f",
        "sort -o/tmp/x f",
        "sort -uo/tmp/x f",
        "sort -oout f",
    ]);
    all_read_only(&["sort -u f", "sort -k2 -t, f", "sort -nr f"]);
}

#[test]
fn abbreviated_long_option_is_not_read_only() {
    none_read_only(&[
        "sort --outp=out f",
        "sort --out out f",
        "sort --comp=bash f",
        "grep --file-w x f",
        "ls --hyp",
    ]);
    all_read_only(&["sort --unique f", "grep --count x f"]);
}

#[test]
fn option_that_runs_a_program_is_not_read_only() {
    none_read_only(&[
        "sort --compress-program=bash f",
        "sort --compress-program bash f",
        "diff -l a b",
        "rg --pre cat x",
        "rg -z x",
        "file -z f",
        "tree -o out",
        "tree -Lo 1 out",
    ]);
}

#[test]
fn sort_merge_is_not_read_only() {
    // Merging, sort copies an input that is its output too (`/dev/null` for both) to $TMPDIR.
    none_read_only(&["sort -m -", "sort --merge f g", "sort -um f"]);
    all_read_only(&["sort -u f g"]);
}

#[test]
fn unknown_option_is_not_read_only() {
    none_read_only(&["cat --frobnicate f", "ls -%", "wc --files0-from=list"]);
}

#[test]
fn program_run_by_path_is_not_read_only() {
    none_read_only(&["./cat f", "bin/ls", "/bin/ls", "../x/cat f", "~/cat f"]);
}

#[test]
fn path_assignment_earlier_in_the_line_makes_later_commands_ask() {
    none_read_only(&[
        "PATH=/tmp/x; ls",
        "PATH=/tmp/x ls",
        "printf -v PATH %s /tmp/x; ls",
        "printf -vPATH %s /tmp/x; ls",
        "export PATH=/tmp/x; ls",
        "declare PATH=/tmp/x; ls",
        "readonly PATH=/tmp/x; ls",
        "unset PATH; ls",
        "echo ${PATH:=/tmp/x}; ls",
        "eval PATH=/tmp/x; ls",
        "HOME=/tmp/x; git log",
        "GIT_CONFIG_COUNT=0; git log",
    ]);
}

#[test]
fn function_defined_earlier_makes_later_commands_ask() {
    none_read_only(&["ls() { cat /etc/shadow; }; ls", "cat() (true); cat f"]);
}

#[test]
fn dev_tcp_redirection_is_not_read_only() {
    none_read_only(&[
        "cat f 3</dev/tcp/127.0.0.1/80 >&3",
        "cat </dev/tcp/127.0.0.1/80",
        "cat f >/dev/udp/127.0.0.1/53",
        "cat <<< /dev/tcp/127.0.0.1/80",
        "< /dev/tcp/127.0.0.1/80",
    ]);
}

#[test]
fn read_write_or_computed_redirection_is_not_read_only() {
    none_read_only(&[
        "cat 3<>f",
        "cat <$f",
        "cat <~/f",
        "cat < *.txt",
        "ls >&out",
        "ls >/dev/stdout",
        "ls; > out",
        "(ls) > out",
        "{ ls; } > out",
        "if true; then ls; fi > out",
    ]);
    all_read_only(&[
        "cat <f",
        "ls >/dev/null 2>&1",
        "ls 2>&-",
        "ls &>/dev/null",
        "cat <<< x",
    ]);
}

#[test]
fn expansion_that_may_become_an_option_is_not_read_only() {
    none_read_only(&["sort $x", "sort *", "uniq f $x", "sort \"$x\""]);
}

#[test]
fn git_reads_only_in_forms_whose_programs_it_cannot_be_made_to_run() {
    none_read_only(&[
        "git status",
        "git diff",
        "git diff HEAD",
        "git log -p",
        "git show",
        "git blame f",
        "git -c core.pager=sh log",
        "git --help",
        "git log --output=x",
        "git log --format=%G?",
        "git branch new",
        "git describe --dirty",
        "git branch --sort=signature",
        "git tag --sort=-signature:grade",
    ]);
    all_read_only(&[
        "git log --oneline -5",
        "git log -p --no-textconv --no-ext-diff",
        "git show --no-textconv --no-ext-diff HEAD",
        "git diff --cached --no-textconv --no-ext-diff",
        "git diff --no-textconv --no-ext-diff HEAD~1 HEAD --",
        "git rev-parse --show-toplevel",
        "git ls-files",
        "git branch",
        "git branch --sort=-committerdate",
    ]);
}

#[test]
fn find_takes_only_primaries_that_read() {
    none_read_only(&[
        "find . -delete",
        "find . -fprint out",
        "find . -fls out",
        "find . -exec cat {} ;",
        "find -L .",
        "find . -newerXY x",
    ]);
    all_read_only(&[
        "find . -name x -type f",
        "find src -maxdepth 2 -print0",
        "find",
    ]);
}

/// The reads of the one command of `line`, which must be read-only.
#[track_caller]
fn reads(line: &str) -> Vec<Read> {
    let commands = split(line).unwrap();
    assert!(
        commands.iter().all(|c| c.read_only),
        "{line:?}: {commands:?}"
    );
    commands.into_iter().flat_map(|c| c.reads).collect()
}

fn file(path: &str) -> Read {
    Read::Path {
        path: path.into(),
        tree: false,
    }
}

fn tree(path: &str) -> Read {
    Read::Path {
        path: path.into(),
        tree: true,
    }
}

fn unknown(word: &str) -> Read {
    Read::Unknown { word: word.into() }
}

#[test]
fn reads_name_every_file_a_read_only_command_opens() {
    assert_eq!(reads("cat a - b"), [file("a"), file("b")]);
    assert_eq!(reads("ls"), [file(".")]);
    assert_eq!(reads("ls -R src"), [tree("src")]);
    assert_eq!(reads("grep -rn x"), [tree(".")]);
    assert_eq!(reads("grep -f pats -e y a"), [file("pats"), file("a")]);
    assert_eq!(reads("grep x a"), [file("a")]);
    assert_eq!(reads("rg x"), [tree(".")]);
    assert_eq!(reads("du -sh"), [tree(".")]);
    assert_eq!(reads("tree -L 2 d"), [tree("d")]);
    assert_eq!(
        reads("find src -newer stamp -name x"),
        [tree("src"), file("stamp")]
    );
    assert_eq!(reads("find"), [tree(".")]);
    assert_eq!(
        reads("jq --rawfile n f.txt . in.json"),
        [file("f.txt"), file("in.json")]
    );
    assert_eq!(
        reads("jq -f prog.jq in.json"),
        [file("prog.jq"), file("in.json")]
    );
    assert_eq!(reads("diff --from-file=a b"), [file("a"), file("b")]);
    assert_eq!(reads("date -r f +%s"), [file("f")]);
    assert_eq!(reads("wc -l < in"), [file("in")]);
    assert_eq!(
        reads("[ -f a ] && test x -nt y"),
        [file("a"), file("x"), file("y")]
    );
    assert_eq!(reads("echo a b; basename /etc/x; uname -a"), []);
}

#[test]
fn relative_reads_after_cd_are_joined_to_every_directory_reached() {
    assert_eq!(
        reads("cd src && cat x /abs"),
        [file("src"), file("x"), file("src/x"), file("/abs")]
    );
    assert_eq!(
        reads("cd a/../b; cat x"),
        [file("a/../b"), file("x"), file("b/x"), file("a/../b/x")]
    );
    assert_eq!(reads("cd; cat x /y"), [unknown("x"), file("/y")]);
    assert_eq!(reads("cd -; cat x"), [unknown("x")]);
    assert_eq!(
        reads("(cd /etc); ls"),
        [file("/etc"), file("."), file("/etc/.")]
    );
}

#[test]
fn reads_the_checker_cannot_name_are_unknown() {
    assert_eq!(reads("cat -- $f"), [unknown("$f")]);
    // Programs whose words are not paths read nothing an expansion could name.
    assert_eq!(reads("basename \"$f\"; uname $o"), []);
    assert_eq!(reads("cat ~/x"), [unknown("~/x")]);
    assert_eq!(reads("cat x*"), [unknown("x*")]);
    assert_eq!(reads("cat *.rs"), [unknown("*.rs"), unknown("*.rs")]);
    assert_eq!(reads("ls \"$d\""), [unknown("$d"), unknown("$d")]);
    assert!(reads("jq 'import \"m\" as m; .'").contains(&unknown("import \"m\" as m; .")));
}

#[test]
fn git_reads_its_repository() {
    assert_eq!(
        reads("git log --oneline"),
        [Read::Repository { dir: ".".into() }]
    );
    assert_eq!(
        reads("cd sub && git ls-files"),
        [
            file("sub"),
            Read::Repository { dir: ".".into() },
            Read::Repository { dir: "sub".into() }
        ]
    );
}

#[test]
fn variable_set_by_a_redirection_is_not_understood() {
    assert!(split("ls {PATH}</dev/null; ls").is_err());
}

#[test]
fn read_only_names_the_list() {
    for name in READ_ONLY {
        let line = if *name == "[" {
            "[ x ]"
        } else if *name == "[[" {
            "[[ x ]]"
        } else {
            name
        };
        assert!(read_only(line), "{line}");
    }
    for program in programs::PROGRAMS {
        assert!(READ_ONLY.contains(&program.name), "{}", program.name);
    }
}
