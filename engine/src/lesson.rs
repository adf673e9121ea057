//! Tutorial lessons: the lesson file format and the check that says whether a lesson is done.
//!
//! A lesson is a TOML file: an `id`, a `title`, short `prose` paragraphs, the `task`, `hints`
//! revealed one at a time, the starting `[scenario]` (the scenario file format, source
//! inline), the reference `[solution]` (what the learner is expected to change: the source,
//! and for a lesson about schedules the seed and scheduler), and the `[check]`.
//!
//! A check explores the lesson's scenario with the learner's source, under `runs` seeds from
//! the learner's seed (or from `first_seed`), or exhaustively; then every `[[check.expect]]`
//! is evaluated over the [`Exploration`]. Everything else stays the lesson's (launch,
//! arguments, residency, memory model, and the scheduler unless the check says
//! `learner_scheduler = true`), so a check cannot be passed by shrinking the launch or
//! choosing a scheduler that hides the bug. The kinds:
//!
//! - `observed`: some run ends in a state where `when` holds;
//! - `always`: every run ends in a state where `when` holds;
//! - `no-findings`: no run reports a finding (of the given `kinds`, or of any kind);
//! - `finding`: some run reports a finding of `finding`;
//! - `mutual-exclusion`: no lock was ever held by two work-items at once (and none was left
//!   held), i.e. no `lock-misuse` error;
//! - `completes`: every run completes (no `deadlock`, `livelock` or `step-limit`).
//!
//! `when` is a condition over the final state: comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`)
//! between numbers and values (`name[index]` or `name` for element 0 of a buffer, `1:r0` for
//! a litmus test's register), joined by `&&` (binding tighter) and `||`; the word `exists`
//! is a litmus test's own condition. A value the state does not have makes its comparison
//! false.
//!
//! Evaluation is pure: [`evaluate`] reads an exploration and writes a [`Verdict`] with one
//! sentence per expectation ("seed 17 still reports a data-race at line 12"). The app runs
//! the exploration in its workers and evaluates here; [`check`] does both natively.

use serde::{Deserialize, Serialize};

use crate::diag::Severity;
use crate::diag::{Diagnostic, Span};
use crate::explore::{self, Config, Exploration, Outcome, SeededFinding};
use crate::limits::thousands;
use crate::report::FindingKind;
use crate::scenario::{Number, Scenario, SchedulerKind};

/// One lesson of the tutorial, as its file says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Names the lesson in links (`?lesson=ID`) and in the stored progress.
    pub id: String,
    pub title: String,
    /// The concept, in a few words, for the list of lessons.
    #[serde(default)]
    pub concept: String,
    /// Short paragraphs of plain text.
    pub prose: Vec<String>,
    /// What the learner is asked to do.
    pub task: String,
    /// Hints, from a nudge to nearly the answer.
    #[serde(default)]
    pub hints: Vec<String>,
    /// Where the lesson starts.
    pub scenario: Scenario,
    /// What the reference solution changes.
    pub solution: Solution,
    pub check: Check,
}

/// The fields a learner changes to solve a lesson; fields left out stay the starting ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// The kernel source of the solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The seed of the solution (for a lesson about finding a schedule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The scheduler of the solution (which a check uses only with `learner_scheduler`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduler: Option<SchedulerKind>,
}

/// How a lesson is checked: one exploration and what it must show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// Seeds to run; for an exhaustive check, the most executions to enumerate.
    pub runs: u64,
    /// Enumerate every execution instead of running seeds.
    #[serde(default)]
    pub exhaustive: bool,
    /// The first seed; when left out, the learner's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seed: Option<u64>,
    /// Explore under the learner's scheduler (and PCT depth) rather than the lesson's: for a
    /// lesson about finding a schedule.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub learner_scheduler: bool,
    /// What the exploration must show, all of it.
    pub expect: Vec<Expect>,
}

