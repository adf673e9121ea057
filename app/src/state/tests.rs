//! The reducers' tests: an action applied to a state gives the expected state.

use super::*;
use crate::examples;
use crate::files::OpenedFile;
use crate::form;
use crate::inputs::{InputEdit, Inputs};
use interleave_engine::scenario::{Dialect, Granularity, MemoryModel, Progress, SchedulerKind};

/// The arguments of the default example.
const DEFAULT_ARGS: [&str; 2] = ["ids=int[8]", "counters=int[2]:fill=0"];

#[test]
fn stepping_back_from_the_end_reopens_the_run() {
    let ended = reduce(&opened(), Action::Advanced { ended: Some(summary(RunStatus::Completed)) });
    assert!(ended.ended());
    let back = reduce(&ended, Action::Rewound { ended: None });
    assert!(!back.ended() && back.run.live && !back.run.running);
    assert!(back.run.generation > ended.run.generation);
}

fn opened() -> State {
    reduce(&State::default(), Action::SessionOpened)
}

#[test]
fn run_to_finding_runs_with_its_target_and_run_resets_it() {
    let to_finding = reduce(&opened(), Action::RunToFinding { after: 2 });
    assert!(to_finding.run.running);
    assert_eq!(to_finding.run.target, RunTarget::NextFinding { after: 2 });
    let paused = reduce(&to_finding, Action::RunStopped);
    let run = reduce(&paused, Action::RunStarted);
    assert!(run.run.running);
    assert_eq!(run.run.target, RunTarget::End);
    // Without a session nothing runs.
    let idle = reduce(&State::default(), Action::RunToFinding { after: 0 });
    assert!(!idle.run.running);
}

#[test]
fn opening_a_finding_reveals_its_step_and_selects_its_work_item() {
    let first = reduce(&opened(), Action::OpenFinding { index: 1, step: Some(12), work_item: Some(3) });
    assert_eq!(first.view.finding, Some(1));
    assert_eq!(first.view.selected, Some(3));
    let (serial, step) = first.view.reveal.expect("a reveal request");
    assert_eq!(step, 12);
    // Opening the same finding again asks again, with a new serial.
    let again = reduce(&first, Action::OpenFinding { index: 1, step: Some(12), work_item: None });
    assert_eq!(again.view.reveal, Some((serial + 1, 12)));
    assert_eq!(again.view.selected, Some(3), "no work-item keeps the selection");
    // A new session forgets which finding was open, but not the selection.
    let reopened = reduce(&again, Action::SessionOpened);
    assert_eq!(reopened.view.finding, None);
    assert_eq!(reopened.view.selected, Some(3));
}

#[test]
fn panes_stay_within_their_bounds() {
    let wide = reduce(&State::default(), Action::ResizePane { pane: Pane::Editor, size: 1e9 });
    assert_eq!(wide.view.panes.editor, Panes::MAX);
    let narrow = reduce(&wide, Action::ResizePane { pane: Pane::Inspector, size: 3.0 });
    assert_eq!(narrow.view.panes.inspector, Panes::MIN);
    let nan = reduce(&narrow, Action::ResizePane { pane: Pane::Workspace, size: f64::NAN });
    assert_eq!(nan.view.panes, narrow.view.panes);
    let short = reduce(&nan, Action::ResizePane { pane: Pane::Launch, size: 10.0 });
    assert_eq!(short.view.panes.launch, Panes::MIN_LAUNCH);
}

/// The editor's share of a 1600×1000 window is at least 25 lines of code (about 20 pixels
/// each, under the editor's head of about 70), and a 1280×720 window still gets a dozen.
#[test]
fn the_default_panes_leave_the_editor_room_to_read_the_kernel() {
    for (width, height, lines) in [(1600.0, 1000.0, 25.0), (1280.0, 720.0, 12.0)] {
        let panes = Panes::for_window(width, height);
        let editor = panes.workspace - panes.launch - 10.0 - 70.0;
        assert!(editor >= lines * 20.0, "{width}x{height}: {panes:?} leaves {editor}px");
        assert!(panes.launch >= 150.0, "{width}x{height}: the launch panel keeps a few rows");
        assert!(panes.editor + panes.inspector + 320.0 <= width, "{width}x{height}: the run column keeps its width");
    }
    assert_eq!(Panes::for_window(f64::NAN, 0.0), Panes::DEFAULT);
}

