//! What the code editor marks in the source, as plain data: diagnostics as underlined ranges
//! and findings as one gutter marker per line. Pure, so it is tested natively; the editor
//! component sends the results to CodeMirror as JSON.
//!
//! The engine speaks in byte offsets into the source, CodeMirror in positions of its
//! document: UTF-16 code units, with every line break (`\n`, `\r\n` or a lone `\r`) counted
//! as one. [`doc_position`] converts between the two.

use std::collections::BTreeMap;

use interleave_engine::diag::{Diagnostic, Severity, Span};
use interleave_engine::report::Finding;
use serde::Serialize;

/// At most this many messages are listed in one gutter marker's tooltip.
const MESSAGES_PER_LINE: usize = 8;

/// The editor position of byte `byte` of `text` (clamped to the text, and moved back to the
/// start of a character it falls inside).
pub fn doc_position(text: &str, byte: usize) -> u32 {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &text[..byte];
    let units = before.encode_utf16().count();
    // CodeMirror keeps `\r\n` as one line break.
    let pairs = before.matches("\r\n").count();
    (units - pairs) as u32
}

/// One underlined range of a diagnostic: its primary span, or one of its labels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Underline {
    pub from: u32,
    pub to: u32,
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    /// Whether this is the diagnostic's own span rather than a secondary label.
    pub primary: bool,
}

/// The underlines of `diagnostics`, whose spans are byte ranges of `source`. A diagnostic
/// without a span (a problem with an option, not the text) has none.
pub fn underlines(source: &str, diagnostics: &[Diagnostic]) -> Vec<Underline> {
    let range = |span: Span| (doc_position(source, span.start as usize), doc_position(source, span.end as usize));
    let mut result = Vec::new();
    for diagnostic in diagnostics {
        let severity = severity_name(diagnostic.severity);
        if let Some(span) = diagnostic.span {
            let (from, to) = range(span);
            result.push(Underline { from, to, severity, code: diagnostic.code.clone(), message: diagnostic.message.clone(), primary: true });
        }
        for label in &diagnostic.labels {
            let (from, to) = range(label.span);
            result.push(Underline { from, to, severity, code: diagnostic.code.clone(), message: label.message.clone(), primary: false });
        }
    }
    result
}

/// The findings on one line: the most severe one's severity, and their messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineFindings {
    pub line: u32,
    pub severity: &'static str,
    /// One message per line of text, `kind: message`, repeated ones left out.
    pub message: String,
}

/// Groups `findings` by source line, in line order; findings without a line are left out.
pub fn line_findings(findings: &[Finding]) -> Vec<LineFindings> {
    let mut lines: BTreeMap<u32, (Severity, Vec<String>)> = BTreeMap::new();
    for finding in findings.iter().filter(|f| f.line > 0) {
        let entry = lines.entry(finding.line).or_insert((finding.severity, Vec::new()));
        entry.0 = entry.0.max(finding.severity);
        let text = format!("{}: {}", finding.kind.as_str(), finding.message);
        if !entry.1.contains(&text) {
            entry.1.push(text);
        }
    }
    lines
        .into_iter()
        .map(|(line, (severity, messages))| {
            let mut message = messages.iter().take(MESSAGES_PER_LINE).cloned().collect::<Vec<_>>().join("\n");
            if messages.len() > MESSAGES_PER_LINE {
                message.push_str(&format!("\nand {} more", messages.len() - MESSAGES_PER_LINE));
            }
            LineFindings { line, severity: severity_name(severity), message }
        })
        .collect()
}

/// The word a severity is shown with, as a class name and in text.
pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::report::FindingKind;

    #[test]
    fn positions_count_utf16_units_and_one_per_line_break() {
        let cases: &[(&str, usize, u32)] = &[
            ("abc", 2, 2),
            ("abc", 99, 3),
            // `é` is two bytes and one unit; `𝑥` four bytes and two units.
            ("é=1", 2, 1),
            ("é=1", 1, 0),
            ("𝑥+1", 4, 2),
            ("𝑥+1", 5, 3),
            ("a\r\nb", 3, 2),
            ("a\r\nb\r\nc", 6, 4),
            ("a\nb", 2, 2),
            ("a\rb", 2, 2),
        ];
        for &(text, byte, expected) in cases {
            assert_eq!(doc_position(text, byte), expected, "{text:?} at byte {byte}");
        }
    }

    #[test]
    fn diagnostics_underline_their_span_and_labels() {
        let source = "int é = ;\nx";
        let start = source.find(';').unwrap() as u32;
        let diagnostic = Diagnostic::error("syntax-error", "expected an expression")
            .with_span(Span::new(start, start + 1), "here")
            .with_label(Span::new(0, 3), "in this declaration");
        let without_span = Diagnostic::error("bad-option", "no such option");
        let found = underlines(source, &[diagnostic, without_span]);
        assert_eq!(
            found,
            vec![
                Underline { from: 8, to: 9, severity: "error", code: "syntax-error".into(), message: "expected an expression".into(), primary: true },
                Underline { from: 0, to: 3, severity: "error", code: "syntax-error".into(), message: "in this declaration".into(), primary: false },
            ]
        );
    }

    fn finding(kind: FindingKind, severity: Severity, line: u32, message: &str) -> Finding {
        Finding {
            kind,
            severity,
            message: message.into(),
            line,
            column: 1,
            work_item: None,
            step: None,
            related: Vec::new(),
            race: None,
            memory: None,
            benign: false,
            addresses: None,
            explanation: None,
            span: None,
        }
    }

    #[test]
    fn findings_are_grouped_per_line_with_the_worst_severity() {
        let findings = [
            finding(FindingKind::DataRace, Severity::Warning, 7, "benign race"),
            finding(FindingKind::StepLimit, Severity::Error, 0, "nowhere"),
            finding(FindingKind::DataRace, Severity::Error, 3, "race on counters"),
            finding(FindingKind::DataRace, Severity::Error, 7, "race on ids"),
            finding(FindingKind::DataRace, Severity::Error, 7, "race on ids"),
        ];
        let lines = line_findings(&findings);
        assert_eq!(
            lines,
            vec![
                LineFindings { line: 3, severity: "error", message: "data-race: race on counters".into() },
                LineFindings { line: 7, severity: "error", message: "data-race: benign race\ndata-race: race on ids".into() },
            ]
        );
    }

    #[test]
    fn a_crowded_line_lists_a_bounded_number_of_messages() {
        let findings: Vec<Finding> = (0..20).map(|i| finding(FindingKind::DataRace, Severity::Warning, 2, &format!("race {i}"))).collect();
        let lines = line_findings(&findings);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].message.lines().count(), MESSAGES_PER_LINE + 1);
        assert!(lines[0].message.ends_with("and 12 more"), "{}", lines[0].message);
    }
}
