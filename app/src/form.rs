//! From the launch panel's text to a [`Scenario`].
//!
//! Each field is checked on its own so that the panel can flag exactly the field that is
//! wrong. Only the shape of the input is checked here (numbers, dimensions, the argument
//! syntax, which the engine's own parser decides); whether the launch suits the kernel is the
//! engine's call, reported as diagnostics when the session is created.
//!
//! The dialect follows the text: a litmus test (its first word is `OPENCL`) places its own
//! threads, so the NDRange and arguments are neither checked nor used for it.

use std::collections::HashSet;
use std::rc::Rc;

use interleave_engine::litmus::{self, LitmusTest};
use interleave_engine::scenario::{ArgBinding, Dialect, Launch, Scenario, SchedulerKind};

use crate::state::State;

/// The name diagnostics give the editor's text.
pub const FILE_NAME: &str = "kernel.cl";
/// The name diagnostics give the editor's text when it is a litmus test.
pub const LITMUS_FILE_NAME: &str = "test.litmus";

/// The name diagnostics give the editor's text.
pub fn file_name(litmus: bool) -> &'static str {
    if litmus {
        LITMUS_FILE_NAME
    } else {
        FILE_NAME
    }
}

/// Whether `source` is a litmus test: its first word, after blank space and comments
/// (`(* *)`, `/* */`, `//`, as the engine's litmus reader skips them), is `OPENCL`.
pub fn is_litmus(source: &str) -> bool {
    let mut rest = source;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("(*") {
            // Litmus comments nest.
            let mut depth = 1usize;
            let mut at = after;
            while depth > 0 {
                let open = at.find("(*");
                let Some(close) = at.find("*)") else {
                    return false;
                };
                match open {
                    Some(open) if open < close => {
                        depth += 1;
                        at = &at[open + 2..];
                    }
                    _ => {
                        depth -= 1;
                        at = &at[close + 2..];
                    }
                }
            }
            rest = at;
        } else if let Some(after) = rest.strip_prefix("/*") {
            let Some(end) = after.find("*/") else {
                return false;
            };
            rest = &after[end + 2..];
        } else if rest.starts_with("//") {
            rest = rest.find('\n').map_or("", |end| &rest[end..]);
        } else {
            break;
        }
    }
    rest.strip_prefix("OPENCL")
        .is_some_and(|after| after.is_empty() || after.starts_with(|c: char| c.is_whitespace()))
}

/// The validated form: a scenario when every field is valid, and a message per invalid field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Form {
    pub scenario: Option<Rc<Scenario>>,
    pub global_error: Option<String>,
    pub local_error: Option<String>,
    pub seed_error: Option<String>,
    /// `(row id, message)` for each invalid argument row.
    pub arg_errors: Vec<(u32, String)>,
    /// The number of work-items the global size describes (0 while it is invalid); for a
    /// litmus test, its number of threads (0 while it does not parse).
    pub work_items: u64,
    /// The litmus test the source is, when it is one and parses.
    pub litmus: Option<Rc<LitmusTest>>,
    /// Whether the source is a litmus test (parsed or not).
    pub is_litmus: bool,
}

impl Form {
    pub fn arg_error(&self, id: u32) -> Option<&str> {
        self.arg_errors
            .iter()
            .find(|(row, _)| *row == id)
            .map(|(_, message)| message.as_str())
    }
}

/// Parses sizes written as `8`, `8,2` or `8 2 1`: one to three positive integers.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, String> {
    let parts: Vec<&str> = text
        .split(|c: char| c == ',' || c == 'x' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err("enter a size, e.g. 8 or 8,2".into());
    }
    if parts.len() > 3 {
        return Err("at most three dimensions".into());
    }
    parts
        .iter()
        .map(|part| match part.parse::<u64>() {
            Ok(0) => Err("sizes must be at least 1".to_string()),
            Ok(n) => Ok(n),
            Err(_) => Err(format!("`{part}` is not a whole number")),
        })
        .collect()
}

/// Parses the seed: any unsigned 64-bit integer, decimal or `0x` hex.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse::<u64>(),
    };
    parsed.map_err(|_| "the seed is a whole number from 0 to 18446744073709551615".to_string())
}

