//! What the inspector shows, read out of a session: the selected work-item (ids, status in
//! words, call stack with its variables), one memory as a grid with last writers and stale
//! reads, the locks with holders and waiters, the barriers with who is missing, and the
//! printf console.
//!
//! Only the open tab is read: the lock analysis and a memory's last writers scan the event
//! log, which is cheap once per step but wasteful for a tab nobody looks at. Like
//! [`crate::snapshot`], everything here comes from the engine; this module only arranges it
//! and words it, and it touches no web API, so it is tested natively.

use std::collections::BTreeMap;

use interleave_engine::inspect::{BarrierView, FrameView, MemoryRef, MemoryView};
use interleave_engine::report::{LockAction, LockReport, PrintfLine, StaleReadView};
use interleave_engine::scenario::Dialect;
use interleave_engine::session::{Session, WorkItemStatus, WorkItemView};
use interleave_engine::trace::Space;

/// The inspector's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    WorkItem,
    Memory,
    Locks,
    Barriers,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::WorkItem, Tab::Memory, Tab::Locks, Tab::Barriers];

    pub fn as_str(self) -> &'static str {
        match self {
            Tab::WorkItem => "work-item",
            Tab::Memory => "memory",
            Tab::Locks => "locks",
            Tab::Barriers => "barriers",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Tab::WorkItem => "Work-item",
            Tab::Memory => "Memory",
            Tab::Locks => "Locks",
            Tab::Barriers => "Barriers",
        }
    }
}

/// The selected work-item.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkItemPanel {
    pub view: WorkItemView,
    /// The ids as the dialect names them: `global (5,0,0)` or CUDA's `threadIdx`/`blockIdx`.
    pub ids: Vec<(&'static str, String)>,
    /// What it is doing, in words: "running (line 12)", "at barrier 2 of group 0, 3 of 4
    /// arrived", "spinning on lock `locks[0]` held by wi 3", "finished".
    pub status: String,
    pub frames: Vec<FrameView>,
}

/// One lock with what the inspector says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct LockPanel {
    pub report: LockReport,
    /// Who holds it at the current step, by global id.
    pub holder: Option<[u64; 3]>,
    /// Who waits for it now: work-items whose latest action on it was a failed attempt and
    /// that have not taken it since.
    pub waiters: Vec<[u64; 3]>,
}

/// One barrier with the members that have not arrived.
#[derive(Clone, Debug, PartialEq)]
pub struct BarrierPanel {
    pub view: BarrierView,
    /// Members of the group still on their way (not arrived, not finished), by linear index.
    pub missing: Vec<u32>,
}

/// The open tab's contents.
#[derive(Clone, Debug, PartialEq)]
pub enum Contents {
    /// No work-item is selected yet.
    NoWorkItem,
    WorkItem(Box<WorkItemPanel>),
    Memory {
        /// Every memory the run has, with its name, for the chooser.
        memories: Vec<(MemoryRef, String)>,
        /// The chosen memory (the first one when none was chosen or the choice is gone).
        shown: Option<Box<MemoryView>>,
        /// Stale reads of this memory's elements by index (relaxed model), with their text.
        stale: BTreeMap<u64, String>,
    },
    Locks(Vec<LockPanel>),
    Barriers(Vec<BarrierPanel>),
}

/// What the inspector reads for one step.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    pub tab: Tab,
    pub contents: Contents,
}

/// `wi 5`, or `wi (1,2,0)` for a multi-dimensional id.
pub fn work_item_name(id: [u64; 3]) -> String {
    if id[1] == 0 && id[2] == 0 {
        format!("wi {}", id[0])
    } else {
        format!("wi ({},{},{})", id[0], id[1], id[2])
    }
}

fn triple(id: [u64; 3]) -> String {
    format!("({}, {}, {})", id[0], id[1], id[2])
}

/// Reads the open tab's contents from `session`; `memory` is the memory the user chose.
pub fn inspect(session: &Session, tab: Tab, selected: Option<usize>, memory: Option<MemoryRef>) -> Inspection {
    let contents = match tab {
        Tab::WorkItem => match selected.filter(|&i| i < session.work_item_count()) {
            Some(index) => Contents::WorkItem(Box::new(work_item(session, index))),
            None => Contents::NoWorkItem,
        },
        Tab::Memory => {
            let memories = session.memories();
            let chosen = memory.filter(|m| memories.iter().any(|(r, _)| r == m)).or_else(|| memories.first().map(|(r, _)| *r));
            let shown = chosen.and_then(|m| session.memory(m)).map(Box::new);
            let stale = shown.as_deref().map(|view| stale_reads(session, view)).unwrap_or_default();
            Contents::Memory { memories, shown, stale }
        }
        Tab::Locks => Contents::Locks(locks(session)),
        Tab::Barriers => Contents::Barriers(barriers(session)),
    };
    Inspection { tab, contents }
}

