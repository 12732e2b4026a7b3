//! The lexer: a command line into words, separators, redirections and parentheses.

use super::{COMPOUND, KEYWORDS, NotUnderstood, nu};

#[derive(Debug, Default)]
pub(super) struct Word {
    pub(super) text: String,
    pub(super) offset: usize,
    /// Length of `text` when the first quote or escape was met.
    pub(super) quoted_at: Option<usize>,
    /// The first expansion met, as the reason it is not understood in a command word.
    pub(super) expansion: Option<&'static str>,
    /// Holds an unquoted expansion.
    pub(super) splits: bool,
    /// Length of `text` when the first expansion (parameter, glob, brace) was met: at `0`,
    /// the word may begin with anything, a `-` included.
    pub(super) expanded_at: Option<usize>,
    /// Holds an unquoted `~` at its start or after `=` or `:`, which bash may replace by a
    /// home directory.
    pub(super) tilde: bool,
    /// Holds an unquoted parameter expansion, whose value bash splits into words that may
    /// begin with anything.
    pub(super) field_splits: bool,
    /// Variables its expansions assign (`${NAME=…}`, `${NAME:=…}`).
    pub(super) assigns: Vec<String>,
}

impl Word {
    pub(super) fn new(text: &str, offset: usize) -> Self {
        Word {
            text: text.to_owned(),
            offset,
            ..Word::default()
        }
    }
    pub(super) fn quote(&mut self) {
        self.quoted_at.get_or_insert(self.text.len());
    }
    pub(super) fn expand(&mut self, e: &'static str, unquoted: bool) {
        self.expansion.get_or_insert(e);
        self.expanded_at.get_or_insert(self.text.len());
        self.splits |= unquoted;
    }
    /// Bash may make it several words, or none (`{}` is no brace expansion).
    pub(super) fn splits(&self) -> bool {
        self.splits && self.text != "{}"
    }
    pub(super) fn is_fd(&self) -> bool {
        let plain = self.quoted_at.is_none() && self.expansion.is_none();
        plain && !self.text.is_empty() && self.text.bytes().all(|b| b.is_ascii_digit())
    }
    /// `{NAME}` right before a redirection: bash assigns the descriptor it opens to `NAME`.
    fn names_a_descriptor(&self) -> bool {
        let name = self
            .text
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'));
        self.quoted_at.is_none()
            && name.is_some_and(|n| {
                !n.is_empty()
                    && !n.starts_with(|c: char| c.is_ascii_digit())
                    && n.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric())
            })
    }
    pub(super) fn reserved(&self) -> bool {
        let t = self.text.as_str();
        self.quoted_at.is_none()
            && (KEYWORDS.contains(&t) || COMPOUND.contains(&t) || ["{", "}", "[["].contains(&t))
    }
}

pub(super) enum Tok {
    Word(Word),
    /// A redirection operator and where it is.
    Redir(usize, &'static str),
    Sep,
    Open(usize),
    Close(usize),
}

/// Operators and blanks, longest first where one is a prefix of another.
const OPERATORS: [&str; 27] = [
    ";;", ";&", "<<<", "<<", "<(", ">(", "((", "&>>", "&>", ">>", ">|", ">&", "<>", "<&", "<", ">",
    "&&", "||", "|&", "|", "&", ";", "\n", "(", ")", " ", "\t",
];

pub(super) struct Lexer<'a> {
    pub(super) s: &'a str,
    pub(super) pos: usize,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        self.s.get(self.pos..).unwrap_or_default()
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    pub(super) fn lex(mut self) -> Result<Vec<Tok>, NotUnderstood> {
        let mut toks = Vec::new();
        let mut word: Option<Word> = None;
        while let Some(c) = self.peek() {
            let (at, rest) = (self.pos, self.rest());
            if rest.starts_with("\\\n") {
                self.pos += 2;
            } else if let Some(op) = OPERATORS.into_iter().find(|op| rest.starts_with(op)) {
                let redir = op.contains(['<', '>']);
                if redir && word.as_ref().is_some_and(Word::names_a_descriptor) {
                    return nu("redirection that assigns a variable", at);
                }
                let fd = redir && word.as_ref().is_some_and(Word::is_fd);
                if let Some(w) = word.take().filter(|_| !fd) {
                    toks.push(Tok::Word(w));
                }
                self.pos += op.len();
                toks.push(match op {
                    " " | "\t" => continue,
                    ";;" | ";&" => return nu("case terminator", at),
                    "<<" => return nu("heredoc", at),
                    "<(" | ">(" => return nu("process substitution", at),
                    "((" => return nu("arithmetic command", at),
                    "(" => Tok::Open(at),
                    ")" => Tok::Close(at),
                    _ if redir => Tok::Redir(at, op),
                    _ => Tok::Sep,
                });
            } else if c == '#' && word.is_none() {
                self.pos = rest.find('\n').map_or(self.s.len(), |i| at + i);
            } else {
                self.word_part(word.get_or_insert_with(|| Word::new("", at)))?;
            }
        }
        toks.extend(word.map(Tok::Word));
        Ok(toks)
    }

