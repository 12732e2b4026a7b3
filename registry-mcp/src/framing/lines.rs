//! The client's lines, read with a cap on their length that holds memory to it.

use tokio::io::{AsyncBufReadExt as _, AsyncRead, BufReader};

/// One read from the client.
pub(super) enum Line<'a> {
    /// A message: the line without its newline (and carriage return).
    Message(&'a [u8]),
    /// A line over the cap, now being skipped.
    TooLong,
    /// The client closed its end.
    Eof,
}

/// Reads lines of at most `max` bytes (without the newline), never keeping more: the rest of
/// a longer line is skipped as it arrives.
pub(super) struct LineReader<R> {
    inner: BufReader<R>,
    line: Vec<u8>,
    max: usize,
    /// Whether the rest of a line over the cap is still to be skipped.
    skipping: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(super) fn new(reader: R, max: usize) -> Self {
        LineReader {
            inner: BufReader::with_capacity(1 << 16, reader),
            line: Vec::new(),
            max,
            skipping: false,
        }
    }

    /// The last message read.
    pub(super) fn current(&self) -> &[u8] {
        trim_line(&self.line)
    }

    pub(super) async fn next(&mut self) -> std::io::Result<Line<'_>> {
        loop {
            while self.skipping {
                let available = self.inner.fill_buf().await?;
                if available.is_empty() {
                    return Ok(Line::Eof);
                }
                let (take, ended) = match available.iter().position(|&b| b == b'\n') {
                    Some(at) => (at + 1, true),
                    None => (available.len(), false),
                };
                self.inner.consume(take);
                self.skipping = !ended;
            }
            self.line.clear();
            loop {
                let available = self.inner.fill_buf().await?;
                if available.is_empty() {
                    // The client closed its end; a last line without a newline still counts.
                    if self.line.is_empty() {
                        return Ok(Line::Eof);
                    }
                    break;
                }
                let newline = available.iter().position(|&b| b == b'\n');
                let take = newline.map_or(available.len(), |at| at + 1);
                let body = take - usize::from(newline.is_some());
                if self.line.len().saturating_add(body) > self.max {
                    self.inner.consume(take);
                    // Answered now: the client need not send the rest to hear it was refused.
                    self.line = Vec::new();
                    self.skipping = newline.is_none();
                    return Ok(Line::TooLong);
                }
                self.line
                    .extend_from_slice(available.get(..take).unwrap_or_default());
                self.inner.consume(take);
                if newline.is_some() {
                    break;
                }
            }
            if !trim_line(&self.line).iter().all(u8::is_ascii_whitespace) {
                return Ok(Line::Message(trim_line(&self.line)));
            }
        }
    }
}

/// `line` without its newline and a carriage return before it.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