fn work_item(session: &Session, index: usize) -> WorkItemPanel {
    let view = session.work_item(index);
    let cuda = session.scenario().dialect == Dialect::Cuda;
    let ids = if cuda {
        vec![("threadIdx", triple(view.local_id)), ("blockIdx", triple(view.group_id)), ("global", triple(view.global_id)), ("lane", index.to_string())]
    } else {
        vec![("global id", triple(view.global_id)), ("local id", triple(view.local_id)), ("group id", triple(view.group_id)), ("lane", index.to_string())]
    };
    let status = status_text(session, &view);
    let frames = session.call_stack(index);
    WorkItemPanel { view, ids, status, frames }
}

/// The status of a work-item in words, with what it waits for.
fn status_text(session: &Session, view: &WorkItemView) -> String {
    let line = view.line.map(|l| format!(" (line {l})")).unwrap_or_default();
    match view.status {
        WorkItemStatus::Ready => format!("running{line}"),
        WorkItemStatus::HeldBack => {
            format!("held back by lockstep{line}: a warp's lanes step together, one instruction at a time, the lanes furthest behind first")
        }
        WorkItemStatus::Finished => "finished".into(),
        WorkItemStatus::Faulted => format!("stopped by a fault{line}"),
        WorkItemStatus::NotStarted => "not started: its work-group is not resident yet".into(),
        WorkItemStatus::Waiting => format!("waiting for async copies{line}"),
        WorkItemStatus::AtBarrier => {
            let barrier = session.barriers().into_iter().find(|b| b.group as usize == view.group);
            match barrier {
                Some(b) => format!("at the barrier of group {}{line}, {} of {} arrived", b.group, b.arrived.len(), b.expected),
                None => format!("at a barrier{line}"),
            }
        }
        WorkItemStatus::Spinning => {
            let me = view.global_id;
            let waited = locks(session).into_iter().find(|lock| lock.waiters.contains(&me));
            match waited {
                Some(lock) => match lock.holder {
                    Some(holder) => format!("spinning on lock `{}`{line}, held by {}", lock.report.location, work_item_name(holder)),
                    None => format!("spinning on lock `{}`{line}", lock.report.location),
                },
                None => format!("spinning{line}: re-reading values nobody changes"),
            }
        }
    }
}

/// The locks with their holder and waiters at the current step, from their timelines.
fn locks(session: &Session) -> Vec<LockPanel> {
    session
        .locks()
        .into_iter()
        .map(|report| {
            let holder = report.timeline.last().and_then(|e| e.holder);
            // The latest action of each work-item on this lock; those whose latest action was
            // a failed attempt are still waiting (an acquire or a release ends the wait).
            let mut latest: BTreeMap<[u64; 3], LockAction> = BTreeMap::new();
            for event in &report.timeline {
                latest.insert(event.work_item, event.what);
            }
            let waiters = latest.into_iter().filter(|&(who, what)| what == LockAction::Attempt && Some(who) != holder).map(|(who, _)| who).collect();
            LockPanel { report, holder, waiters }
        })
        .collect()
}

/// Each barrier with the members that have not arrived: members of the group that are
/// neither waiting there nor finished. One pass over the work-items serves every barrier, so
/// a launch of many groups costs one read per work-item, not one per work-item and group.
fn barriers(session: &Session) -> Vec<BarrierPanel> {
    let mut panels: Vec<BarrierPanel> = session.barriers().into_iter().map(|view| BarrierPanel { view, missing: Vec::new() }).collect();
    // The panel of each group that has a barrier with arrivals; groups nobody waits in show
    // no panel, so their members are not looked at.
    let mut by_group = std::collections::HashMap::new();
    for (at, panel) in panels.iter().enumerate() {
        if !panel.view.arrived.is_empty() {
            by_group.insert(panel.view.group as usize, at);
        }
    }
    if by_group.is_empty() {
        return panels;
    }
    for index in 0..session.work_item_count() {
        let item = session.work_item(index);
        let Some(&at) = by_group.get(&item.group) else {
            continue;
        };
        let panel = &mut panels[at];
        if item.status != WorkItemStatus::Finished && !panel.view.arrived.contains(&(index as u32)) {
            panel.missing.push(index as u32);
        }
    }
    panels
}

/// The stale reads of the memory `view` shows, by element index, in words: each element's
/// latest (the engine matches them by location, so a work-group's local memory shows its own
/// members' reads).
fn stale_reads(session: &Session, view: &MemoryView) -> BTreeMap<u64, String> {
    session.stale_reads_of(view.memory).into_iter().map(|(index, read)| (index, stale_text(&read))).collect()
}