/// One thing a check's exploration must show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Expect {
    /// Some run ends in a state where `when` holds.
    Observed { when: Condition },
    /// Every run ends in a state where `when` holds.
    Always { when: Condition },
    /// No run reports a finding of one of `kinds` (of any kind when empty).
    NoFindings {
        #[serde(default)]
        kinds: Vec<FindingKind>,
    },
    /// Some run reports a finding of this kind.
    Finding { finding: FindingKind },
    /// No lock was held by two work-items at once, or left held.
    MutualExclusion,
    /// Every run completes: no deadlock, livelock or step limit.
    Completes,
}

/// A condition over a final state, kept with its text (which is how it is written back and
/// quoted in verdicts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Condition {
    text: String,
    /// Alternatives (`||`) of conjunctions (`&&`) of atoms.
    any: Vec<Vec<Atom>>,
}

#[derive(Clone, Debug, PartialEq)]
enum Atom {
    /// A litmus test's own final condition held.
    Exists,
    Compare(Operand, Op, Operand),
}

#[derive(Clone, Debug, PartialEq)]
enum Operand {
    Number(f64),
    /// A buffer element.
    Element(String, usize),
    /// A litmus register, `THREAD:NAME`.
    Register(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
}

impl TryFrom<String> for Condition {
    type Error = String;

    fn try_from(text: String) -> Result<Condition, String> {
        let mut any = Vec::new();
        for alternative in text.split("||") {
            let mut all = Vec::new();
            for atom in alternative.split("&&") {
                all.push(parse_atom(atom.trim())?);
            }
            any.push(all);
        }
        Ok(Condition { text, any })
    }
}

impl From<Condition> for String {
    fn from(condition: Condition) -> String {
        condition.text
    }
}

impl Condition {
    /// The condition as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the condition holds in `outcome`.
    pub fn holds(&self, outcome: &Outcome) -> bool {
        self.any.iter().any(|all| all.iter().all(|atom| atom_holds(atom, outcome)))
    }

