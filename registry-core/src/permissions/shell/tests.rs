use super::*;
use proptest::prelude::*;

/// A top-level command with these forms, `text` first.
fn cmd(forms: &[&str]) -> SimpleCommand {
    let forms: Vec<String> = forms.iter().map(|f| f.to_string()).collect();
    let text = forms.first().cloned().unwrap_or_default();
    SimpleCommand {
        text,
        forms,
        nested: false,
        writes_files: false,
        read_only: false,
        reads: Vec::new(),
        may_run_arguments: false,
        argument_forms: Vec::new(),
    }
}

/// What these tests compare of a command: its text, forms, nesting and file writes (the
/// classes have tests of their own).
fn shape(commands: Vec<SimpleCommand>) -> Vec<(String, Vec<String>, bool, bool)> {
    commands
        .into_iter()
        .map(|c| (c.text, c.forms, c.nested, c.writes_files))
        .collect()
}

fn nested(forms: &[&str]) -> SimpleCommand {
    SimpleCommand {
        nested: true,
        ..cmd(forms)
    }
}

#[track_caller]
fn parses(line: &str, expected: &[SimpleCommand]) {
    assert_eq!(
        split(line).map(shape),
        Ok(shape(expected.to_vec())),
        "{line:?}"
    );
}

/// Each line is one top-level command with these forms.
#[track_caller]
fn parse_each(cases: &[(&str, &[&str])]) {
    for (line, forms) in cases {
        parses(line, &[cmd(forms)]);
    }
}

/// The forms of each command of `line`, ignoring the other fields.
#[track_caller]
fn forms_of(line: &str) -> Vec<Vec<String>> {
    split(line).unwrap().into_iter().map(|c| c.forms).collect()
}

#[track_caller]
fn rejects(line: &str, reason: &'static str, offset: usize) {
    assert_eq!(
        split(line),
        Err(NotUnderstood { reason, offset }),
        "{line:?}"
    );
}

#[track_caller]
fn rejects_each(reason: &'static str, cases: &[(&str, usize)]) {
    for (line, offset) in cases {
        rejects(line, reason, *offset);
    }
}

#[test]
fn empty_or_comment_only_line_gives_no_commands() {
    for line in ["", "   ", "\n\t\n", "# rm x", "  # rm x\n# ls"] {
        parses(line, &[]);
    }
}

#[test]
fn comment_is_ignored() {
    parses("ls # rm x", &[cmd(&["ls"])]);
    parses("ls;# rm x\nrm y", &[cmd(&["ls"]), cmd(&["rm y"])]);
}

#[test]
fn hash_inside_a_word_is_not_a_comment() {
    parse_each(&[("echo a#b '#c'", &["echo a#b #c"])]);
}

#[test]
fn leading_space_does_not_hide_the_command() {
    parse_each(&[(" rm x", &["rm x"]), ("\t rm   x  ", &["rm x"])]);
}

#[test]
fn semicolon_splits_commands() {
    parses("echo; rm x", &[cmd(&["echo"]), cmd(&["rm x"])]);
}

#[test]
fn and_list_splits_into_both_commands() {
    parses("true && rm x", &[cmd(&["true"]), cmd(&["rm x"])]);
    parses("true&&rm x", &[cmd(&["true"]), cmd(&["rm x"])]);
}

#[test]
fn or_list_pipes_background_and_newline_split_commands() {
    let five = ["a", "b", "c", "d", "e"].map(|t| cmd(&[t]));
    parses("a || b | c |& d & e", &five);
    parses("a\nb\nc;d&e&", &five);
}

#[test]
fn subshell_parentheses_separate_commands() {
    parses("(rm x)", &[cmd(&["rm x"])]);
    parses(
        "(cd d; rm x) && ls",
        &[cmd(&["cd d"]), cmd(&["rm x"]), cmd(&["ls"])],
    );
    parses("( (a) )", &[cmd(&["a"])]);
}