#[test]
fn stored_panes_are_read_over_the_defaults_within_their_bounds() {
    let defaults = Panes::for_window(1280.0, 720.0);
    let moved = Panes { editor: 600.0, ..defaults };
    assert_eq!(Panes::decode(&moved.encode(), defaults), moved);
    // A missing or unreadable size keeps its default; one out of bounds is brought in.
    let partial = Panes::decode(r#"{"editor": 5, "launch": "tall", "x": 1}"#, defaults);
    assert_eq!(partial, Panes { editor: Panes::MIN, ..defaults });
    assert_eq!(Panes::decode("not json", defaults), defaults);
    assert_eq!(Panes::decode("[1,2]", defaults), defaults);
}

#[test]
fn view_settings_keep_the_session() {
    let state = opened();
    let actions: Vec<Action> = vec![
        Action::SelectWorkItem(2),
        Action::SetInspectorTab(Tab::Locks),
        Action::SetConsoleOnlySelected(true),
        Action::SetSpeed(Speed::PerSecond(10)),
        Action::ToggleHelp,
        Action::ResizePane { pane: Pane::Workspace, size: 400.0 },
    ];
    let mut now = state.clone();
    for action in actions {
        now = reduce(&now, action);
        assert!(now.run.live);
        assert_eq!(now.run.generation, state.run.generation);
        assert_eq!(now.revision, state.revision);
    }
    assert_eq!(now.view.selected, Some(2));
    assert_eq!(now.view.inspector_tab, Tab::Locks);
    assert!(now.view.console_only_selected && now.view.help_open);
    assert_eq!(now.run.speed.label(), "10 steps/s");
    assert!(!reduce(&now, Action::CloseHelp).view.help_open);
}

fn summary(status: RunStatus) -> Summary {
    Summary { status, steps: 42, trace_hash: "3fa2".into(), registers: None, exists: None }
}

#[test]
fn starts_with_the_example_and_its_launch() {
    let state = State::default();
    assert!(state.inputs.source.contains("__kernel void count"));
    assert_eq!(state.inputs.global.as_str(), "8");
    assert_eq!(state.inputs.local.as_str(), "4");
    assert_eq!(state.inputs.seed.as_str(), "1");
    let args: Vec<&str> = state.inputs.args.iter().map(|row| row.text.as_str()).collect();
    assert_eq!(args, DEFAULT_ARGS);
    assert!(!state.run.live && !state.run.running);
}

#[test]
fn opening_a_session_clears_old_diagnostics() {
    let failed =
        reduce(&State::default(), Action::SessionFailed { diagnostics: Rc::new(vec![Diagnostic::error("syntax-error", "bad")]), source: "bad".into() });
    assert_eq!(failed.problems.diagnostics.len(), 1);
    assert!(!failed.run.live);
    let opened = reduce(&failed, Action::SessionOpened);
    assert!(opened.run.live);
    assert!(opened.problems.diagnostics.is_empty());
    assert!(opened.run.generation > failed.run.generation);
}

#[test]
fn every_edit_invalidates_the_session() {
    let edits: Vec<fn() -> Action> = vec![
        || Action::Edit(InputEdit::Source("__kernel void k() {}".into())),
        || Action::Edit(InputEdit::Global("16".into())),
        || Action::Edit(InputEdit::Local("".into())),
        || Action::Edit(InputEdit::Seed("7".into())),
        || Action::Edit(InputEdit::Scheduler(SchedulerKind::Pct)),
        || Action::Edit(InputEdit::Arg { id: 0, text: "ids=int[16]".into() }),
        || Action::Edit(InputEdit::AddArg),
        || Action::Edit(InputEdit::RemoveArg(1)),
        || Action::Edit(InputEdit::MemoryModel(MemoryModel::Relaxed)),
        || Action::LoadExample(&examples::EXAMPLES[1]),
    ];
    for edit in edits {
        let running = reduce(&opened(), Action::RunStarted);
        assert!(running.run.running);
        let edited = reduce(&running, edit());
        assert!(!edited.run.live);
        assert!(!edited.run.running);
        assert!(edited.revision > running.revision);
        assert!(edited.run.generation > running.run.generation);
    }
}

#[test]
fn an_unchanged_source_keeps_the_session() {
    let state = opened();
    let same = reduce(&state, Action::Edit(InputEdit::Source(state.inputs.source.clone())));
    assert!(same.run.live);
    assert_eq!(same.revision, state.revision);
}

#[test]
fn argument_rows_keep_their_ids() {
    let added = reduce(&State::default(), Action::Edit(InputEdit::AddArg));
    assert_eq!(added.inputs.args.len(), 3);
    let removed = reduce(&added, Action::Edit(InputEdit::RemoveArg(0)));
    let ids: Vec<u32> = removed.inputs.args.iter().map(|row| row.id).collect();
    assert_eq!(ids, [1, 2]);
    let edited = reduce(&removed, Action::Edit(InputEdit::Arg { id: 2, text: "n=int:3".into() }));
    assert_eq!(edited.inputs.args[1].text.as_str(), "n=int:3");
    let again = reduce(&edited, Action::Edit(InputEdit::AddArg));
    assert_eq!(again.inputs.args[2].id, 3);
}

#[test]
fn a_run_stops_when_it_ends() {
    let running = reduce(&opened(), Action::RunStarted);
    let progressed = reduce(&running, Action::Advanced { ended: None });
    assert!(progressed.run.running);
    assert!(progressed.run.generation > running.run.generation);
    let ended = reduce(&progressed, Action::Advanced { ended: Some(summary(RunStatus::Completed)) });
    assert!(!ended.run.running);
    assert!(ended.ended());
    assert_eq!(ended.run.summary.as_ref().map(|s| s.steps), Some(42));
    // An ended run cannot be started again; Reset makes a new session for that.
    assert!(!reduce(&ended, Action::RunStarted).run.running);
    let reset = reduce(&ended, Action::SessionOpened);
    assert!(reset.run.summary.is_none());
}

#[test]
fn pausing_stops_the_run_but_keeps_the_session() {
    let running = reduce(&opened(), Action::RunStarted);
    let paused = reduce(&running, Action::RunStopped);
    assert!(!paused.run.running);
    assert!(paused.run.live);
}

#[test]
fn a_run_needs_a_session() {
    assert!(!reduce(&State::default(), Action::RunStarted).run.running);
    let advanced = reduce(&State::default(), Action::Advanced { ended: None });
    assert_eq!(advanced.run.generation, 0);
}

#[test]
fn the_theme_toggles_without_touching_the_session() {
    let state = opened();
    let dark = reduce(&state, Action::SetTheme(state.view.theme.other()));
    assert_eq!(dark.view.theme, Theme::Dark);
    assert!(dark.run.live);
    assert_eq!(dark.run.generation, state.run.generation);
}

use interleave_engine::explore::{explore_with, Config};

fn mp() -> Scenario {
    let mut scenario = Scenario::new(examples::EXAMPLES[1].source, "test.litmus", Dialect::Litmus);
    scenario.memory_model = MemoryModel::Relaxed;
    scenario
}

fn explored(state: &State, id: u64, mode: ExploreMode, parts: usize) -> State {
    reduce(state, Action::ExploreStarted { id, mode, scenario: Rc::new(mp()), workers: parts, budgets: vec![100; parts] })
}

fn done(id: u64, part: usize, config: Config, stopped: bool) -> Action {
    Action::ExploreEvent { id, part, event: WorkerEvent::Done { exploration: Rc::new(explore_with(&mp(), config).unwrap()), stopped } }
}

fn seeds(first_seed: u64, runs: u64) -> Config {
    Config { runs, first_seed, exhaustive: false, max_preemptions: None }
}

const EXHAUSTIVE: Config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };

#[test]
fn an_exploration_merges_its_parts_when_all_have_reported() {
    let state = explored(&State::default(), 1, ExploreMode::Random, 2);
    assert!(state.exploring());
    let progress = reduce(&state, Action::ExploreEvent { id: 1, part: 1, event: WorkerEvent::Progress { executions: 40, budget: 100 } });
    let run = progress.explore.current.clone().unwrap();
    assert_eq!((run.executions(), run.budget()), (40, 200));
    let half = reduce(&progress, done(1, 0, seeds(0, 100), false));
    assert_eq!(half.explore.current.as_ref().unwrap().phase, Phase::Running);
    assert!(half.explore.current.as_ref().unwrap().result.is_none());
    let all = reduce(&half, done(1, 1, seeds(100, 100), false));
    let run = all.explore.current.clone().unwrap();
    assert_eq!(run.phase, Phase::Done);
    assert!(!all.exploring());
    let result = run.result.clone().unwrap();
    assert_eq!(result, Rc::new(explore_with(&mp(), seeds(0, 200)).unwrap()));
    assert_eq!(run.executions(), 200);
}

#[test]
fn messages_of_an_earlier_exploration_are_ignored() {
    let state = explored(&State::default(), 2, ExploreMode::Exhaustive, 1);
    let stale = reduce(&state, done(1, 0, EXHAUSTIVE, false));
    assert_eq!(stale.explore.current, state.explore.current);
    let out_of_range = reduce(&state, done(2, 5, EXHAUSTIVE, false));
    assert_eq!(out_of_range.explore.current, state.explore.current);
}