    fn word_part(&mut self, w: &mut Word) -> Result<(), NotUnderstood> {
        let at = self.pos;
        match self.bump() {
            Some('\'') => {
                w.quote();
                let Some((body, _)) = self.rest().split_once('\'') else {
                    return nu("unterminated quote", at);
                };
                w.text.push_str(body);
                self.pos += body.len() + 1;
            }
            Some('"') => {
                w.quote();
                self.double_quoted(w, at)?;
            }
            Some('\\') => match self.bump() {
                None => return nu("trailing backslash", at),
                Some('\n') => {}
                Some(c) => {
                    w.quote();
                    w.text.push(c);
                }
            },
            Some('`') => return nu("command substitution", at),
            Some('$') => self.dollar(w, at, false)?,
            Some(c) => {
                match c {
                    '*' | '?' | '[' => w.expand("glob in command word", true),
                    '{' | '}' => w.expand("brace expansion in command word", true),
                    '~' if w.text.is_empty() || w.text.ends_with(['=', ':']) => w.tilde = true,
                    _ => {}
                }
                w.text.push(c);
            }
            None => {}
        }
        Ok(())
    }

    fn double_quoted(&mut self, w: &mut Word, open: usize) -> Result<(), NotUnderstood> {
        loop {
            let at = self.pos;
            match self.bump() {
                None => return nu("unterminated quote", open),
                Some('"') => return Ok(()),
                Some('\\') => match self.peek() {
                    Some('\n') => self.pos += 1,
                    Some(c @ ('$' | '`' | '"' | '\\')) => {
                        self.pos += 1;
                        w.text.push(c);
                    }
                    _ => w.text.push('\\'),
                },
                Some('`') => return nu("command substitution", at),
                Some('$') => self.dollar(w, at, true)?,
                Some(c) => w.text.push(c),
            }
        }
    }

    /// After a `$` at `at`.
    fn dollar(&mut self, w: &mut Word, at: usize, quoted: bool) -> Result<(), NotUnderstood> {
        let rest = self.rest();
        if rest.starts_with("((") || rest.starts_with('[') {
            return nu("arithmetic expansion", at);
        } else if rest.starts_with('(') {
            return nu("command substitution", at);
        } else if !quoted && rest.starts_with(['\'', '"']) {
            return nu("ANSI-C or locale quoting", at);
        }
        let len = if let Some(body) = rest.strip_prefix('{') {
            let Some((name, _)) = body.split_once('}') else {
                return nu("unterminated parameter expansion", at);
            };
            if name.contains(|c: char| c.is_whitespace() || "$`'\"\\{".contains(c)) {
                return nu("complex parameter expansion", at);
            }
            if let Some(reason) = evaluating_expansion(name) {
                return nu(reason, at);
            }
            w.assigns.extend(assigned(name).map(str::to_owned));
            name.len() + 2
        } else {
            match rest.chars().next() {
                Some(c) if c == '_' || c.is_ascii_alphabetic() => rest
                    .find(|c: char| c != '_' && !c.is_ascii_alphanumeric())
                    .unwrap_or(rest.len()),
                Some(c) if c.is_ascii_digit() || "@*#?-$!".contains(c) => 1,
                _ => 0,
            }
        };
        if len > 0 {
            w.expand("parameter expansion in command word", !quoted);
            w.field_splits |= !quoted;
            w.text.push('$');
            w.text.push_str(rest.get(..len).unwrap_or_default());
            self.pos += len;
        } else {
            w.text.push('$');
        }
        Ok(())
    }
}

/// The variable the body of `${…}` assigns, if it does (`NAME=…`, `NAME:=…`).
fn assigned(body: &str) -> Option<&str> {
    let end = body
        .find(|c: char| c != '_' && !c.is_ascii_alphanumeric())
        .unwrap_or(body.len());
    let (name, op) = body.split_at(end);
    (!name.is_empty() && (op.starts_with('=') || op.starts_with(":="))).then_some(name)
}

/// Why the body of `${…}` makes bash evaluate text, if it does: a subscript (arithmetic), an
/// indirection (`${!x}` evaluates the subscript in `x`'s value), a substring (arithmetic
/// offsets), or a transformation (`${x@P}` expands `x`'s value as a prompt, command
/// substitutions included).
fn evaluating_expansion(body: &str) -> Option<&'static str> {
    if body.contains('[') {
        return Some("subscript in parameter expansion");
    }
    let rest = body
        .strip_prefix('#')
        .filter(|r| !r.is_empty())
        .unwrap_or(body);
    if rest.starts_with('!') {
        return Some("indirect parameter expansion");
    }
    let name_len = match rest.chars().next() {
        Some(c) if c == '_' || c.is_ascii_alphabetic() => rest
            .find(|c: char| c != '_' && !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len()),
        Some(c) if c.is_ascii_digit() => rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len()),
        Some(_) => 1,
        None => 0,
    };
    let op = rest.get(name_len..).unwrap_or_default();
    if op.starts_with('@') {
        Some("parameter transformation")
    } else if op.starts_with(':')
        && !op
            .get(1..)
            .unwrap_or_default()
            .starts_with(['-', '=', '+', '?'])
    {
        Some("substring expansion")
    } else {
        None
    }
}
