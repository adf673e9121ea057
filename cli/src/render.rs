//! Human-readable output: rustc-style diagnostics and run reports.

use std::process::ExitCode;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use interleave_engine::diag::{Diagnostic, Severity};
use interleave_engine::report::Report;
use interleave_engine::scenario::Scenario;

fn clamp(source: &str, start: u32, end: u32) -> std::ops::Range<usize> {
    let len = source.len();
    let mut s = (start as usize).min(len);
    let mut e = (end as usize).clamp(s, len);
    while !source.is_char_boundary(s) {
        s -= 1;
    }
    while !source.is_char_boundary(e) {
        e += 1;
    }
    s..e
}

/// Renders one diagnostic rustc-style.
pub fn diagnostic_text(d: &Diagnostic, file_name: &str, source: &str) -> String {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut labels = Vec::new();
    if let Some(span) = d.span {
        labels.push(cs::Label::primary((), clamp(source, span.start, span.end)).with_message(&d.span_label));
    }
    for l in &d.labels {
        labels.push(cs::Label::secondary((), clamp(source, l.span.start, l.span.end)).with_message(&l.message));
    }
    let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    let diagnostic = cs::Diagnostic::new(severity).with_code(&d.code).with_message(&d.message).with_labels(labels).with_notes(notes);
    let file = SimpleFile::new(if file_name.is_empty() { "<input>" } else { file_name }, source);
    let config = term::Config::default();
    term::emit_into_string(&config, &file, &diagnostic).unwrap_or_else(|_| format!("error[{}]: {}\n", d.code, d.message))
}

/// Prints diagnostics to stderr and returns exit status 2.
pub fn fail(diagnostics: &[Diagnostic], file_name: &str, source: &str) -> ExitCode {
    for d in diagnostics {
        eprint!("{}", diagnostic_text(d, file_name, source));
    }
    ExitCode::from(2)
}

/// Prints the compiler's warnings to stderr; the run goes on, and they change no exit status.
pub fn warnings(diagnostics: &[Diagnostic], file_name: &str, source: &str) {
    for d in diagnostics {
        eprint!("{}", diagnostic_text(d, file_name, source));
    }
}

/// Prints a finding rustc-style, with `extra` after its work-item and step and `note` (how to
/// reproduce it) below.
fn finding(f: &interleave_engine::report::Finding, scenario: &Scenario, extra: &str, note: Option<String>) {
    let mut d = Diagnostic::error(f.kind.as_str(), &f.message);
    if let Some(note) = note {
        d = d.with_note(note);
    }
    d.severity = f.severity;
    if let Some(span) = f.span {
        let who = match (f.work_item, f.step) {
            (Some(w), Some(s)) => format!("work-item ({}, {}, {}) at step {s}{extra}", w[0], w[1], w[2]),
            (Some(w), None) => format!("work-item ({}, {}, {}){extra}", w[0], w[1], w[2]),
            _ => extra.trim_start_matches([',', ' ']).to_string(),
        };
        d = d.with_span(span, who);
    }
    for r in &f.related {
        if let Some(span) = r.span {
            d = d.with_label(span, &r.message);
        }
    }
    if let Some(e) = &f.explanation {
        for line in e.lines() {
            d = d.with_note(format!("why: {line}"));
        }
    }
    eprint!("{}", diagnostic_text(&d, &scenario.file_name, &scenario.source));
}

/// Prints the finding of a shrunk schedule's replay that matches `wanted` (kind and place),
/// as the replay found it.
pub fn shrunk_finding(wanted: &interleave_engine::report::Finding, found: &[interleave_engine::report::Finding], scenario: &Scenario) {
    if let Some(f) = found.iter().find(|f| interleave_engine::explore::same_finding(f, wanted)) {
        finding(f, scenario, "", None);
    }
}