/// `wi 1 read a stale value at step 7: 0 from the initial contents; ...`.
fn stale_text(read: &StaleReadView) -> String {
    let written = read.written_at.map_or("the initial contents".to_string(), |s| format!("the write at step {s}"));
    let newer = read.newer_at.map(|s| format!("; the newer write at step {s} was not yet visible to it")).unwrap_or_default();
    format!("{} read a stale value at step {}: {} from {written}{newer}", work_item_name(read.work_item), read.step, read.value)
}

/// The printf output grouped as the console shows it: in order, optionally only one
/// work-item's lines.
pub fn console(lines: &[PrintfLine], only: Option<[u64; 3]>) -> Vec<(String, String)> {
    lines.iter().filter(|line| only.is_none_or(|id| line.work_item == id)).map(|line| (work_item_name(line.work_item), line.text.clone())).collect()
}

/// Whether a memory is local to a work-group, for the chooser's labels.
pub fn memory_label(memory: &MemoryRef, name: &str) -> String {
    match (memory.space, memory.group) {
        (Space::Local, Some(group)) => format!("{name} (local, group {group})"),
        (Space::Global, _) => format!("{name} (global)"),
        (space, _) => format!("{name} ({space:?})").to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::Scenario;

    fn session(source: &str, global: u64, local: u64, args: &[&str]) -> Session {
        let mut scenario = Scenario::new(source, "kernel.cl", Dialect::OpenCl);
        scenario.launch.global = vec![global];
        scenario.launch.local = Some(vec![local]);
        scenario.args = args.iter().map(|a| interleave_engine::scenario::ArgBinding::parse(a).expect("argument")).collect();
        Session::new(scenario).expect("the kernel compiles")
    }

    const COUNT: &str = "__kernel void k(__global int *out) {\n\
        int gid = get_global_id(0);\n\
        out[gid] = gid;\n\
        barrier(CLK_GLOBAL_MEM_FENCE);\n\
        printf(\"%d\\n\", gid);\n\
        }\n";

    #[test]
    fn a_selected_work_item_shows_its_ids_status_and_frames() {
        let s = session(COUNT, 4, 2, &["out=int[4]:fill=0"]);
        let inspection = inspect(&s, Tab::WorkItem, Some(3), None);
        let Contents::WorkItem(panel) = inspection.contents else {
            panic!("expected a work-item panel, got {:?}", inspection.contents);
        };
        assert_eq!(panel.view.index, 3);
        assert!(panel.ids.contains(&("global id", "(3, 0, 0)".into())));
        assert!(panel.ids.contains(&("group id", "(1, 0, 0)".into())));
        assert!(panel.status.starts_with("running"), "{}", panel.status);
        assert_eq!(panel.frames.len(), 1);
        assert_eq!(panel.frames[0].function, "k");
    }

    #[test]
    fn no_selection_or_a_gone_work_item_shows_nothing() {
        let s = session(COUNT, 4, 2, &["out=int[4]:fill=0"]);
        assert_eq!(inspect(&s, Tab::WorkItem, None, None).contents, Contents::NoWorkItem);
        assert_eq!(inspect(&s, Tab::WorkItem, Some(9), None).contents, Contents::NoWorkItem);
    }

    #[test]
    fn a_work_item_at_a_barrier_says_how_many_arrived() {
        let mut s = session(COUNT, 4, 2, &["out=int[4]:fill=0"]);
        // Step work-item 0 until it waits at the barrier; its partner has not moved.
        for _ in 0..10 {
            if s.work_item(0).status == WorkItemStatus::AtBarrier {
                break;
            }
            s.step_work_item(0);
        }
        let Contents::WorkItem(panel) = inspect(&s, Tab::WorkItem, Some(0), None).contents else {
            panic!("expected a work-item panel");
        };
        assert!(panel.status.contains("at the barrier of group 0") && panel.status.contains("1 of 2 arrived"), "{}", panel.status);
        let Contents::Barriers(barriers) = inspect(&s, Tab::Barriers, None, None).contents else {
            panic!("expected barriers");
        };
        let group0 = barriers.iter().find(|b| b.view.group == 0).expect("group 0's barrier");
        assert_eq!(group0.view.arrived, vec![0]);
        assert_eq!(group0.missing, vec![1]);
    }

    #[test]
    fn memory_shows_the_chosen_buffer_with_its_last_writers() {
        let mut s = session(COUNT, 4, 2, &["out=int[4]:fill=0"]);
        s.run(u64::MAX);
        let Contents::Memory { memories, shown, .. } = inspect(&s, Tab::Memory, None, None).contents else {
            panic!("expected memory");
        };
        assert!(memories.iter().any(|(_, name)| name == "out"));
        let shown = shown.expect("the first memory is shown");
        assert_eq!(shown.name, "out");
        let values: Vec<_> = shown.elements.iter().map(|e| e.value.clone()).collect();
        assert_eq!(values, ["0", "1", "2", "3"].map(|v| Some(v.to_string())));
        assert!(shown.elements.iter().enumerate().all(|(i, e)| e.last_writer.map(|w| w.0) == Some(i as u32)));
    }

    #[test]
    fn the_console_filters_by_work_item() {
        let mut s = session(COUNT, 4, 2, &["out=int[4]:fill=0"]);
        s.run(u64::MAX);
        let all = console(s.printf(), None);
        assert_eq!(all.len(), 4);
        let two = console(s.printf(), Some([2, 0, 0]));
        assert_eq!(two, vec![("wi 2".to_string(), "2\n".to_string())]);
    }

    #[test]
    fn a_spinning_work_item_names_the_lock_and_its_holder() {
        // Every work-item takes the lock twice. Work-item 0 goes through its first round (so
        // the lock is recognised by its acquire and release) and takes it again; work-item 1
        // then spins on it.
        let source = "__kernel void k(__global int *lock) {\n\
            for (int round = 0; round < 2; round++) {\n\
            while (atomic_cmpxchg(lock, 0, 1) != 0) {}\n\
            atomic_xchg(lock, 0);\n\
            }\n\
            }\n";
        let mut s = session(source, 2, 2, &["lock=int[1]:fill=0"]);
        for _ in 0..3 {
            s.step_work_item(0);
        }
        for _ in 0..20 {
            s.step_work_item(1);
        }
        let Contents::Locks(locks) = inspect(&s, Tab::Locks, None, None).contents else {
            panic!("expected locks");
        };
        assert_eq!(locks.len(), 1, "{locks:?}");
        assert_eq!(locks[0].holder, Some([0, 0, 0]));
        assert_eq!(locks[0].waiters, vec![[1, 0, 0]]);
        let Contents::WorkItem(panel) = inspect(&s, Tab::WorkItem, Some(1), None).contents else {
            panic!("expected a work-item panel");
        };
        assert_eq!(panel.view.status, WorkItemStatus::Spinning);
        assert_eq!(panel.status, "spinning on lock `lock[0]` (line 3), held by wi 0");
    }

    /// A memory shows each element's latest stale read, and a work-group's local memory only
    /// its own members' reads: two groups poll their own local flag while their first
    /// work-item counts it up under the relaxed model.
    #[test]
    fn stale_reads_are_matched_to_their_elements_and_groups() {
        const POLL: &str = "__kernel void k(__global int *out) {\n\
            __local atomic_int flag;\n\
            int lid = get_local_id(0);\n\
            if (lid == 0) atomic_store_explicit(&flag, 0, memory_order_relaxed, memory_scope_work_group);\n\
            barrier(CLK_LOCAL_MEM_FENCE);\n\
            if (lid == 0) { for (int i = 1; i <= 6; i++) atomic_store_explicit(&flag, i, memory_order_relaxed, memory_scope_work_group); }\n\
            else { while (atomic_load_explicit(&flag, memory_order_relaxed, memory_scope_work_group) < 6) ; }\n\
            }\n";
        let mut scenario = Scenario::new(POLL, "kernel.cl", Dialect::OpenCl);
        scenario.launch.global = vec![6];
        scenario.launch.local = Some(vec![3]);
        scenario.args = vec![interleave_engine::scenario::ArgBinding::parse("out=int[1]").expect("argument")];
        scenario.memory_model = interleave_engine::scenario::MemoryModel::Relaxed;
        let mut s = Session::new(scenario).expect("the kernel compiles");
        s.run(u64::MAX);
        let all = s.stale_reads();
        assert!(!all.is_empty(), "the run read no older value");
        let mut shown = 0;
        for (memory, _) in s.memories().into_iter().filter(|(m, _)| m.space == Space::Local) {
            let group = memory.group.expect("local memory has a group");
            let Contents::Memory { stale, .. } = inspect(&s, Tab::Memory, None, Some(memory)).contents else {
                panic!("expected a memory panel");
            };
            // The group's latest stale read, from the whole list: by its members, read in
            // order of their steps.
            let members = |wi: [u64; 3]| wi[0] / 3 == u64::from(group);
            let expected: BTreeMap<u64, String> = all.iter().rfind(|r| members(r.work_item)).map(|r| (0, stale_text(r))).into_iter().collect();
            assert_eq!(stale, expected, "group {group}");
            shown += stale.len();
        }
        assert!(shown > 0, "no group showed a stale read");
    }
}