#[test]
fn stopping_gives_the_results_so_far() {
    let state = explored(&State::default(), 1, ExploreMode::Random, 2);
    let stopping = reduce(&state, Action::ExploreStop);
    assert_eq!(stopping.explore.current.as_ref().unwrap().phase, Phase::Stopping);
    let one = reduce(&stopping, done(1, 0, seeds(0, 10), true));
    let both = reduce(&one, done(1, 1, seeds(50, 10), true));
    let run = both.explore.current.clone().unwrap();
    assert_eq!(run.phase, Phase::Cancelled);
    assert_eq!(run.result.as_ref().unwrap().runs, 20);
    // Abandoning keeps what has arrived.
    let abandoned = reduce(&one, Action::ExploreAbandoned);
    let run = abandoned.explore.current.clone().unwrap();
    assert_eq!(run.phase, Phase::Cancelled);
    assert_eq!(run.result.as_ref().unwrap().runs, 10);
}

#[test]
fn a_failed_exploration_shows_its_diagnostics() {
    let state = explored(&State::default(), 1, ExploreMode::Exhaustive, 1);
    let failed = reduce(&state, Action::ExploreEvent { id: 1, part: 0, event: WorkerEvent::Failed { diagnostics: vec![Diagnostic::error("litmus", "bad")] } });
    assert_eq!(failed.explore.current.as_ref().unwrap().phase, Phase::Failed);
    assert_eq!(failed.problems.diagnostics.len(), 1);
    assert!(failed.problems.source.starts_with("OPENCL MP"));
    let crashed = reduce(&state, Action::ExploreEvent { id: 1, part: 0, event: WorkerEvent::Crashed { message: "gone".into() } });
    let run = crashed.explore.current.clone().unwrap();
    assert_eq!((run.phase, run.problem.as_deref()), (Phase::Failed, Some("gone")));
}

#[test]
fn an_exhaustive_outcome_loads_as_a_replay() {
    let state = reduce(&State::default(), Action::LoadExample(&examples::EXAMPLES[1]));
    let state = reduce(&state, Action::Edit(InputEdit::MemoryModel(MemoryModel::Relaxed)));
    let state = reduce(&explored(&state, 1, ExploreMode::Exhaustive, 1), done(1, 0, EXHAUSTIVE, false));
    let result = state.explore.current.as_ref().unwrap().result.clone().unwrap();
    let weak = result.outcomes.iter().position(|o| o.exists == Some(true)).unwrap();
    let loaded = reduce(&state, Action::LoadOutcome(weak));
    let replay = loaded.inputs.replay.clone().expect("a replay");
    assert_eq!(Some(&replay.schedule), result.outcomes[weak].schedule.as_ref());
    assert!(loaded.run.autorun && !loaded.run.live);
    assert_eq!(loaded.explore.current.as_ref().unwrap().selected, Some(weak));
    let scenario = crate::form::validate(&loaded.inputs).scenario.unwrap();
    assert_eq!(scenario.scheduler, SchedulerKind::Manual);
    assert_eq!(scenario.choices, replay.choices);
    // Opening the session ends the request to run; an edit drops the replay.
    assert!(!reduce(&loaded, Action::SessionOpened).run.autorun);
    let edited = reduce(&loaded, Action::Edit(InputEdit::Seed("3".into())));
    assert!(edited.inputs.replay.is_none() && !edited.run.autorun);
    // A finding of an exhaustive search loads as the replay of the execution that showed
    // it, never as a seed alone.
    for (index, found) in result.findings.iter().enumerate() {
        let loaded = reduce(&state, Action::LoadFinding(index));
        assert_eq!(loaded.inputs.replay.as_ref().map(|r| &r.schedule), found.schedule.as_ref(), "finding {index}");
    }
    assert_eq!(reduce(&state, Action::LoadOutcome(99)).revision, state.revision);
}