    /// The values the condition reads in `outcome`, as `name = value` (for verdicts).
    pub fn values_in(&self, outcome: &Outcome) -> String {
        let mut named: Vec<String> = Vec::new();
        for atom in self.any.iter().flatten() {
            if let Atom::Compare(a, _, b) = atom {
                for operand in [a, b] {
                    let shown = match operand {
                        Operand::Number(_) => continue,
                        Operand::Element(name, index) => {
                            let label = if *index == 0 && !self.text.contains('[') { name.clone() } else { format!("{name}[{index}]") };
                            let value = element(outcome, name, *index).map_or("nothing".to_string(), |v| v.to_string());
                            format!("{label} = {value}")
                        }
                        Operand::Register(name) => {
                            let value = outcome.registers.as_ref().and_then(|r| r.get(name)).map_or("nothing".to_string(), |v| v.to_string());
                            format!("{name} = {value}")
                        }
                    };
                    if !named.contains(&shown) {
                        named.push(shown);
                    }
                }
            }
        }
        named.join(", ")
    }
}

fn parse_atom(text: &str) -> Result<Atom, String> {
    if text == "exists" {
        return Ok(Atom::Exists);
    }
    // Two-character operators first, so `<=` is not read as `<`.
    for (symbol, op) in [("==", Op::Eq), ("!=", Op::Ne), ("<=", Op::Le), (">=", Op::Ge), ("<", Op::Lt), (">", Op::Gt)] {
        if let Some(at) = text.find(symbol) {
            let left = parse_operand(text[..at].trim())?;
            let right = parse_operand(text[at + symbol.len()..].trim())?;
            return Ok(Atom::Compare(left, op, right));
        }
    }
    Err(format!("`{text}` is not a comparison (like `out[0] == 8` or `1:r0 != 0`) or `exists`"))
}

fn parse_operand(text: &str) -> Result<Operand, String> {
    if let Some(number) = Number::parse(text) {
        return Ok(Operand::Number(number.as_f64()));
    }
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if let Some((thread, register)) = text.split_once(':') {
        if word(thread.trim()) && word(register.trim()) {
            return Ok(Operand::Register(format!("{}:{}", thread.trim(), register.trim())));
        }
    }
    if let Some((name, rest)) = text.split_once('[') {
        let index = rest.strip_suffix(']').and_then(|i| i.trim().parse::<usize>().ok());
        return match index {
            Some(index) if word(name.trim()) => Ok(Operand::Element(name.trim().to_string(), index)),
            _ => Err(format!("`{text}` is not a buffer element like `out[3]`")),
        };
    }
    if word(text) {
        return Ok(Operand::Element(text.to_string(), 0));
    }
    Err(format!("`{text}` is not a number, a buffer element (`out[3]`) or a register (`1:r0`)"))
}

fn element(outcome: &Outcome, name: &str, index: usize) -> Option<Number> {
    outcome.values.get(name).and_then(|v| v.get(index).copied().flatten())
}

fn value(operand: &Operand, outcome: &Outcome) -> Option<f64> {
    match operand {
        Operand::Number(n) => Some(*n),
        Operand::Element(name, index) => element(outcome, name, *index).map(Number::as_f64),
        Operand::Register(name) => outcome.registers.as_ref()?.get(name).map(|&v| v as f64),
    }
}

fn atom_holds(atom: &Atom, outcome: &Outcome) -> bool {
    match atom {
        Atom::Exists => outcome.exists == Some(true),
        Atom::Compare(a, op, b) => match (value(a, outcome), value(b, outcome)) {
            (Some(a), Some(b)) => op.holds(a, b),
            _ => false,
        },
    }
}

/// Reads a lesson file. Every problem is a diagnostic: TOML errors with their position, an
/// unknown field, a condition that cannot be read, a check that expects nothing.
pub fn parse(text: &str) -> Result<Lesson, Diagnostic> {
    let lesson: Lesson = toml::from_str(text).map_err(|e| {
        let d = Diagnostic::error("invalid-lesson", format!("invalid lesson file: {}", e.message().trim_end()));
        match e.span() {
            Some(r) => d.with_span(Span::new(r.start as u32, r.end as u32), "here"),
            None => d,
        }
    })?;
    if lesson.id.is_empty() || !lesson.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(Diagnostic::error("invalid-lesson", "a lesson's `id` is letters, digits and dashes"));
    }
    if lesson.check.expect.is_empty() {
        return Err(Diagnostic::error("invalid-lesson", "a lesson's check expects something: add a `[[check.expect]]`"));
    }
    if lesson.check.runs == 0 {
        return Err(Diagnostic::error("invalid-lesson", "a lesson's check runs at least once"));
    }
    Ok(lesson)
}

/// The starting scenario with the learner's changes from `current`: the source and seed, and
/// the scheduler and PCT depth when the check takes the learner's. Everything else (launch,
/// arguments, residency, memory model, limits) stays the lesson's.
pub fn with_changes(lesson: &Lesson, current: &Scenario) -> Scenario {
    let mut scenario = lesson.scenario.clone();
    scenario.source = current.source.clone();
    scenario.seed = current.seed;
    if lesson.check.learner_scheduler {
        scenario.scheduler = current.scheduler;
        scenario.pct_depth = current.pct_depth;
    }
    scenario
}

/// The starting scenario changed as the reference solution says.
pub fn solved(lesson: &Lesson) -> Scenario {
    let mut scenario = lesson.scenario.clone();
    let s = &lesson.solution;
    if let Some(source) = &s.source {
        scenario.source = source.clone();
    }
    if let Some(seed) = s.seed {
        scenario.seed = seed;
    }
    if let Some(scheduler) = s.scheduler {
        scenario.scheduler = scheduler;
    }
    scenario
}