#[test]
fn brace_group_separates_commands() {
    parses("{ rm x; }", &[cmd(&["rm x"])]);
    parses(
        "{ a; { b; }; } && c",
        &[cmd(&["a"]), cmd(&["b"]), cmd(&["c"])],
    );
}

#[test]
fn brace_after_the_command_word_is_an_argument() {
    parse_each(&[("echo { }", &["echo { }"])]);
}

#[test]
fn keywords_at_command_position_are_stripped() {
    let abc = |names: &[&str]| names.iter().map(|n| cmd(&[n])).collect::<Vec<_>>();
    let line = "if true; then rm x; elif a; then b; else c; fi";
    parses(line, &abc(&["true", "rm x", "a", "b", "c"]));
    parses(
        "while a; do b; done; until c; do d; done",
        &abc(&["a", "b", "c", "d"]),
    );
    parses("! rm x", &abc(&["rm x"]));
    let mut redirected = abc(&["rm x", ":", ""]);
    redirected[2].writes_files = true;
    parses("if ! rm x; then :; fi >out", &redirected);
}

#[test]
fn keyword_elsewhere_is_an_ordinary_word() {
    parse_each(&[
        ("echo if then fi", &["echo if then fi"]),
        ("'if' x", &["if x"]),
    ]);
}

#[test]
fn function_definition_body_is_checked() {
    parses("f() { rm x; }", &[cmd(&["f"]), cmd(&["rm x"])]);
    parses("f () ( rm x )", &[cmd(&["f"]), cmd(&["rm x"])]);
}

#[test]
fn double_semicolon_is_not_understood() {
    rejects_each("case terminator", &[("a;;b", 1), ("a ;& b", 2)]);
}

#[test]
fn compound_commands_are_not_understood() {
    rejects_each(
        "compound command",
        &[
            ("for x in a; do rm $x; done", 0),
            ("case x in a) ls; esac", 0),
            ("select x in a; do ls; done", 0),
            ("function f { rm x; }", 0),
            ("coproc rm x", 0),
            ("echo; for", 6),
        ],
    );
}