#[test]
fn a_random_outcome_loads_its_seed_and_scheduler() {
    let mut state = reduce(&State::default(), Action::Edit(InputEdit::Scheduler(SchedulerKind::Pct)));
    state = explored(&state, 1, ExploreMode::Random, 1);
    // The explored scenario's scheduler (random) wins over the panel's.
    let state = reduce(&state, done(1, 0, seeds(20, 50), false));
    let result = state.explore.current.as_ref().unwrap().result.clone().unwrap();
    let index = result.outcomes.iter().position(|o| o.schedule.is_none()).unwrap();
    let loaded = reduce(&state, Action::LoadOutcome(index));
    assert_eq!(loaded.inputs.seed.as_str(), result.outcomes[index].seed.to_string());
    assert_eq!(loaded.inputs.scheduler, SchedulerKind::Random);
    assert!(loaded.inputs.replay.is_none() && loaded.run.autorun);
}

#[test]
fn explore_settings_keep_the_session() {
    let state = opened();
    for action in [Action::SetExploreMode(ExploreMode::Exhaustive), Action::SetExploreRuns("50".into()), Action::SetExplorePreemptions("2".into())] {
        let next = reduce(&state, action);
        assert!(next.run.live);
        assert_eq!(next.revision, state.revision);
    }
}

#[test]
fn a_kernel_example_brings_its_launch() {
    let litmus = reduce(&State::default(), Action::LoadExample(&examples::EXAMPLES[1]));
    assert!(litmus.inputs.source.starts_with("OPENCL MP"));
    assert_eq!(litmus.example(), Some("litmus/mp.litmus"));
    let edited = reduce(&litmus, Action::Edit(InputEdit::Global("3".into())));
    let back = reduce(&edited, Action::LoadExample(&examples::DEFAULT));
    assert_eq!(back.inputs.global.as_str(), "8");
    assert_eq!(back.inputs.args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(), DEFAULT_ARGS);
    assert!(reduce(&back, Action::Edit(InputEdit::Source("x".into()))).example().is_none());
}

#[test]
fn a_gallery_example_brings_every_setting_of_its_scenario_file() {
    let hang = examples::find("interwork_group_reduction_hang.toml").expect("a gallery example");
    let loaded = reduce(&State::default(), Action::LoadExample(hang));
    assert_eq!(loaded.example(), Some("interwork_group_reduction_hang.toml"));
    assert_eq!(loaded.inputs.source.as_str(), hang.source);
    assert_eq!((loaded.inputs.global.as_str(), loaded.inputs.local.as_str(), loaded.inputs.seed.as_str()), ("64", "4", "3"));
    assert_eq!(loaded.inputs.resident_groups.as_str(), "1");
    assert_eq!(loaded.inputs.carried.title, hang.title);
    assert!(!loaded.edited);
    let scenario = form::validate(&loaded.inputs).scenario.expect("a valid scenario");
    assert_eq!(scenario.max_resident_groups, Some(1));
    assert_eq!(scenario.max_steps, 50000);
    assert_eq!(scenario.report_buffers, ["sums", "locks"]);
    let mp = reduce(&loaded, Action::LoadExample(examples::find("mp_relaxed.toml").expect("a gallery example")));
    assert_eq!(mp.inputs.memory_model, MemoryModel::Relaxed);
    assert!(form::validate(&mp.inputs).is_litmus);
}

#[test]
fn a_selected_work_item_survives_new_sessions_that_have_it() {
    let selected = reduce(&State::default(), Action::SelectWorkItem(6));
    assert_eq!(selected.view.selected, Some(6));
    let opened = reduce(&selected, Action::SessionOpened);
    assert_eq!(reduce(&opened, Action::WorkItemsKnown(8)).view.selected, Some(6));
    assert_eq!(reduce(&opened, Action::WorkItemsKnown(4)).view.selected, None);
}