/// The scenario a check explores and how, for the learner's `current` scenario. The
/// exploration never runs manual schedules: a replayed schedule would be one execution.
pub fn plan(lesson: &Lesson, current: &Scenario) -> (Scenario, Config) {
    let mut scenario = with_changes(lesson, current);
    scenario.schedule.clear();
    scenario.choices.clear();
    if scenario.scheduler == SchedulerKind::Manual {
        scenario.scheduler = SchedulerKind::Random;
    }
    let check = &lesson.check;
    let config = Config { runs: check.runs, first_seed: check.first_seed.unwrap_or(scenario.seed), exhaustive: check.exhaustive, max_preemptions: None };
    (scenario, config)
}

/// What one expectation showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectResult {
    pub passed: bool,
    /// One sentence saying what passed or what failed, with a seed to reproduce it.
    pub message: String,
    /// Why the run it names fails, when the engine can say ([`crate::why`]): the finding's
    /// explanation, or the outcome's under the relaxed model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<crate::report::Explanation>,
}

/// A check's result: passed when every expectation passed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub passed: bool,
    pub results: Vec<ExpectResult>,
    /// Executions the check explored.
    pub runs: u64,
}

/// How a reproducing run is named: by seed, or as an execution the exhaustive search found.
fn run_name(seed: u64, exhaustive: bool) -> String {
    if exhaustive {
        "an execution".to_string()
    } else {
        format!("seed {seed}")
    }
}