/// Prints an exploration for people: each finding with its seed, then the outcomes.
pub fn exploration(e: &interleave_engine::explore::Exploration, scenario: &Scenario) {
    for f in &e.findings {
        // A finding of the exhaustive search replays from the schedule and decisions of the
        // execution that showed it; one of random exploration from its seed.
        match (&f.schedule, &f.choices) {
            (Some(schedule), Some(choices)) => {
                let replay = format!("replay: {} --seed {}", scenario.replay_options(schedule, choices), f.seed);
                finding(&f.finding, scenario, &format!(" (in {} of {} runs)", f.runs, e.runs), Some(replay));
            }
            // A finding about the search itself (it stopped at a limit) is no run's.
            _ if f.runs == 0 => finding(&f.finding, scenario, "", None),
            _ => finding(&f.finding, scenario, &format!(", seed {} (in {} of {} runs)", f.seed, f.runs, e.runs), None),
        }
    }
    let how = if e.complete { " (every execution)" } else { "" };
    let discarded = if e.discarded > 0 { format!(", {} discarded (a promise never kept)", e.discarded) } else { String::new() };
    // How many runs were distinct traces: only for runs by seed (an exhaustive search runs
    // one execution per trace) and only where the exploration counted them.
    let distinct = if !e.complete && e.distinct_schedules > 0 {
        let at_least = if e.distinct_schedules_capped { "at least " } else { "" };
        format!(" ({at_least}{} distinct up to reordering independent steps)", e.distinct_schedules)
    } else {
        String::new()
    };
    out!("explored {} schedules{how}{distinct}{discarded}: {} distinct outcome{}", e.runs, e.outcomes.len(), if e.outcomes.len() == 1 { "" } else { "s" });
    if let Some(pct) = &e.pct {
        use interleave_engine::explore::pct;
        out!("{}", pct::describe(&pct::bound(pct, e.runs), e.runs));
    }
    if let Some(executions) = e.exhaustive_offer {
        out!("every execution takes only {executions} run{}: `--exhaustive` explores them all", if executions == 1 { "" } else { "s" });
    }
    for o in &e.outcomes {
        let shown = outcome_text(o.registers.as_ref(), &o.values);
        let exists = match o.exists {
            Some(true) => "  [exists]",
            _ => "",
        };
        match (&o.schedule, &o.choices) {
            (Some(schedule), Some(choices)) => {
                out!("  {:>5} x  {}{exists}", o.count, shown.join(" "));
                out!("           replay: {}", scenario.replay_options(schedule, choices));
            }
            _ => out!("  {:>5} x  seed {:<6} {}{exists}", o.count, o.seed, shown.join(" ")),
        }
        if let Some(x) = &o.explanation {
            for line in x.lines() {
                out!("           why: {line}");
            }
        }
    }
    if let Some(observed) = e.exists_observed {
        out!("final condition {}", if observed { "observed" } else { "never observed" });
    }
}

/// An outcome for people: a litmus test's registers, then each buffer's first values.
fn outcome_text(
    registers: Option<&std::collections::BTreeMap<String, i64>>,
    values: &std::collections::BTreeMap<String, Vec<Option<interleave_engine::scenario::Number>>>,
) -> Vec<String> {
    let mut shown: Vec<String> = Vec::new();
    if let Some(registers) = registers {
        shown.extend(registers.iter().map(|(name, v)| format!("{name}={v}")));
    }
    shown.extend(values.iter().map(|(name, vs)| {
        let first: Vec<String> = vs.iter().take(16).map(|v| v.map_or("uninit".to_string(), |n| n.to_string())).collect();
        let more = if vs.len() > 16 { ", ..." } else { "" };
        format!("{name}=[{}{more}]", first.join(", "))
    }));
    shown
}