#[test]
fn the_new_launch_settings_invalidate_the_session() {
    let edits: Vec<fn() -> Action> = vec![
        || Action::Edit(InputEdit::Dialect(Dialect::Cuda)),
        || Action::Edit(InputEdit::Kernel("count".into())),
        || Action::Edit(InputEdit::Offset("2".into())),
        || Action::Edit(InputEdit::WarpSize("16".into())),
        || Action::Edit(InputEdit::PctDepth("4".into())),
        || Action::Edit(InputEdit::ResidentGroups("1".into())),
        || Action::Edit(InputEdit::Progress(Progress::Fair)),
        || Action::Edit(InputEdit::Granularity(Granularity::Statement)),
        || Action::Edit(InputEdit::MaxSteps("500".into())),
        || Action::Edit(InputEdit::ArgText { param: "ids".into(), text: "ids=int[4]".into() }),
    ];
    for edit in edits {
        let running = reduce(&opened(), Action::RunStarted);
        let edited = reduce(&running, edit());
        assert!(!edited.run.live && !edited.run.running && edited.edited);
        assert!(edited.revision > running.revision);
    }
}

#[test]
fn switching_the_dialect_turns_sizes_into_a_grid_and_back() {
    let cuda = reduce(&State::default(), Action::Edit(InputEdit::Dialect(Dialect::Cuda)));
    assert_eq!((cuda.inputs.global.as_str(), cuda.inputs.local.as_str()), ("2", "4"));
    let back = reduce(&cuda, Action::Edit(InputEdit::Dialect(Dialect::OpenCl)));
    assert_eq!((back.inputs.global.as_str(), back.inputs.local.as_str()), ("8", "4"));
    // Sizes that do not divide stay as they are.
    let odd = reduce(&State::default(), Action::Edit(InputEdit::Local("3".into())));
    let odd = reduce(&odd, Action::Edit(InputEdit::Dialect(Dialect::Cuda)));
    assert_eq!(odd.inputs.global.as_str(), "8");
    assert_eq!(reduce(&odd, Action::Edit(InputEdit::Dialect(Dialect::Litmus))).inputs.dialect, Dialect::Cuda);
}

#[test]
fn table_edits_update_a_parameter_s_row_or_add_one() {
    let mut fields = crate::args::ArgFields::from_binding(&interleave_engine::scenario::ArgBinding::parse("counters=int[2]").unwrap());
    fields.len = "3".into();
    let state = reduce(&State::default(), Action::Edit(InputEdit::ArgFields(fields.clone())));
    assert_eq!(state.inputs.args.len(), 2);
    assert_eq!(state.inputs.args[1].id, 1);
    assert_eq!(state.inputs.args[1].text.as_str(), "counters=int[3]");
    assert_eq!(state.inputs.args[1].fields, Some(fields.clone()));
    fields.name = "extra".into();
    let added = reduce(&state, Action::Edit(InputEdit::ArgFields(fields)));
    assert_eq!(added.inputs.args.len(), 3);
    assert_eq!(added.inputs.args[2].param.as_deref(), Some("extra"));
    // Text typed into the row replaces its fields.
    let typed = reduce(&added, Action::Edit(InputEdit::ArgText { param: "extra".into(), text: "extra=null".into() }));
    assert_eq!(typed.inputs.args[2].fields, None);
    assert_eq!(typed.inputs.args[2].text.as_str(), "extra=null");
}

#[test]
fn loading_over_edits_keeps_them_one_click_away() {
    let untouched = reduce(&State::default(), Action::LoadExample(&examples::EXAMPLES[1]));
    assert!(untouched.stash.is_none(), "an unedited example loses nothing");
    let edited = reduce(&State::default(), Action::Edit(InputEdit::Global("3".into())));
    let loaded = reduce(&edited, Action::LoadExample(&examples::EXAMPLES[1]));
    let stash = loaded.stash.clone().expect("the edits are kept");
    assert_eq!(stash.label, examples::EXAMPLES[1].title);
    assert!(!stash.restored && !loaded.edited);
    assert!(loaded.inputs.source.starts_with("OPENCL MP"));
    // Loading another example without editing keeps the same edits aside.
    let again = reduce(&loaded, Action::LoadExample(&examples::EXAMPLES[2]));
    assert_eq!(again.stash.as_ref().unwrap().inputs.global, "3");
    let restored = reduce(&again, Action::RestoreEdits);
    assert_eq!(restored.inputs.global.as_str(), "3");
    assert!(restored.inputs.source.contains("__kernel void count"));
    assert!(restored.stash.as_ref().unwrap().restored);
    assert!(restored.revision > again.revision && restored.edited);
    // And back: what was loaded is kept in turn.
    let back = reduce(&restored, Action::RestoreEdits);
    assert_eq!(back.inputs.source, again.inputs.source);
    assert!(!back.stash.as_ref().unwrap().restored);
    assert!(reduce(&back, Action::DismissStash).stash.is_none());
}