/// Checks every field of the form and builds the scenario when all are valid.
pub fn validate(state: &State) -> Form {
    if is_litmus(&state.source) {
        return validate_litmus(state);
    }
    let mut form = Form::default();
    let global = parse_sizes(&state.global)
        .map_err(|e| form.global_error = Some(e))
        .ok();
    if let Some(global) = &global {
        form.work_items = global
            .iter()
            .try_fold(1u64, |acc, &n| acc.checked_mul(n))
            .unwrap_or(0);
        if form.work_items == 0 {
            form.global_error = Some("too many work-items".into());
        }
    }
    let local = if state.local.trim().is_empty() {
        Some(None)
    } else {
        match parse_sizes(&state.local) {
            Ok(local) if global.as_ref().is_some_and(|g| g.len() != local.len()) => {
                form.local_error =
                    Some("give the local size as many dimensions as the global size".into());
                None
            }
            Ok(local) => Some(Some(local)),
            Err(e) => {
                form.local_error = Some(e);
                None
            }
        }
    };
    let seed = parse_seed(&state.seed)
        .map_err(|e| form.seed_error = Some(e))
        .ok();
    let mut args = Vec::new();
    let mut names = HashSet::new();
    for row in state.args.iter() {
        if row.text.trim().is_empty() {
            continue;
        }
        match ArgBinding::parse(row.text.trim()) {
            Ok(binding) if !names.insert(binding.name.clone()) => {
                form.arg_errors
                    .push((row.id, format!("`{}` is bound twice", binding.name)));
            }
            Ok(binding) => args.push(binding),
            Err(diagnostic) => form.arg_errors.push((row.id, diagnostic.message)),
        }
    }
    if let (Some(global), Some(local), Some(seed), true) = (
        global,
        local,
        seed,
        form.global_error.is_none() && form.arg_errors.is_empty(),
    ) {
        let mut scenario = Scenario::new(state.source.as_str(), FILE_NAME, Dialect::OpenCl);
        scenario.launch = Launch {
            global,
            local,
            offset: Vec::new(),
        };
        scenario.args = args;
        scenario.seed = seed;
        schedule(&mut scenario, state);
        form.scenario = Some(Rc::new(scenario));
    }
    form
}

/// The form of a litmus test: only the seed is checked, because the test gives the launch
/// and the arguments (the engine fills them in).
fn validate_litmus(state: &State) -> Form {
    let mut form = Form {
        is_litmus: true,
        ..Form::default()
    };
    // A test that does not parse still becomes a scenario, so that the engine's diagnostic
    // (which points into the test) shows when the user runs it.
    if let Ok(test) = litmus::parse(&state.source) {
        form.work_items = test.threads.len() as u64;
        form.litmus = Some(Rc::new(test));
    }
    match parse_seed(&state.seed) {
        Ok(seed) => {
            let mut scenario =
                Scenario::new(state.source.as_str(), LITMUS_FILE_NAME, Dialect::Litmus);
            scenario.seed = seed;
            schedule(&mut scenario, state);
            form.scenario = Some(Rc::new(scenario));
        }
        Err(e) => form.seed_error = Some(e),
    }
    form
}