/// Prints a comparison of models for people: each finding as a diagnostic with the models
/// that showed it, then the matrix of findings and outcomes (runs per model; `.` for none,
/// `-` for a model that was skipped).
pub fn comparison(c: &interleave_engine::compare::Comparison, scenario: &Scenario) {
    let letter = |i: usize| char::from(b'A' + (i % 26) as u8).to_string();
    let under = |counts: &[Option<u64>], seeds: &[Option<u64>]| {
        let seen: Vec<String> = c
            .models
            .iter()
            .enumerate()
            .filter_map(|(i, m)| match (counts[i], seeds[i]) {
                (Some(n), Some(seed)) if n > 0 => Some(format!("{} (in {n} of {} runs, seed {seed})", m.name, c.runs)),
                _ => None,
            })
            .collect();
        format!("seen under: {}", seen.join("; "))
    };
    for row in &c.findings {
        finding(&row.finding, scenario, "", Some(under(&row.counts, &row.seeds)));
    }
    out!("compared {} models, {} runs each from seed {}:", c.models.len(), c.runs, c.first_seed);
    for (i, m) in c.models.iter().enumerate() {
        match &m.skipped {
            Some(why) => out!("  {}  {} (skipped: {why})", letter(i), m.name),
            None => out!("  {}  {}", letter(i), m.name),
        }
    }
    let cells = |counts: &[Option<u64>]| {
        counts.iter().map(|c| format!("{:>5}", c.map_or("-".to_string(), |n| if n == 0 { ".".to_string() } else { n.to_string() }))).collect::<String>()
    };
    let header: String = (0..c.models.len()).map(|i| format!("{:>5}", letter(i))).collect();
    out!("{:<44}{header}", "findings");
    if c.findings.is_empty() {
        out!("  (none)");
    }
    for row in &c.findings {
        let f = &row.finding;
        let mut place = format!("{}:{}", f.line, f.column);
        if f.kind == interleave_engine::report::FindingKind::DataRace {
            if let Some(r) = f.related.first() {
                place = format!("{}:{} / {place}", r.line, r.column);
            }
        }
        out!("  {:<42}{}", format!("{} {place}", f.kind.as_str()), cells(&row.counts));
    }
    out!("{:<44}{header}", "outcomes");
    for row in &c.outcomes {
        let mut text = outcome_text(row.registers.as_ref(), &row.values).join(" ");
        if row.exists == Some(true) {
            text.push_str(" [exists]");
        }
        out!("  {:<42}{}", text, cells(&row.counts));
    }
}

/// Prints a report for people: findings as diagnostics, then buffers and printf output.
pub fn report(report: &Report, scenario: &Scenario) {
    for f in &report.findings {
        finding(f, scenario, "", None);
    }
    out!("status: {} after {} steps (trace {})", report.status.as_str(), report.steps, report.trace_hash);
    if let Some(why) = &report.schedule_stop {
        out!("stopped: {why}");
    }
    for b in &report.buffers {
        const SHOWN: usize = 64;
        // Only the values shown are formatted: a buffer of a million elements would otherwise
        // spend longer being formatted than the kernel took to run.
        let shown: Vec<String> = b.values.iter().take(SHOWN).map(|v| v.map_or("uninit".to_string(), |n| n.to_string())).collect();
        let total = b.values.len();
        let more = if total > SHOWN { format!(", ... ({} more)", total - SHOWN) } else { String::new() };
        out!("{} ({}[{}]): [{}{more}]", b.name, b.ty, total, shown.join(", "));
    }
    for p in &report.printf {
        out!("[{},{},{}] {}", p.work_item[0], p.work_item[1], p.work_item[2], p.text);
    }
    if let Some(registers) = &report.registers {
        let shown: Vec<String> = registers.iter().map(|(name, v)| format!("{name}={v}")).collect();
        out!("registers: {}", shown.join(" "));
    }
    if let Some(exists) = report.exists {
        out!("final condition: {}", if exists { "holds" } else { "does not hold" });
    }
    // The report explains the first stale reads only (a spin may make one at nearly every
    // step); those are the ones shown, and the rest counted.
    let shown = interleave_engine::why::EXPLAINED_STALE_READS;
    for s in report.stale_reads.iter().take(shown) {
        let written = s.written_at.map_or("the initial value".to_string(), |step| format!("written at step {step}"));
        let newer = s.newer_at.map_or(String::new(), |step| format!("; the write at step {step} was not yet visible to it"));
        out!("stale read at step {}: work-item {} read {} = {} ({written}{newer})", s.step, s.work_item[0], s.location, s.value as i64,);
        if let Some(e) = &s.explanation {
            for line in e.lines() {
                out!("  = why: {line}");
            }
        }
    }
    if report.stale_reads.len() > shown {
        out!("... and {} more stale reads (`--json` lists every one)", report.stale_reads.len() - shown);
    }
}
