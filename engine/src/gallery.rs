//! The examples gallery's manifest: which scenario files the gallery shows, in which order,
//! grouped into entries, and how each one is checked.
//!
//! The manifest is `static/examples/gallery.toml`. Each `[[entry]]` is one pitfall (or one
//! feature) with an `id` (which `?example=ID` accepts) and its `[[entry.variant]]`s. A
//! variant names a scenario file of that folder (`scenario`), says how CI checks it (`check`:
//! `"run"`, `"explore"` with either `runs = N` or `exhaustive = true`, or `"compare"` with
//! `runs = N`, which runs it under every execution model), which kinds of
//! finding that check reports (`findings`), and what to watch for (`look_for`).
//!
//! The app reads the manifest to draw the gallery page and the CLI's tests read it to run
//! every variant through the binary; both take it from [`read`], so the format has one
//! definition and one set of rules. Every rule is checked here, with a span into the
//! manifest: an entry without variants, an id or a file named twice, a check that takes the
//! wrong options, an unknown finding kind.

use std::collections::HashSet;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::{Diagnostic, Span};
use crate::report::FindingKind;

/// One gallery entry: a pitfall and the scenarios that show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The entry's id (`lost-updates`), unique in the manifest.
    pub id: String,
    /// The scenarios, at least one; the first stands for the entry.
    pub variants: Vec<Variant>,
}

/// One scenario of an entry and how it is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The scenario file's name in the examples folder (`cas_product_broken.toml`), unique
    /// in the manifest.
    pub scenario: String,
    /// The command that checks it.
    pub check: Check,
    /// The kinds of finding the check reports, in the manifest's order.
    pub findings: Vec<FindingKind>,
    /// What to watch for, in a sentence or two.
    pub look_for: String,
}

/// How CI checks a variant through the `interleave` binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `interleave run FILE`: one run under the scenario's own seed.
    Run,
    /// `interleave explore FILE --runs N`: N seeds from the scenario's own.
    Explore { runs: u64 },
    /// `interleave explore FILE --exhaustive`.
    Exhaustive,
    /// `interleave compare FILE --runs N`: N seeds under each execution model.
    Compare { runs: u64 },
}

impl Variant {
    /// The command line that checks this variant with the scenario file at `file`, after
    /// the binary's name (`["explore", file, "--runs", "100"]`).
    pub fn arguments(&self, file: &str) -> Vec<String> {
        let mut arguments = Vec::with_capacity(4);
        match self.check {
            Check::Run => arguments.extend(["run".to_string(), file.to_string()]),
            Check::Explore { runs } => arguments.extend(["explore".to_string(), file.to_string(), "--runs".to_string(), runs.to_string()]),
            Check::Exhaustive => arguments.extend(["explore".to_string(), file.to_string(), "--exhaustive".to_string()]),
            Check::Compare { runs } => arguments.extend(["compare".to_string(), file.to_string(), "--runs".to_string(), runs.to_string()]),
        }
        arguments
    }

    /// The checking command as typed in the examples folder, for people
    /// (`interleave explore cas_product.toml --runs 100`).
    pub fn command_line(&self) -> String {
        format!("interleave {}", self.arguments(&self.scenario).join(" "))
    }
}