#[test]
fn stored_inputs_bring_back_the_state() {
    let mut state = State::default();
    for action in [
        Action::Edit(InputEdit::Dialect(Dialect::Cuda)),
        Action::Edit(InputEdit::Global("x".into())),
        Action::Edit(InputEdit::WarpSize("8".into())),
        Action::Edit(InputEdit::Scheduler(SchedulerKind::Lockstep)),
        Action::Edit(InputEdit::Progress(Progress::Fair)),
        Action::Edit(InputEdit::Granularity(Granularity::Statement)),
        Action::Edit(InputEdit::MemoryModel(MemoryModel::Relaxed)),
        Action::Edit(InputEdit::ResidentGroups("2".into())),
        Action::Edit(InputEdit::ArgText { param: "ids".into(), text: "ids=int[".into() }),
    ] {
        state = reduce(&state, action);
    }
    let text = inputs::encode(Inputs::clone(&state.inputs), state.edited, None);
    let stored = inputs::decode(&text).unwrap();
    let back = State::from_stored(Theme::Dark, &stored);
    assert_eq!(Inputs::clone(&back.inputs), Inputs::clone(&state.inputs));
    assert!(back.edited);
    assert_eq!(back.view.theme, Theme::Dark);
    // An unedited example comes back as that example.
    let example = reduce(&State::default(), Action::LoadExample(&examples::EXAMPLES[3]));
    let stored = inputs::decode(&inputs::encode(Inputs::clone(&example.inputs), example.edited, None)).unwrap();
    let back = State::from_stored(Theme::Light, &stored);
    assert_eq!(back.example(), Some(examples::EXAMPLES[3].id));
    assert!(!back.edited);
}

#[test]
fn opened_files_replace_the_inputs_or_explain_why_not() {
    let file = |name: &str, text: &str| OpenedFile { name: name.into(), text: text.into(), unreadable: None };
    let opened = reduce(
        &State::default(),
        Action::OpenFiles(vec![
            file("t.toml", "source_file = \"t.cu\"\nseed = 9\n[launch]\nglobal = [8]\nlocal = [2]\n"),
            file("t.cu", "__global__ void t(int *p) { p[threadIdx.x] = 1; }"),
        ]),
    );
    assert_eq!(opened.inputs.dialect, Dialect::Cuda);
    assert_eq!((opened.inputs.global.as_str(), opened.inputs.local.as_str()), ("4", "2"));
    assert_eq!(opened.inputs.seed.as_str(), "9");
    assert_eq!(opened.inputs.file_name.as_deref(), Some("t.cu"));
    assert!(opened.stash.is_none() && !opened.edited);
    let kernel = reduce(&opened, Action::OpenFiles(vec![file("k.cl", "__kernel void k() {}")]));
    assert_eq!(kernel.inputs.dialect, Dialect::OpenCl);
    assert!(kernel.stash.is_none(), "nothing was edited");
    assert_eq!((kernel.inputs.global.as_str(), kernel.inputs.local.as_str()), ("8", "2"));
    assert_eq!(kernel.inputs.seed.as_str(), "9", "a kernel file keeps the launch");
    let failed = reduce(&kernel, Action::OpenFiles(vec![file("t.toml", "seed = [")]));
    assert_eq!(failed.inputs.source, kernel.inputs.source);
    assert_eq!(failed.problems.diagnostics.len(), 1);
    assert_eq!(failed.problems.file.as_deref(), Some("t.toml"));
    assert_eq!(failed.problems.source.as_str(), "seed = [");
    assert!(reduce(&failed, Action::SessionOpened).problems.file.is_none());
    let fixed = reduce(&failed, Action::OpenFiles(vec![file("k.cl", "__kernel void k() {}")]));
    assert!(fixed.problems.diagnostics.is_empty() && fixed.problems.file.is_none());
}