#[test]
fn single_quotes_are_literal() {
    parse_each(&[(r#"echo '$(rm) `x` \ "'"#, &[r#"echo $(rm) `x` \ ""#])]);
}

#[test]
fn double_quotes_escape_only_special_characters() {
    parse_each(&[
        (r#"echo "a\$b \"c\" \\ \x \`""#, &[r#"echo a$b "c" \ \x `"#]),
        ("echo \"a\\\nb\"", &["echo ab"]),
    ]);
}

#[test]
fn backslash_escaped_command_word_is_unquoted() {
    parse_each(&[(r"\rm x", &["rm x"]), (r"r\m \\x", &[r"rm \x"])]);
}

#[test]
fn backslash_newline_is_a_line_continuation() {
    parse_each(&[("r\\\nm x", &["rm x"]), ("rm \\\n x", &["rm x"])]);
}

#[test]
fn adjacent_quoted_pieces_form_one_word() {
    parse_each(&[
        ("r'm' x", &["rm x"]),
        ("\"r\"m x", &["rm x"]),
        ("r\"\"m x", &["rm x"]),
    ]);
}

#[test]
fn quoted_command_word_is_unquoted() {
    parse_each(&[("'rm' x", &["rm x"]), ("\"rm\" x", &["rm x"])]);
}

#[test]
fn redirection_targets_are_not_words() {
    for op in ["<", ">", ">>", "<>", ">|", "&>", "&>>", "<<<", ">&", "<&"] {
        for line in [format!("rm x {op} out"), format!("rm x{op}out")] {
            assert_eq!(forms_of(&line), [["rm x"]], "{line:?}");
        }
    }
    for redir in [
        "2>err", "2>> err", "1<in", "2>&1", ">&-", ">&2", "3<>f", "0<&-",
    ] {
        let line = format!("rm {redir} x");
        assert_eq!(forms_of(&line), [["rm x"]], "{line:?}");
    }
}

#[test]
fn redirection_before_the_command_word_is_removed() {
    assert_eq!(forms_of(">out rm x"), [["rm x"]]);
    parse_each(&[("2>/dev/null rm x", &["rm x"])]);
}

#[test]
fn output_redirection_to_a_file_is_noted() {
    let writes = |line: &str| {
        split(line)
            .unwrap()
            .iter()
            .map(|c| c.writes_files)
            .collect::<Vec<_>>()
    };
    for line in [
        "ls > out",
        "ls >> log",
        "ls &> f",
        "ls 2>err",
        "ls >| f",
        "ls 3<>f",
        "ls >&f",
    ] {
        assert_eq!(writes(line), [true], "{line:?}");
    }
    for line in [
        "ls < in",
        "ls 2>&1",
        "ls >&-",
        "ls > /dev/null",
        "ls <<< word",
    ] {
        assert_eq!(writes(line), [false], "{line:?}");
    }
    assert_eq!(writes("ls > out; pwd"), [true, false]);
}

#[test]
fn redirections_without_a_command_are_a_command_of_their_own() {
    let mut alone = cmd(&[""]);
    alone.writes_files = true;
    parses("x=1 >out", &[alone.clone()]);
    parses("> out", &[alone.clone()]);
    parses("{ ls; } > out", &[cmd(&["ls"]), alone.clone()]);
    parses("(ls) >out", &[cmd(&["ls"]), alone]);
    parses("< in", &[cmd(&[""])]);
}

#[test]
fn quoted_or_separated_digits_are_words_not_fd_numbers() {
    assert_eq!(forms_of("echo '2'>x"), [["echo 2"]]);
    assert_eq!(forms_of("echo 2 >x"), [["echo 2"]]);
}

#[test]
fn redirection_without_target_is_not_understood() {
    rejects_each(
        "missing redirection target",
        &[("rm >", 3), ("rm > ; ls", 3), ("rm 2>&", 4)],
    );
}

#[test]
fn leading_assignment_is_kept_in_text_and_dropped_in_a_form() {
    parse_each(&[
        ("x=1 rm x", &["x=1 rm x", "rm x"]),
        ("A=1 B=\"$HOME\" rm", &["A=1 B=$HOME rm", "rm"]),
    ]);
}

#[test]
fn assignment_only_command_gives_no_command() {
    parses("a=1 b=2", &[]);
    parses("a=1; rm x", &[cmd(&["rm x"])]);
}

#[test]
fn append_assignment_is_an_assignment() {
    parse_each(&[("a+=1 rm x", &["a+=1 rm x", "rm x"])]);
}

#[test]
fn quoted_or_invalid_name_is_not_an_assignment() {
    parse_each(&[
        ("'a'=1 x", &["a=1 x"]),
        (r"a\=1 x", &["a=1 x"]),
        ("1a=2 x", &["1a=2 x"]),
        ("a-b=1 x", &["a-b=1 x"]),
    ]);
}

#[test]
fn assignment_after_the_command_word_is_an_argument() {
    parse_each(&[("rm a=1", &["rm a=1"])]);
}

#[test]
fn absolute_path_command_has_its_base_name_as_a_form() {
    parse_each(&[
        ("/bin/rm x", &["/bin/rm x", "rm x"]),
        ("./rm", &["./rm", "rm"]),
        ("dir/", &["dir/"]),
    ]);
}

#[test]
fn sudo_is_a_wrapper() {
    parse_each(&[("sudo rm x", &["sudo rm x", "rm x"])]);
}

#[test]
fn every_wrapper_is_dropped_in_a_form() {
    for w in ["doas", "command", "builtin", "exec", "nohup", "time"] {
        parse_each(&[(&format!("{w} rm x"), &[&format!("{w} rm x"), "rm x"])]);
    }
    parse_each(&[
        ("env rm x", &["env rm x", "rm x"]),
        ("nice rm x", &["nice rm x", "rm x"]),
        ("nice -n 5 rm x", &["nice -n 5 rm x", "rm x"]),
        ("timeout 10 rm x", &["timeout 10 rm x", "rm x"]),
    ]);
}

#[test]
fn words_with_equals_after_a_wrapper_are_dropped_with_it() {
    parse_each(&[
        ("env A=1 B=2 rm x", &["env A=1 B=2 rm x", "rm x"]),
        ("env foo-bar=1 rm", &["env foo-bar=1 rm", "rm"]),
        ("sudo A=1 rm", &["sudo A=1 rm", "rm"]),
        ("env A=\"$X\" rm", &["env A=$X rm", "rm"]),
    ]);
}

#[test]
fn forms_combine_assignments_wrappers_and_base_names() {
    let forms = [
        "x=1 /usr/bin/sudo nice /bin/rm -f y",
        "x=1 sudo nice /bin/rm -f y",
        "/usr/bin/sudo nice /bin/rm -f y",
        "sudo nice /bin/rm -f y",
        "x=1 nice /bin/rm -f y",
        "nice /bin/rm -f y",
        "x=1 /bin/rm -f y",
        "x=1 rm -f y",
        "/bin/rm -f y",
        "rm -f y",
    ];
    parse_each(&[("x=1 /usr/bin/sudo nice /bin/rm -f y", &forms)]);
}

#[test]
fn wrapper_is_recognized_by_its_base_name() {
    parse_each(&[(
        "/usr/bin/env rm x",
        &["/usr/bin/env rm x", "env rm x", "rm x"],
    )]);
}

#[test]
fn wrapper_alone_is_the_command() {
    parse_each(&[
        ("sudo", &["sudo"]),
        ("env A=1", &["env A=1"]),
        ("timeout 5", &["timeout 5"]),
    ]);
}

#[test]
fn stdbuf_is_not_a_wrapper() {
    parse_each(&[("stdbuf -o0 rm x", &["stdbuf -o0 rm x"])]);
}

#[test]
fn wrapper_option_is_not_understood() {
    rejects_each(
        "wrapper option",
        &[
            ("sudo -u root rm x", 5),
            ("env -i rm", 4),
            ("nice -10 rm", 5),
            ("timeout -s KILL 1 rm", 8),
            ("command -v rm", 8),
            ("sudo -- rm", 5),
            ("time -p rm", 5),
            ("env A=1 -u B rm", 8),
        ],
    );
}

#[test]
fn expansion_consumed_by_a_wrapper_is_not_understood() {
    let cases = [
        ("env A=$X rm", 4),
        ("timeout $T rm", 8),
        ("nice -n $N rm", 8),
        ("sudo A=* rm", 5),
    ];
    rejects_each("expansion in wrapper argument", &cases);
}

#[test]
fn reserved_word_after_a_wrapper_is_not_understood() {
    rejects_each(
        "reserved word after wrapper",
        &[("time if rm x; then :; fi", 5), ("sudo { rm x; }", 5)],
    );
}

#[test]
fn more_than_eight_wrappers_is_not_understood() {
    let eight = format!("{}rm", "nohup ".repeat(8));
    assert_eq!(
        split(&eight).map(|c| c.iter().map(|c| c.forms.len()).sum::<usize>()),
        Ok(9)
    );
    rejects(
        &format!("{}rm", "nohup ".repeat(9)),
        "too many wrappers",
        48,
    );
}

#[test]
fn parameter_expansion_in_command_word_is_not_understood() {
    let cases = [
        ("$X a", 0),
        ("${X} a", 0),
        ("\"$1\" a", 0),
        ("sudo $X", 5),
        ("x=1 r$X", 4),
    ];
    rejects_each("parameter expansion in command word", &cases);
}

#[test]
fn parameter_expansion_in_arguments_is_kept_as_written() {
    parse_each(&[(
        "rm $HOME ${X} \"$1\" $? $@ a$ $",
        &["rm $HOME ${X} $1 $? $@ a$ $"],
    )]);
}

#[test]
fn complex_parameter_expansion_is_not_understood() {
    rejects_each(
        "complex parameter expansion",
        &[("rm ${X:-$(y)}", 3), ("rm \"${X:-a b}\"", 4)],
    );
    rejects("rm ${X", "unterminated parameter expansion", 3);
}

#[test]
fn glob_in_command_word_is_not_understood() {
    rejects_each(
        "glob in command word",
        &[("r* x", 0), ("?m", 0), ("[r]m", 0), ("[x", 0)],
    );
    parse_each(&[("'r*' x", &["r* x"])]);
}

#[test]
fn test_brackets_are_commands_not_globs() {
    parse_each(&[("[ -f x ]", &["[ -f x ]"]), ("[[ -f x ]]", &["[[ -f x ]]"])]);
}

#[test]
fn glob_in_arguments_is_kept() {
    parse_each(&[("rm *.txt [ab]? {a,b}", &["rm *.txt [ab]? {a,b}"])]);
}

#[test]
fn brace_expansion_in_command_word_is_not_understood() {
    rejects_each(
        "brace expansion in command word",
        &[("{rm,ls} x", 0), ("r{m,} x", 0)],
    );
}

#[test]
fn redirection_that_names_its_descriptor_is_not_understood() {
    // `{PATH}<f` assigns the descriptor's number to PATH.
    rejects_each(
        "redirection that assigns a variable",
        &[("{fd}>f rm", 4), ("ls {PATH}</dev/null", 9)],
    );
}

#[test]
fn whitespace_in_command_word_is_not_understood() {
    rejects_each(
        "whitespace in command word",
        &[("'rm x' y", 0), ("sudo \"rm\tx\"", 5)],
    );
}

#[test]
fn command_substitution_is_not_understood() {
    let cases = [
        ("echo $(rm x)", 5),
        ("echo `rm x`", 5),
        ("echo \"$(rm)\"", 6),
        ("echo \"a`rm`\"", 7),
    ];
    rejects_each("command substitution", &cases);
}

#[test]
fn arithmetic_is_not_understood() {
    rejects_each(
        "arithmetic expansion",
        &[("echo $((1+2))", 5), ("echo $[x]", 5), ("echo \"$[x]\"", 6)],
    );
    rejects("((x++))", "arithmetic command", 0);
}

#[test]
fn process_substitution_is_not_understood() {
    rejects_each(
        "process substitution",
        &[("diff <(ls) x", 5), ("tee >(rm x)", 4)],
    );
}

#[test]
fn ansi_c_and_locale_quoting_is_not_understood() {
    rejects_each(
        "ANSI-C or locale quoting",
        &[("$'rm' x", 0), ("echo $\"x\"", 5)],
    );
    parse_each(&[("echo \"$'\"", &["echo $'"])]);
}

#[test]
fn heredoc_is_not_understood() {
    rejects_each("heredoc", &[("cat <<EOF\nrm x\nEOF", 4), ("cat <<-EOF", 4)]);
}

#[test]
fn here_string_is_a_redirection() {
    parse_each(&[("cat <<< 'rm x'", &["cat"])]);
}

#[test]
fn unterminated_quote_is_not_understood() {
    rejects_each(
        "unterminated quote",
        &[("echo 'a", 5), ("echo \"a", 5), ("echo \"a\\\"", 5)],
    );
}

#[test]
fn trailing_backslash_is_not_understood() {
    rejects("rm x \\", "trailing backslash", 5);
}

#[test]
fn unbalanced_parentheses_and_braces_are_not_understood() {
    rejects_each("unbalanced )", &[("rm x)", 4), ("{ rm x )", 7)]);
    rejects_each("unbalanced }", &[("rm x; }", 6), ("( rm; }", 6)]);
    rejects("ls; (rm x", "unbalanced (", 4);
    rejects("{ rm x }", "unbalanced {", 0);
}

#[test]
fn parenthesis_inside_a_command_is_not_understood() {
    rejects_each(
        "unexpected parenthesis",
        &[("echo (x)", 5), ("a=() rm", 2), ("f (x)", 2)],
    );
}

#[test]
fn bash_dash_c_argument_is_parsed_as_nested() {
    parses(
        "bash -c 'rm x'",
        &[cmd(&["bash -c rm x"]), nested(&["rm x"])],
    );
    parses(
        "sh -c 'a; rm x' zero one",
        &[
            cmd(&["sh -c a; rm x zero one"]),
            nested(&["a"]),
            nested(&["rm x"]),
        ],
    );
}

#[test]
fn shell_option_cluster_with_c_is_parsed() {
    for line in [
        "sh -xc 'rm x'",
        "zsh -ec 'rm x'",
        "dash -e -c 'rm x'",
        "ksh -c -- 'rm x'",
        "bash -o pipefail -ec 'rm x'",
        "sh -co errexit 'rm x'",
    ] {
        let outer = line.replace('\'', "");
        parses(line, &[cmd(&[&outer]), nested(&["rm x"])]);
    }
    parses(
        "/bin/bash -xc 'rm x'",
        &[
            cmd(&["/bin/bash -xc rm x", "bash -xc rm x"]),
            nested(&["rm x"]),
        ],
    );
}

#[test]
fn shell_that_runs_a_file_or_reads_its_input_is_not_understood() {
    rejects_each(
        "shell that runs a script file",
        &[
            ("bash script.sh", 5),
            ("bash -x s.sh -c x", 8),
            ("bash -o posix s.sh -c x", 14),
            ("sh - -c", 5),
        ],
    );
    rejects_each(
        "shell that reads commands from its input",
        &[("sh", 0), ("echo rm x | bash", 12), ("ls; bash -x", 4)],
    );
    rejects_each(
        "shell that reads startup files or its input",
        &[("sh -lc 'rm x'", 3), ("bash -ic :", 5), ("bash -s", 5)],
    );
}

#[test]
fn shell_option_that_is_not_understood() {
    rejects_each(
        "shell option",
        &[("bash --login -c 'rm'", 5), ("bash -x1 -c 'rm'", 5)],
    );
    rejects("bash -c", "shell -c without a command string", 5);
    rejects("bash $X -c 'rm x'", "expansion in shell arguments", 5);
    rejects_each(
        "expansion in nested command",
        &[("bash -c \"$X\"", 8), ("bash -c \"r$X\"", 8)],
    );
}

#[test]
fn eval_words_are_parsed_as_nested() {
    parses("eval rm x", &[cmd(&["eval rm x"]), nested(&["rm x"])]);
    parses(
        "eval \"ls; rm x\"",
        &[cmd(&["eval ls; rm x"]), nested(&["ls"]), nested(&["rm x"])],
    );
    parses("eval", &[cmd(&["eval"])]);
}

#[test]
fn eval_with_expansion_or_option_is_not_understood() {
    rejects("eval rm $X", "expansion in nested command", 8);
    rejects("eval -- rm", "eval option", 5);
}

#[test]
fn xargs_command_is_nested() {
    parses(
        "ls | xargs rm -f",
        &[cmd(&["ls"]), cmd(&["xargs rm -f"]), nested(&["rm -f"])],
    );
    parses(
        "xargs sudo /bin/rm",
        &[
            cmd(&["xargs sudo /bin/rm"]),
            nested(&["sudo /bin/rm", "/bin/rm", "rm"]),
        ],
    );
}

#[test]
fn bare_xargs_runs_echo() {
    parses("xargs", &[cmd(&["xargs"]), nested(&["echo"])]);
}

#[test]
fn xargs_option_is_not_understood() {
    rejects("ls | xargs -0 rm", "xargs option", 11);
}

#[test]
fn find_exec_command_is_nested() {
    parses(
        r"find . -exec rm {} \;",
        &[cmd(&["find . -exec rm {} ;"]), nested(&["rm {}"])],
    );
    let line = "find . -execdir rm {} + -ok ls ';' -okdir echo + x \\;";
    let outer = "find . -execdir rm {} + -ok ls ; -okdir echo + x ;";
    parses(
        line,
        &[
            cmd(&[outer]),
            nested(&["rm {}"]),
            nested(&["ls"]),
            nested(&["echo + x"]),
        ],
    );
}

#[test]
fn find_that_is_not_understood() {
    rejects("find . -exec rm {}", "unterminated find -exec", 7);
    rejects("find . -exec rm {} ; ls", "unterminated find -exec", 7);
    rejects_each(
        "expansion in find arguments",
        &[("find $D -delete", 5), ("find . -name *.txt", 13)],
    );
    rejects(
        r#"find . -exec "$X" {} \;"#,
        "parameter expansion in command word",
        13,
    );
}

#[test]
fn nested_commands_follow_their_container() {
    let line = "sudo bash -c 'rm a; ls' && xargs rm";
    let expected = [
        cmd(&["sudo bash -c rm a; ls", "bash -c rm a; ls"]),
        nested(&["rm a"]),
        nested(&["ls"]),
        cmd(&["xargs rm"]),
        nested(&["rm"]),
    ];
    parses(line, &expected);
}

#[test]
fn nesting_deeper_than_three_levels_is_not_understood() {
    let three = r#"bash -c "bash -c 'bash -c \"rm x\"'""#;
    let expected = [
        cmd(&[r#"bash -c bash -c 'bash -c "rm x"'"#]),
        nested(&[r#"bash -c bash -c "rm x""#]),
        nested(&["bash -c rm x"]),
        nested(&["rm x"]),
    ];
    parses(three, &expected);
    rejects(
        r#"bash -c "bash -c 'bash -c \"bash -c rm\"'""#,
        "nesting too deep",
        8,
    );
    assert_eq!(split("eval eval eval rm").map(|c| c.len()), Ok(4));
    rejects("eval eval eval eval rm", "nesting too deep", 15);
    rejects(
        r"xargs xargs find -exec xargs rm \;",
        "nesting too deep",
        23,
    );
}

#[test]
fn nested_error_reports_the_outer_word_offset() {
    rejects("echo; bash -c 'ls $(x)'", "command substitution", 14);
    rejects("eval ls 'a;;'", "case terminator", 8);
}

#[test]
fn not_understood_displays_reason_and_offset() {
    let e = NotUnderstood {
        reason: "heredoc",
        offset: 4,
    };
    assert_eq!(e.to_string(), "heredoc at byte 4");
}

#[test]
fn every_bypass_of_a_raw_text_match_is_caught() {
    let lines = [
        " rm x",
        "true && rm x",
        "echo; rm x",
        "/bin/rm x",
        "\\rm x",
        "'rm' x",
        "sudo rm x",
        "bash -c 'rm x'",
        "x=1 rm x",
        "(rm x)",
        "ls | xargs rm",
        "find . -exec rm {} \\;",
    ];
    for line in lines {
        let found = split(line).is_ok_and(|cmds| {
            cmds.iter()
                .any(|c| c.forms.iter().any(|f| f == "rm" || f.starts_with("rm ")))
        });
        assert!(found, "{line:?}");
    }
}

/// Long inputs of every construct are split without recursing per level or panicking (their
/// cost per byte is measured in `benches/worst_case.rs`, not asserted here).
#[test]
fn long_inputs_are_split_without_recursion_or_panic() {
    let n = 100_000;
    let lines = [
        "a;".repeat(n),
        "( ".repeat(n),
        "'".repeat(2 * n + 1),
        "${".repeat(n),
        "x ".repeat(n),
        format!("env {}rm", "A=1 ".repeat(n)),
        format!("bash -c '{}'", "eval a; ".repeat(n)),
        format!("find {}", "-exec a ; ".repeat(n)),
        "\\\n".repeat(n),
        "#".repeat(n),
    ];
    for line in &lines {
        let _ = split(line);
    }
}

/// Words that `split` treats specially in command position.
fn plain_word() -> impl Strategy<Value = String> {
    "[a-z]{1,8}".prop_filter("a special word", |w| {
        let w = w.as_str();
        let special = [
            &KEYWORDS[..],
            &COMPOUND,
            &WRAPPERS,
            &SHELLS,
            &["eval", "xargs", "find"],
        ];
        // Builtins that evaluate text are not understood whatever follows them.
        !special.iter().any(|list| list.contains(&w)) && split(w).is_ok()
    })
}

const SEPARATORS: [&str; 7] = [";", "&&", "||", "|", "\n", "|&", "&"];
const UNITS: [&str; 20] = [
    "rm x",
    "sudo rm -f 'a b'",
    "\\rm x",
    "x=1 /bin/rm \"q\" $HOME",
    ">out ls 2>&1",
    "bash -c 'ls; rm x'",
    "eval rm x",
    "xargs rm",
    "find . -exec rm {} \\;",
    "{",
    "}",
    "(",
    ")",
    "if",
    "then",
    "fi",
    "echo $(x)",
    "cat <<< s",
    "r* x",
    "nice -n 5 ls",
];

proptest! {
    #[test]
    fn split_never_panics(line in ".*") {
        let _ = split(&line);
    }

    #[test]
    fn split_never_panics_on_shell_metacharacters(line in r#"[ ;&|()'"\\$`<>#*{}\n a-z/=-]{0,64}"#) {
        let _ = split(&line);
    }

    #[test]
    fn plain_commands_joined_by_separators_come_back(
        commands in prop::collection::vec(
            (prop::collection::vec((plain_word(), " {1,3}"), 1..4), 0..5usize, " {0,3}", " {0,3}"),
            1..6,
        )
    ) {
        let mut line = String::new();
        let mut expected = Vec::new();
        for (i, (words, sep, before, after)) in commands.iter().enumerate() {
            if i > 0 {
                line.push_str(SEPARATORS.get(*sep).copied().unwrap_or(";"));
            }
            line.push_str(before);
            for (word, gap) in words {
                line.push_str(word);
                line.push_str(gap);
            }
            line.push_str(after);
            let text: Vec<&str> = words.iter().map(|(w, _)| w.as_str()).collect();
            expected.push(cmd(&[&text.join(" ")]));
        }
        prop_assert_eq!(split(&line).map(shape), Ok(shape(expected)));
    }

    #[test]
    fn spaces_around_separators_and_at_the_ends_change_nothing(
        parts in prop::collection::vec((0..UNITS.len(), 0..SEPARATORS.len(), " {0,3}", " {0,3}"), 1..6),
        ends in (" {0,3}", " {0,3}"),
    ) {
        let (mut base, mut spaced) = (String::new(), ends.0.clone());
        for (unit, sep, before, after) in &parts {
            let (unit, sep) = (UNITS.get(*unit).copied().unwrap_or(""), SEPARATORS.get(*sep).copied().unwrap_or(";"));
            base.push_str(&format!("{unit} {sep} "));
            spaced.push_str(&format!("{unit} {before}{sep} {after}"));
        }
        spaced.push_str(&ends.1);
        let reason = |line: &str| split(line).map_err(|e| e.reason);
        prop_assert_eq!(reason(&base), reason(&spaced));
    }
}

#[test]
fn a_shell_behind_a_program_that_runs_its_arguments_is_checked_as_one() {
    let commands = split("stdbuf -o0 bash -c 'rm t'").unwrap();
    assert!(commands[0].may_run_arguments);
    assert!(
        commands[0].argument_forms.contains(&"rm t".to_owned()),
        "{commands:?}"
    );
    rejects(
        "prlimit dash -c '${u:-rm} >|o'",
        "parameter expansion in command word",
        16,
    );
    rejects("setsid eval \"$X\"", "expansion in nested command", 12);
}

#[test]
fn an_argument_that_may_be_run_but_cannot_be_checked_is_not_understood() {
    for (line, offset) in [
        ("flock f -c \"trap 'rm t' EXIT\"", 11),
        ("script -q -c \"r${u}m 2>e\" /dev/null", 13),
        ("python3 -c 'print(1); import os'", 11),
    ] {
        let error = split(line).unwrap_err();
        assert_eq!(error.offset, offset, "{line}: {error}");
    }
    // An argument without whitespace is a word, not a command line; a program on the
    // checker's lists is not taken as running its arguments.
    assert!(split("make test").is_ok());
    assert!(split("git commit -m 'fix (edge) case'").is_ok());
}