/// The manifest's text form; spans are kept where a rule may point.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestText {
    entry: Vec<EntryText>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryText {
    id: Spanned<String>,
    variant: Spanned<Vec<VariantText>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantText {
    scenario: Spanned<String>,
    check: Spanned<String>,
    #[serde(default)]
    runs: Option<u64>,
    #[serde(default)]
    exhaustive: bool,
    findings: Spanned<Vec<String>>,
    look_for: Spanned<String>,
}

/// Reads a manifest. Every problem is a diagnostic (code `invalid-input`) pointing into it.
pub fn read(text: &str) -> Result<Vec<Entry>, Diagnostic> {
    let manifest: ManifestText = toml::from_str(text).map_err(|e| {
        let d = Diagnostic::error("invalid-input", format!("invalid gallery manifest: {}", e.message().trim_end()));
        match e.span() {
            Some(r) => d.with_span(span(r), "here"),
            None => d,
        }
    })?;
    let mut ids = HashSet::new();
    let mut files = HashSet::new();
    let mut entries = Vec::with_capacity(manifest.entry.len());
    for entry in manifest.entry {
        if !ids.insert(entry.id.get_ref().clone()) {
            return Err(problem(entry.id.span(), format!("the entry id `{}` is used twice", entry.id.get_ref()), "a second entry with this id"));
        }
        let variants_span = entry.variant.span();
        let texts = entry.variant.into_inner();
        if texts.is_empty() {
            return Err(problem(variants_span, format!("the entry `{}` has no variant", entry.id.get_ref()), "no scenario here"));
        }
        let mut variants = Vec::with_capacity(texts.len());
        for v in texts {
            let scenario = v.scenario.get_ref();
            if !scenario.ends_with(".toml") || scenario.contains(['/', '\\']) {
                return Err(problem(v.scenario.span(), format!("`{scenario}` is not a scenario file of the examples folder"), "a `NAME.toml` file name"));
            }
            if !files.insert(scenario.clone()) {
                return Err(problem(v.scenario.span(), format!("`{scenario}` is named twice"), "named before"));
            }
            let check = match (v.check.get_ref().as_str(), v.runs, v.exhaustive) {
                ("run", None, false) => Check::Run,
                ("explore", Some(runs), false) if runs > 0 => Check::Explore { runs },
                ("explore", None, true) => Check::Exhaustive,
                ("compare", Some(runs), false) if runs > 0 => Check::Compare { runs },
                ("compare", runs, exhaustive) => {
                    return Err(problem(
                        v.check.span(),
                        format!("`check = \"compare\"` with runs = {runs:?} and exhaustive = {exhaustive}: a comparison takes runs (at least 1) and no exhaustive"),
                        "this check",
                    ))
                }
                (check @ ("run" | "explore"), runs, exhaustive) => {
                    return Err(problem(
                        v.check.span(),
                        format!("`check = \"{check}\"` with runs = {runs:?} and exhaustive = {exhaustive}: a run takes neither, an explore either runs (at least 1) or exhaustive"),
                        "this check",
                    ))
                }
                (other, _, _) => return Err(problem(v.check.span(), format!("unknown check `{other}` (expected \"run\", \"explore\" or \"compare\")"), "this check")),
            };
            let findings = v
                .findings
                .get_ref()
                .iter()
                .map(|name| {
                    FindingKind::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(name))
                        .map_err(|_| problem(v.findings.span(), format!("unknown finding kind `{name}`"), "in this list"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if v.look_for.get_ref().trim().is_empty() {
                return Err(problem(v.look_for.span(), format!("`{scenario}` has an empty `look_for`"), "say what to watch for"));
            }
            variants.push(Variant { scenario: v.scenario.into_inner(), check, findings, look_for: v.look_for.into_inner() });
        }
        entries.push(Entry { id: entry.id.into_inner(), variants });
    }
    Ok(entries)
}

fn span(r: Range<usize>) -> Span {
    Span::new(r.start.min(u32::MAX as usize) as u32, r.end.min(u32::MAX as usize) as u32)
}

fn problem(at: Range<usize>, message: String, label: &str) -> Diagnostic {
    Diagnostic::error("invalid-input", message).with_span(span(at), label)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str =
        "[[entry]]\nid = \"x\"\n[[entry.variant]]\nscenario = \"a.toml\"\ncheck = \"explore\"\nruns = 100\nfindings = [\"data-race\"]\nlook_for = \"y\"\n";

    #[test]
    fn a_variant_reads_into_its_check_and_finding_kinds() {
        let entries = read(ONE).unwrap();
        assert_eq!(entries.len(), 1);
        let v = &entries[0].variants[0];
        assert_eq!((v.check, v.findings.as_slice()), (Check::Explore { runs: 100 }, [FindingKind::DataRace].as_slice()));
        assert_eq!(v.command_line(), "interleave explore a.toml --runs 100");
        assert_eq!(v.arguments("static/examples/a.toml"), ["explore", "static/examples/a.toml", "--runs", "100"]);
        let run = read(&ONE.replace("check = \"explore\"\nruns = 100", "check = \"run\"")).unwrap();
        assert_eq!(run[0].variants[0].command_line(), "interleave run a.toml");
        let all = read(&ONE.replace("runs = 100", "exhaustive = true")).unwrap();
        assert_eq!(all[0].variants[0].command_line(), "interleave explore a.toml --exhaustive");
        let models = read(&ONE.replace("check = \"explore\"", "check = \"compare\"")).unwrap();
        assert_eq!(models[0].variants[0].command_line(), "interleave compare a.toml --runs 100");
        assert!(read(&ONE.replace("check = \"explore\"\nruns = 100", "check = \"compare\"")).is_err());
    }

    /// Each broken manifest gives its message, with a span that points at the text named.
    #[test]
    fn every_rule_is_a_diagnostic_pointing_into_the_manifest() {
        let twice = format!("{ONE}{}", ONE.replace("a.toml", "b.toml"));
        let cases: [(String, &str, &str); 9] = [
            ("entry = 3".to_string(), "invalid gallery manifest", "3"),
            ("[[entry]]\nid = \"x\"\nvariant = []\n".to_string(), "has no variant", "[]"),
            (twice, "`x` is used twice", "\"x\""),
            (format!("{ONE}{}", ONE.replace("id = \"x\"", "id = \"z\"")), "`a.toml` is named twice", "\"a.toml\""),
            (ONE.replace("a.toml", "a.cl"), "not a scenario file", "\"a.cl\""),
            (ONE.replace("a.toml", "../a.toml"), "not a scenario file", "\"../a.toml\""),
            (ONE.replace("runs = 100", "runs = 0"), "an explore either runs", "\"explore\""),
            (ONE.replace("\"explore\"", "\"walk\""), "unknown check `walk`", "\"walk\""),
            (ONE.replace("data-race", "data-rice"), "unknown finding kind `data-rice`", "[\"data-rice\"]"),
        ];
        for (text, message, at) in cases {
            let d = read(&text).expect_err(&text);
            assert!(d.message.contains(message), "{text}: {}", d.message);
            let s = d.span.expect("a span");
            assert_eq!(&text[s.start as usize..s.end as usize], at, "{text}: {}", d.message);
        }
        let empty = read(&ONE.replace("look_for = \"y\"", "look_for = \" \"")).unwrap_err();
        assert!(empty.message.contains("empty `look_for`"), "{}", empty.message);
    }
}
