//! The grammar of generated command lines: ways for bash to run `rm`, and harmless commands
//! around them.
//!
//! A quarter of the lines hold only `echo` and assignments (`X='$(rm t)'; echo ${X@P}`), for
//! the allow rule `Bash(echo:*)`. The others are a list of statements joined by separators;
//! one or more of them tries to run `rm` (a *payload*), the others are fillers (`echo hi`,
//! `cd .`, `A=1`, decoys such as `echo rm t`). A payload is one of:
//!
//! - a simple command: `rm` spelled directly, quoted, escaped, by path, by glob or brace
//!   expansion, behind assignments and redirections, behind up to three wrappers
//!   ([`vocab::WRAPPERS`]), or a shell, `eval`, `su -c`, `script -c`, `flock -c` running a
//!   nested line (quoted one of four ways);
//! - a variable holding `rm`, set one of many ways (`read`, `printf -v`, `declare -n`, arrays,
//!   `set --`) and expanded as the command word;
//! - a compound command holding a nested list (subshell, brace group, `if`, `while`, `until`,
//!   `for`, `case`, a function, `coproc`, `time`, `!`, pipelines);
//! - text that bash itself evaluates: a variable holding `a[$(LIST)]` (or `$(LIST)`) read in
//!   an arithmetic context or subscript (`(( ))`, `$(( ))`, `let`, `declare -i`, `[[ -eq ]]`,
//!   `${a[x]}`, `${z:x}`, `for ((`, `printf -v`, `read`, `test -v`, `${!x}`, `${x@P}`), or the
//!   same text quoted in place;
//! - a builtin or context that runs text (`trap`, `PS4` with `set -x`, `mapfile -C`,
//!   `hash -p`, `alias` with `expand_aliases`, `source`, a script file, stdin, `BASH_ENV`,
//!   `.bashrc` of an interactive shell, `compgen -C`/`-W`, `bind -x`, `coproc`,
//!   `command`/`builtin`/`exec`/`enable`), `xargs`, `find -exec`.
//!
//! Every vocabulary entry chosen (a wrapper, a template, a spelling of `rm`) is recorded as a
//! label, so failures can be grouped by what they used.
//! Generation is pure: the same bytes give the same line.

use super::super::Gen;
use super::vocab;

/// Nested lines deeper than this are not generated (the splitter gives up at 3).
const MAX_NEST: usize = 4;
/// Statements of one list at most.
const MAX_STATEMENTS: usize = 4;

/// A generated command line and the constructs it used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line, as given to `bash -c`.
    pub text: String,
    /// The constructs used, in the order they were chosen (a construct used twice is listed
    /// twice).
    pub labels: Vec<&'static str>,
}

/// Generates one line from `g`; `installed` says whether an optional program (`sudo`,
/// `busybox`) may be used.
pub fn line(g: &mut Gen<'_>, installed: &dyn Fn(&str) -> bool) -> Line {
    let mut grammar = Grammar {
        g,
        labels: Vec::new(),
        installed,
        budget: 6,
        files: 0,
    };
    let mut text = if grammar.g.chance(1, 4) {
        grammar.echo_line()
    } else {
        grammar.list(0)
    };
    if grammar.g.chance(1, 16) {
        text.push_str(grammar.pick(vocab::TRAILERS));
    }
    Line {
        text,
        labels: grammar.labels,
    }
}

struct Grammar<'g, 'a> {
    g: &'g mut Gen<'a>,
    labels: Vec<&'static str>,
    installed: &'g dyn Fn(&str) -> bool,
    /// Compound constructs left; at 0 only simple commands are generated.
    budget: usize,
    /// Script files named so far.
    files: usize,
}

impl Grammar<'_, '_> {
    fn label(&mut self, label: &'static str) {
        self.labels.push(label);
    }