#[test]
fn a_link_replaces_the_inputs_and_sets_its_view() {
    let mut scenario = interleave_engine::scenario::Scenario::new("<img src=x onerror=alert(1)>", "k.cl", Dialect::OpenCl);
    scenario.launch.global = vec![4];
    scenario.seed = 42;
    let link = crate::share::link_of(&scenario, Some(9), Some(2), Tab::Memory);
    let edited = reduce(&State::default(), Action::Edit(InputEdit::Global("3".into())));
    let opened = reduce(&edited, Action::OpenLink(Rc::new(link)));
    assert_eq!(opened.inputs.source, "<img src=x onerror=alert(1)>");
    assert_eq!(opened.inputs.seed, "42");
    assert_eq!(opened.inputs.global, "4");
    assert_eq!(opened.view.selected, Some(2));
    assert_eq!(opened.view.inspector_tab, Tab::Memory);
    assert_eq!(opened.run.link_step, Some(9));
    assert_eq!(opened.stash.as_ref().expect("the edits are kept").inputs.global, "3");
    assert_eq!(reduce(&opened, Action::LinkStarted).run.link_step, None);
    // An edit before the session opens drops the pending step.
    assert_eq!(reduce(&opened, Action::Edit(InputEdit::Seed("1".into()))).run.link_step, None);

    let failed = reduce(&State::default(), Action::LinkFailed(Diagnostic::error("invalid-link", "broken")));
    assert_eq!(failed.problems.diagnostics[0].code, "invalid-link");
    assert_eq!(failed.problems.file.as_deref(), Some("link"));
    assert_eq!(failed.inputs.source, State::default().inputs.source, "the inputs stay");
}

#[test]
fn a_link_of_the_inputs_opens_to_the_same_scenario() {
    // Inputs set through every kind of edit, and a replay from an explored outcome.
    let mut state = State::default();
    for edit in [
        InputEdit::Global("16".into()),
        InputEdit::Local("8".into()),
        InputEdit::Offset("2".into()),
        InputEdit::Seed("0x2a".into()),
        InputEdit::MemoryModel(MemoryModel::Relaxed),
        InputEdit::WarpSize("4".into()),
        InputEdit::ResidentGroups("1".into()),
        InputEdit::Progress(Progress::Fair),
        InputEdit::Granularity(Granularity::Statement),
        InputEdit::MaxSteps("5000".into()),
        InputEdit::Limit(1, "64".into()),
        InputEdit::ArgText { param: "ids".into(), text: "ids=int[16]".into() },
    ] {
        state = reduce(&state, Action::Edit(edit));
    }
    let cuda = reduce(&state, Action::Edit(InputEdit::Dialect(Dialect::Cuda)));
    let cuda = reduce(&cuda, Action::Edit(InputEdit::Source("__global__ void count(int *ids, int *counters) {}".into())));
    let pct = reduce(&state, Action::Edit(InputEdit::Scheduler(SchedulerKind::Pct)));
    let litmus = reduce(&State::default(), Action::LoadExample(&examples::EXAMPLES[1]));
    for state in [state, cuda, pct, litmus] {
        let scenario = form::validate(&state.inputs).scenario.expect("valid");
        let text = interleave_engine::link::encode(&crate::share::link_of(&scenario, None, None, Tab::WorkItem));
        let link = interleave_engine::link::decode(&text).expect("a link of ours reads back");
        let opened = reduce(&State::default(), Action::OpenLink(Rc::new(link)));
        assert_eq!(form::validate(&opened.inputs).scenario, Some(scenario));
    }
}

#[test]
fn an_edit_that_changes_nothing_keeps_the_session() {
    let opened = opened();
    let source = opened.inputs.source.clone();
    let same = reduce(&opened, Action::Edit(InputEdit::Source(source)));
    assert_eq!(same, opened);
    let dialect = reduce(&opened, Action::Edit(InputEdit::Dialect(Dialect::OpenCl)));
    assert!(dialect.run.live && dialect.revision == opened.revision);
    // A change drops the session, and with it a replay.
    let changed = reduce(&opened, Action::Edit(InputEdit::Seed("7".into())));
    assert!(!changed.run.live && changed.revision > opened.revision && changed.edited);
}

#[test]
fn each_concern_s_actions_leave_the_others_alone() {
    let opened = opened();
    let viewed = reduce(&opened, Action::SetInspectorTab(Tab::Memory));
    assert_eq!((&viewed.inputs, &viewed.run, &viewed.explore), (&opened.inputs, &opened.run, &opened.explore));
    let explored = reduce(&opened, Action::SetExploreRuns("10".into()));
    assert_eq!((&explored.inputs, &explored.run, &explored.view), (&opened.inputs, &opened.run, &opened.view));
    let sped = reduce(&opened, Action::SetSpeed(Speed::PerSecond(10)));
    assert_eq!((&sped.inputs, &sped.view, sped.revision), (&opened.inputs, &opened.view, opened.revision));
}