fn capitalised(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// "a data-race", "an out-of-bounds".
fn a(kind: FindingKind) -> String {
    let name = kind.as_str();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {name}")
}

fn at_line(finding: &SeededFinding) -> String {
    match finding.finding.line {
        0 => String::new(),
        line => format!(" at line {line}"),
    }
}

/// How many runs were explored, in words: "1,000 seeds", "every execution", "37 executions".
fn explored(check: &Check, exploration: &Exploration) -> String {
    let n = thousands(exploration.runs);
    match (check.exhaustive, exploration.complete) {
        (true, true) => format!("any of the {n} executions (all of them)"),
        (true, false) => format!("any of the {n} executions explored"),
        (false, _) if exploration.runs == 1 => "the run".to_string(),
        (false, _) => format!("any of the {n} seeds"),
    }
}

const HANGS: [FindingKind; 3] = [FindingKind::Deadlock, FindingKind::Livelock, FindingKind::StepLimit];

/// Evaluates a check's expectations over the exploration it ran. Pure: the same exploration
/// gives the same verdict.
pub fn evaluate(check: &Check, exploration: &Exploration) -> Verdict {
    let ex = check.exhaustive;
    let first = |pred: &dyn Fn(&SeededFinding) -> bool| exploration.findings.iter().filter(|f| pred(f)).min_by_key(|f| (f.seed, f.finding.line));
    let results = check
        .expect
        .iter()
        .map(|expect| match expect {
            Expect::Observed { when } => match exploration.outcomes.iter().filter(|o| when.holds(o)).min_by_key(|o| o.seed) {
                Some(o) => ExpectResult {
                    why: None,
                    passed: true,
                    message: format!("{} ends with {}: `{}` holds", capitalised(run_name(o.seed, ex)), when.values_in(o), when.text()),
                },
                None => {
                    ExpectResult { why: None, passed: false, message: format!("`{}` did not hold at the end of {}", when.text(), explored(check, exploration)) }
                }
            },
            Expect::Always { when } => match exploration.outcomes.iter().filter(|o| !when.holds(o)).min_by_key(|o| o.seed) {
                Some(o) => ExpectResult {
                    why: o.explanation.clone(),
                    passed: false,
                    message: format!(
                        "{} ends with {}, so `{}` does not hold ({} of {} runs end this way)",
                        capitalised(run_name(o.seed, ex)),
                        when.values_in(o),
                        when.text(),
                        thousands(o.count),
                        thousands(exploration.runs)
                    ),
                },
                None => ExpectResult {
                    why: None,
                    passed: exploration.runs > 0,
                    message: format!("`{}` held at the end of every run ({})", when.text(), thousands(exploration.runs)),
                },
            },
            Expect::NoFindings { kinds } => {
                let wanted = |f: &SeededFinding| kinds.is_empty() || kinds.contains(&f.finding.kind);
                match first(&wanted) {
                    Some(f) => ExpectResult {
                        why: f.finding.explanation.clone(),
                        passed: false,
                        message: format!(
                            "{} still reports {}{} (in {} of {} runs)",
                            capitalised(run_name(f.seed, ex)),
                            a(f.finding.kind),
                            at_line(f),
                            thousands(f.runs),
                            thousands(exploration.runs)
                        ),
                    },
                    None => {
                        let what = if kinds.is_empty() {
                            "no findings".to_string()
                        } else {
                            let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
                            format!("no {}", names.join(" or "))
                        };
                        ExpectResult { why: None, passed: exploration.runs > 0, message: format!("{what} in {} runs", thousands(exploration.runs)) }
                    }
                }
            }
            Expect::Finding { finding } => match first(&|f| f.finding.kind == *finding) {
                Some(f) => {
                    ExpectResult { why: None, passed: true, message: format!("{} shows {}{}", capitalised(run_name(f.seed, ex)), a(*finding), at_line(f)) }
                }
                None => ExpectResult { why: None, passed: false, message: format!("no {} in {}", finding.as_str(), explored(check, exploration)) },
            },
            Expect::MutualExclusion => match first(&|f| f.finding.kind == FindingKind::LockMisuse && f.finding.severity == Severity::Error) {
                Some(f) => ExpectResult {
                    why: f.finding.explanation.clone(),
                    passed: false,
                    message: format!("{}{}: {}", capitalised(run_name(f.seed, ex)), at_line(f).replacen(" at", ",", 1), f.finding.message),
                },
                None => ExpectResult {
                    why: None,
                    passed: exploration.runs > 0,
                    message: format!("no lock was ever held by two work-items in {} runs", thousands(exploration.runs)),
                },
            },
            Expect::Completes => match first(&|f| HANGS.contains(&f.finding.kind)) {
                Some(f) => ExpectResult {
                    why: f.finding.explanation.clone(),
                    passed: false,
                    message: format!("{} does not complete: {}{}", capitalised(run_name(f.seed, ex)), f.finding.kind.as_str(), at_line(f)),
                },
                None => ExpectResult { why: None, passed: exploration.runs > 0, message: format!("every run completed ({})", thousands(exploration.runs)) },
            },
        })
        .collect::<Vec<_>>();
    Verdict { passed: results.iter().all(|r| r.passed), results, runs: exploration.runs }
}

/// Checks `scenario` (the learner's) against the lesson: plans, explores and evaluates in one
/// call. The app explores in its workers instead and calls [`evaluate`] itself.
pub fn check(lesson: &Lesson, scenario: &Scenario) -> Result<Verdict, Vec<Diagnostic>> {
    let (scenario, config) = plan(lesson, scenario);
    let exploration = explore::explore_with(&scenario, config)?;
    Ok(evaluate(&lesson.check, &exploration))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn outcome(values: &[(&str, &[i64])], registers: &[(&str, i64)], exists: Option<bool>) -> Outcome {
        Outcome {
            values: values.iter().map(|(n, v)| (n.to_string(), v.iter().map(|&x| Some(Number::Int(x))).collect())).collect(),
            registers: (!registers.is_empty()).then(|| registers.iter().map(|(n, v)| (n.to_string(), *v)).collect::<BTreeMap<_, _>>()),
            exists,
            ended: None,
            count: 1,
            seed: 4,
            schedule: None,
            choices: None,
            explanation: None,
        }
    }

    fn condition(text: &str) -> Condition {
        Condition::try_from(text.to_string()).unwrap()
    }

    #[test]
    fn conditions_read_elements_registers_and_exists() {
        let o = outcome(&[("out", &[3, 8])], &[("1:r0", 1), ("1:r1", 0)], Some(true));
        assert!(condition("out[1] == 8").holds(&o));
        assert!(condition("out == 3 && out[1] >= 8").holds(&o));
        assert!(!condition("out[1] < 8").holds(&o));
        assert!(condition("out[1] < 8 || 1:r0 == 1 && 1:r1 == 0").holds(&o));
        assert!(condition("exists").holds(&o));
        // A value the state does not have makes its comparison false, both ways.
        assert!(!condition("missing[0] == 0").holds(&o));
        assert!(!condition("missing[0] != 0").holds(&o));
        assert!(!condition("out[9] != 0").holds(&o));
        assert_eq!(condition("out[1] != 8 && 1:r0 == 1").values_in(&o), "out[1] = 8, 1:r0 = 1");
        assert_eq!(condition("out != 3").values_in(&o), "out = 3");
        assert!(Condition::try_from("out[1] = 8".to_string()).unwrap_err().contains("not a comparison"));
        assert!(Condition::try_from("out[x] == 8".to_string()).unwrap_err().contains("buffer element"));
        assert!(Condition::try_from("o ut == 8".to_string()).unwrap_err().contains("not a number"));
    }

    #[test]
    fn a_check_takes_the_learners_source_and_seed_and_the_scheduler_only_when_it_says_so() {
        let cas = parse(include_str!("../../static/tutorial/atomics-cas-loop.toml")).unwrap();
        let mut mine = cas.scenario.clone();
        mine.source.push_str("\n// mine\n");
        mine.seed = 77;
        mine.scheduler = SchedulerKind::RunToBlock;
        mine.memory_model = crate::scenario::MemoryModel::Relaxed;
        mine.launch.global = vec![4];
        let (planned, config) = plan(&cas, &mine);
        assert_eq!((planned.source.as_str(), planned.seed, config.first_seed), (mine.source.as_str(), 77, 77));
        assert_eq!((planned.scheduler, planned.memory_model), (cas.scenario.scheduler, cas.scenario.memory_model));
        assert_eq!(planned.launch, cas.scenario.launch);
        let lost = parse(include_str!("../../static/tutorial/lost-updates.toml")).unwrap();
        mine.source = lost.scenario.source.clone();
        mine.scheduler = SchedulerKind::Manual;
        mine.schedule = vec![0, 1];
        let (planned, _) = plan(&lost, &mine);
        // The learner's scheduler, but never a replayed schedule.
        assert_eq!((planned.scheduler, planned.schedule.len()), (SchedulerKind::Random, 0));
        mine.scheduler = SchedulerKind::Pct;
        assert_eq!(plan(&lost, &mine).0.scheduler, SchedulerKind::Pct);
    }

    #[test]
    fn a_lesson_file_with_a_mistake_is_a_diagnostic() {
        let good = "id = \"x\"\ntitle = \"X\"\nprose = []\ntask = \"t\"\n[scenario]\nsource = \"\"\n[solution]\n[check]\nruns = 1\n[[check.expect]]\nkind = \"completes\"\n";
        assert!(parse(good).is_ok());
        let typo = good.replace("task =", "tsak =");
        assert_eq!(parse(&typo).unwrap_err().code, "invalid-lesson");
        let bad_when = good.replace("kind = \"completes\"", "kind = \"observed\"\nwhen = \"out[0] =< 3\"");
        assert!(parse(&bad_when).unwrap_err().message.contains("not a"));
        let nothing = good.replace("[[check.expect]]\nkind = \"completes\"\n", "expect = []\n");
        assert!(parse(&nothing).unwrap_err().message.contains("expects something"));
        assert!(parse(&good.replace("id = \"x\"", "id = \"a b\"")).is_err());
    }
}