    /// One of `items`.
    fn pick(&mut self, items: &[&'static str]) -> &'static str {
        self.g.pick::<&str>(items)
    }

    /// One of `items`, recorded as a label.
    fn choose(&mut self, items: &[&'static str]) -> &'static str {
        let item = self.pick(items);
        self.label(item);
        item
    }

    /// A list: fillers and at least one payload, joined by separators.
    fn list(&mut self, nest: usize) -> String {
        let count = 1 + self.g.below(MAX_STATEMENTS);
        let payload_at = self.g.below(count);
        let mut out = String::new();
        for i in 0..count {
            if i > 0 {
                out.push_str(self.pick(vocab::SEPARATORS));
            }
            let statement = if i == payload_at || self.g.chance(1, 4) {
                self.payload(nest)
            } else {
                self.filler()
            };
            out.push_str(&statement);
        }
        out
    }

    /// Only `echo` and assignments, one of which bash evaluates as it runs them.
    fn echo_line(&mut self) -> String {
        let inner = self.nested_list(0);
        let (value, triggers): (String, &[&str]) = if self.g.chance(1, 3) {
            (format!("$({inner})"), vocab::ECHO_PROMPT_TRIGGERS)
        } else {
            (format!("a[$({inner})]"), vocab::ECHO_ARITH_TRIGGERS)
        };
        let quoted = self.quote(&value);
        let trigger = self.choose(triggers);
        let sep = self.pick(vocab::SEPARATORS_AFTER_SETUP);
        let mut out = if self.g.chance(1, 4) {
            String::from("echo hi; ")
        } else {
            String::new()
        };
        out.push_str(&format!("X={quoted}{sep}{trigger}"));
        out
    }

    fn filler(&mut self) -> String {
        if self.g.chance(1, 4) {
            self.pick(vocab::DECOYS).to_owned()
        } else {
            self.pick(vocab::FILLERS).to_owned()
        }
    }

    /// A statement that tries to run `rm`.
    fn payload(&mut self, nest: usize) -> String {
        let compound = self.budget > 0;
        if compound {
            self.budget -= 1;
        }
        match self.g.below(if compound { 10 } else { 2 }) {
            0 | 1 => self.simple(nest),
            2 => self.variable(),
            3 => self.compound(nest),
            4 | 5 => self.evaluated(nest),
            6 | 7 => self.builtin(nest),
            8 => self.pipeline(nest),
            _ => self.find(nest),
        }
    }

    /// A simple command running `rm`, possibly behind wrappers, assignments, redirections.
    fn simple(&mut self, nest: usize) -> String {
        let mut words: Vec<String> = Vec::new();
        if self.g.chance(1, 6) {
            words.push(self.choose(vocab::ASSIGNMENTS).to_owned());
        }
        if self.g.chance(1, 8) {
            words.push(self.choose(vocab::REDIRECTIONS).to_owned());
        }
        for _ in 0..self.wrapper_count() {
            let (program, variants) = *self.g.pick(vocab::WRAPPERS);
            if vocab::OPTIONAL.contains(&program) && !(self.installed)(program) {
                continue;
            }
            words.push(self.choose(variants).to_owned());
        }
        words.push(self.target(nest));
        if self.g.chance(1, 6) {
            words.push(self.choose(vocab::REDIRECTIONS).to_owned());
        }
        words.join(" ")
    }

    fn wrapper_count(&mut self) -> usize {
        match self.g.below(8) {
            0..=3 => 0,
            4..=6 => 1,
            _ => 2 + self.g.below(2),
        }
    }

    /// What a wrapper runs: `rm` with arguments, or a shell (or `eval`) running a nested list.
    fn target(&mut self, nest: usize) -> String {
        if nest < MAX_NEST && self.g.chance(1, 4) {
            let template = self.choose(vocab::NESTERS);
            let inner = self.list(nest + 1);
            let quoted = self.quote(&inner);
            return fill(template, &[("{}", &quoted)]);
        }
        if self.g.chance(1, 12) {
            let inner = format!("{} t", self.rm_word());
            let quoted = self.quote(&inner);
            self.label("env -S {}");
            return format!("env -S {quoted}");
        }
        self.rm_command()
    }

    /// `rm` spelled some way, with arguments.
    fn rm_command(&mut self) -> String {
        let word = self.rm_word();
        let args = self.pick(vocab::RM_ARGS);
        if args.is_empty() {
            word
        } else {
            format!("{word} {args}")
        }
    }

    fn rm_word(&mut self) -> String {
        self.choose(vocab::RM_SPELLINGS).to_owned()
    }

    /// A variable set to `rm` and expanded as the command word.
    fn variable(&mut self) -> String {
        let (set, uses) = *self.g.pick(vocab::VARIABLES);
        self.label(set);
        let use_ = self.choose(uses);
        let args = self.pick(vocab::RM_ARGS);
        let sep = self.pick(vocab::SEPARATORS_AFTER_SETUP);
        format!("{set}{sep}{use_} {args}").trim_end().to_owned()
    }

    /// A compound command around a nested list.
    fn compound(&mut self, nest: usize) -> String {
        let template = self.choose(vocab::COMPOUNDS);
        let inner = self.list(nest);
        fill(template, &[("{}", &inner)])
    }

    /// A variable holding text that bash evaluates in an arithmetic context or subscript.
    fn evaluated(&mut self, nest: usize) -> String {
        let inner = self.nested_list(nest);
        let (value, triggers): (String, &[&str]) = if self.g.chance(1, 4) {
            (format!("$({inner})"), vocab::PROMPT_TRIGGERS)
        } else {
            (format!("a[$({inner})]"), vocab::ARITH_TRIGGERS)
        };
        let quoted = self.quote(&value);
        if self.g.chance(1, 3) {
            // The text in place, quoted: `let 'a[$(rm t)]'`.
            let template = self.choose(vocab::IN_PLACE);
            return fill(template, &[("{}", &quoted)]);
        }
        let set = fill(self.choose(vocab::SETTERS), &[("{}", &quoted)]);
        let trigger = self.choose(triggers);
        let sep = self.pick(vocab::SEPARATORS_AFTER_SETUP);
        format!("{set}{sep}{trigger}")
    }

    /// A nested list for text that is run later; a plain `rm t` when nesting is at its limit.
    fn nested_list(&mut self, nest: usize) -> String {
        if nest < MAX_NEST && self.g.chance(1, 3) {
            self.list(nest + 1)
        } else {
            self.rm_command()
        }
    }

    /// A builtin or context that runs text.
    fn builtin(&mut self, nest: usize) -> String {
        let template = self.choose(vocab::TEXT_RUNNERS);
        // Only what the template uses is generated, so the labels name only what is there.
        let has = |placeholder: &str| template.contains(placeholder);
        if !has("{}") && !has("{raw}") && !has("{sub}") {
            return template.to_owned();
        }
        let inner = self.nested_list(nest);
        let quoted = if has("{}") {
            self.quote(&inner)
        } else {
            String::new()
        };
        let sub = if has("{sub}") {
            self.quote(&format!("$({inner})"))
        } else {
            String::new()
        };
        self.files += 1;
        let file = format!("s{}", self.files);
        fill(
            template,
            &[
                ("{raw}", &inner),
                ("{sub}", &sub),
                ("{file}", &file),
                ("{}", &quoted),
            ],
        )
    }

    /// `rm` fed by a pipe (`xargs`) or at the end of a pipeline.
    fn pipeline(&mut self, nest: usize) -> String {
        let template = self.choose(vocab::PIPELINES);
        let simple = self.simple(nest);
        fill(template, &[("CMD", &simple)])
    }

    /// `find … -exec` running a simple command.
    fn find(&mut self, nest: usize) -> String {
        let template = self.choose(vocab::FINDS);
        let simple = self.simple(nest);
        fill(template, &[("CMD", &simple)])
    }

    /// `text` as one shell word, quoted one of four ways.
    fn quote(&mut self, text: &str) -> String {
        match self.g.below(if text.contains('\n') { 3 } else { 4 }) {
            0 => {
                self.label("single quotes");
                format!("'{}'", text.replace('\'', r"'\''"))
            }
            1 => {
                self.label("double quotes");
                let mut out = String::from("\"");
                for c in text.chars() {
                    if matches!(c, '\\' | '"' | '$' | '`') {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push('"');
                out
            }
            2 => {
                self.label("ANSI-C quotes");
                let mut out = String::from("$'");
                for c in text.chars() {
                    match c {
                        '\\' | '\'' => {
                            out.push('\\');
                            out.push(c);
                        }
                        '\n' => out.push_str("\\n"),
                        _ => out.push(c),
                    }
                }
                out.push('\'');
                out
            }
            _ => {
                self.label("backslashes");
                let mut out = String::new();
                for c in text.chars() {
                    if !c.is_ascii_alphanumeric() && !matches!(c, '-' | '_' | '/' | '.') {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out
            }
        }
    }
}

/// `template` with each placeholder replaced by its text, in one pass (text put in is not
/// searched again, so a nested `find … {}` stays as it is).
fn fill(template: &str, with: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    'scan: while !rest.is_empty() {
        for (placeholder, text) in with {
            if let Some(after) = rest.strip_prefix(placeholder) {
                out.push_str(text);
                rest = after;
                continue 'scan;
            }
        }
        let mut chars = rest.chars();
        out.extend(chars.next());
        rest = chars.as_str();
    }
    out
}