/// The scheduler and memory model, or the replay of an explored execution.
fn schedule(scenario: &mut Scenario, state: &State) {
    scenario.memory_model = state.memory_model;
    scenario.scheduler = state.scheduler;
    if let Some(replay) = &state.replay {
        scenario.scheduler = SchedulerKind::Manual;
        scenario.schedule = replay.schedule.clone();
        scenario.choices = replay.choices.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{reduce, Action};
    use interleave_engine::scenario::MemoryModel;

    #[test]
    fn the_default_form_is_a_valid_scenario() {
        let form = validate(&State::default());
        let scenario = form.scenario.expect("valid");
        assert_eq!(scenario.launch.global, [8]);
        assert_eq!(scenario.launch.local, Some(vec![4]));
        assert_eq!(scenario.seed, 1);
        assert_eq!(scenario.args.len(), 2);
        assert_eq!(form.work_items, 8);
    }

    #[test]
    fn sizes_take_one_to_three_positive_numbers() {
        assert_eq!(parse_sizes("8"), Ok(vec![8]));
        assert_eq!(parse_sizes(" 8, 2 "), Ok(vec![8, 2]));
        assert_eq!(parse_sizes("4x4x2"), Ok(vec![4, 4, 2]));
        assert!(parse_sizes("0").is_err());
        assert!(parse_sizes("abc").is_err());
        assert!(parse_sizes("").is_err());
        assert!(parse_sizes("1,1,1,1").is_err());
    }

    #[test]
    fn invalid_fields_are_flagged_and_block_the_scenario() {
        for (action, check) in [
            (
                Action::SetGlobal("0".into()),
                (|f: &Form| f.global_error.is_some()) as fn(&Form) -> bool,
            ),
            (Action::SetGlobal("abc".into()), |f| {
                f.global_error.is_some() && f.work_items == 0
            }),
            (Action::SetLocal("4,4".into()), |f| f.local_error.is_some()),
            (Action::SetSeed("-1".into()), |f| f.seed_error.is_some()),
            (
                Action::SetArg {
                    id: 0,
                    text: "ids=quux[8]".into(),
                },
                |f| f.arg_error(0).is_some(),
            ),
            (
                Action::SetArg {
                    id: 1,
                    text: "ids=int[2]".into(),
                },
                |f| f.arg_error(1).is_some_and(|m| m.contains("twice")),
            ),
        ] {
            let form = validate(&reduce(&State::default(), action));
            assert!(check(&form), "{form:?}");
            assert!(form.scenario.is_none());
        }
    }

    #[test]
    fn an_empty_local_size_lets_the_engine_choose() {
        let form = validate(&reduce(&State::default(), Action::SetLocal("".into())));
        assert_eq!(form.scenario.expect("valid").launch.local, None);
    }

    #[test]
    fn empty_argument_rows_are_skipped() {
        let form = validate(&reduce(&State::default(), Action::AddArg));
        assert_eq!(form.scenario.expect("valid").args.len(), 2);
    }

    #[test]
    fn a_litmus_test_is_recognised_by_its_first_word() {
        assert!(is_litmus("OPENCL MP\n{ }"));
        assert!(is_litmus(
            "  (* a (* nested *) comment *)\n// line\n/* block */ OPENCL SB"
        ));
        assert!(!is_litmus("OPENCLX"));
        assert!(!is_litmus("(* never closed OPENCL"));
        assert!(!is_litmus("__kernel void k() {} // OPENCL"));
        assert!(!is_litmus(""));
    }

    #[test]
    fn a_litmus_test_ignores_the_launch_fields() {
        let state = reduce(
            &State::default(),
            Action::LoadExample(&crate::examples::EXAMPLES[1]),
        );
        let state = reduce(&state, Action::SetGlobal("nonsense".into()));
        let state = reduce(&state, Action::SetMemoryModel(MemoryModel::Relaxed));
        let form = validate(&state);
        assert!(form.is_litmus && form.global_error.is_none());
        assert_eq!(form.work_items, 2);
        let scenario = form.scenario.expect("valid");
        assert_eq!(scenario.dialect, Dialect::Litmus);
        assert_eq!(scenario.memory_model, MemoryModel::Relaxed);
        assert_eq!(scenario.file_name, LITMUS_FILE_NAME);
        // A broken test is still handed to the engine, which explains what is wrong.
        let broken = validate(&reduce(
            &state,
            Action::EditSource("OPENCL X\nnonsense".into()),
        ));
        assert!(broken.scenario.is_some() && broken.litmus.is_none());
        assert_eq!(broken.work_items, 0);
        let bad_seed = validate(&reduce(&state, Action::SetSeed("x".into())));
        assert!(bad_seed.scenario.is_none() && bad_seed.seed_error.is_some());
    }

    #[test]
    fn seeds_accept_hex() {
        assert_eq!(parse_seed("0x10"), Ok(16));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
    }
}
