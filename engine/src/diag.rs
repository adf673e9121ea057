//! Diagnostics: one structure for every problem found in user input.
//!
//! A [`Diagnostic`] carries a severity, a stable code (the finding-kind strings of the CLI
//! contract, such as `syntax-error`), a message that makes sense on its own, a primary span,
//! labelled secondary spans, notes and an optional help line. The CLI renders it rustc-style
//! and the app renders the same structure as HTML; neither adds information of its own.

use serde::{Deserialize, Serialize};

/// A half-open byte range `[start, end)` into the user's source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset one past the last byte.
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// How serious a diagnostic or finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// A secondary location with a short explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A problem in user input (source, launch settings, arguments), reported before or instead of
/// a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable kind string, e.g. `syntax-error`, `type-error`, `unsupported`.
    pub code: String,
    pub message: String,
    /// Where the problem is; `None` for problems that are not in the source (a bad option).
    pub span: Option<Span>,
    /// The text to show under the caret of the primary span.
    pub span_label: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code: code.to_string(),
            message: message.into(),
            span: None,
            span_label: String::new(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A problem that does not stop the run (a construct some compilers no longer accept).
    pub fn warning(code: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }

    pub fn with_span(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.span = Some(span);
        self.span_label = label.into();
        self
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into() });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}

/// Maps byte offsets to 1-based line and column numbers (columns count characters, so a caret
/// lines up under non-ASCII text too).
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        LineIndex { line_starts }
    }

    /// The 1-based `(line, column)` of byte `offset` in `text`.
    pub fn line_col(&self, text: &str, offset: u32) -> (u32, u32) {
        let offset = offset.min(text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let column = text[start..end].chars().count() as u32 + 1;
        (line as u32 + 1, column)
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text<'a>(&self, text: &'a str, line: u32) -> &'a str {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1) as usize) else {
            return "";
        };
        let end = self.line_starts.get(line as usize).map_or(text.len(), |&e| e as usize);
        text[start as usize..end].trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let text = "ab\nçd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 0), (1, 1));
        assert_eq!(index.line_col(text, 3), (2, 1));
        assert_eq!(index.line_col(text, 5), (2, 2));
        assert_eq!(index.line_text(text, 2), "çd");
        assert_eq!(index.line_text(text, 9), "");
    }
}
