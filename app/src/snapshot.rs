//! What the view draws, read out of a session in one go.
//!
//! The session is borrowed only while a snapshot is taken, and the components receive plain,
//! comparable data. Everything in a snapshot comes from the engine: work-item ids, statuses,
//! events and findings; the only thing added here is wording (the labels and tooltips).

use std::rc::Rc;

use interleave_engine::diag::LineIndex;
use interleave_engine::litmus::LitmusTest;
use interleave_engine::report::{Finding, RunStatus};
use interleave_engine::session::Session;
use interleave_engine::trace::{Event, EventKind};

/// At most this many lanes become DOM rows; a canvas timeline will lift the limit.
pub const MAX_LANES: usize = 4096;
/// At most this many of the latest events become marks, for the same reason.
pub const MAX_MARKS: usize = 5000;

#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub status: RunStatus,
    pub steps: u64,
    pub timeline: Rc<Timeline>,
    pub findings: Rc<Vec<Finding>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// The current step: where the cursor goes.
    pub steps: u64,
    pub groups: Vec<GroupRows>,
    /// Work-items of the launch that have no row because of [`MAX_LANES`].
    pub hidden_lanes: usize,
    /// Events of the run that have no mark because of [`MAX_MARKS`].
    pub hidden_events: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GroupRows {
    pub group: usize,
    pub lanes: Vec<Lane>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub index: usize,
    pub label: String,
    pub status: &'static str,
    /// The source line the work-item is at, if it has not finished.
    pub line: Option<u32>,
    pub marks: Vec<Mark>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub step: u64,
    pub kind: &'static str,
    pub title: String,
}

/// The class suffix and tooltip word of an event kind.
pub fn kind_name(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Load => "load",
        EventKind::Store => "store",
        EventKind::Atomic => "atomic",
        EventKind::Fence => "fence",
        EventKind::BarrierArrive => "barrier-arrive",
        EventKind::BarrierRelease => "barrier-release",
        EventKind::Printf => "printf",
        EventKind::Finish => "finish",
        EventKind::AsyncCopy => "async-copy",
        EventKind::Wait => "wait",
        EventKind::Statement => "statement",
        EventKind::Promise => "promise",
    }
}

/// Reads everything the view needs from `session`; `litmus` is the test the session runs,
/// if it runs one, whose threads then name the lanes.
pub fn take(session: &Session, litmus: Option<&LitmusTest>) -> Snapshot {
    Snapshot {
        status: session.status(),
        steps: session.steps(),
        timeline: Rc::new(timeline(session, litmus)),
        findings: Rc::new(session.findings().to_vec()),
    }
}

/// A litmus thread's lane label: `P1 (wg 1)`, with its device when the test uses several.
pub fn thread_label(test: &LitmusTest, thread: usize) -> Option<String> {
    let t = test.threads.get(thread)?;
    let devices = test.group_device.iter().any(|&d| d != 0);
    Some(if devices {
        format!("{} (wg {}, dev {})", t.name, t.work_group, t.device)
    } else {
        format!("{} (wg {})", t.name, t.work_group)
    })
}

fn timeline(session: &Session, litmus: Option<&LitmusTest>) -> Timeline {
    let scenario = session.scenario();
    let dims = scenario.launch.global.len();
    let count = session.work_item_count();
    let shown = count.min(MAX_LANES);
    let mut groups: Vec<GroupRows> = Vec::new();
    for index in 0..shown {
        let view = session.work_item(index);
        // A litmus test's work-groups are as large as its largest; the work-items that pad
        // the others run no thread and get no lane.
        let label = match litmus {
            Some(test) => match test.work_item_thread.get(index).copied().flatten() {
                Some(thread) => thread_label(test, thread).unwrap_or_default(),
                None => continue,
            },
            None => lane_label(dims, view.global_id, view.group, view.local_id),
        };
        let lane = Lane {
            index,
            label,
            status: view.status.as_str(),
            line: view.line,
            marks: Vec::new(),
        };
        // Work-items come group by group, so a new group starts whenever the number changes.
        match groups.last_mut() {
            Some(rows) if rows.group == view.group => rows.lanes.push(lane),
            _ => groups.push(GroupRows {
                group: view.group,
                lanes: vec![lane],
            }),
        }
    }
    // Lanes are found by index through this table, since groups need not be contiguous.
    let mut slots = vec![(usize::MAX, usize::MAX); shown];
    for (g, rows) in groups.iter().enumerate() {
        for (l, lane) in rows.lanes.iter().enumerate() {
            slots[lane.index] = (g, l);
        }
    }
    let events = session.events();
    let first = events.len().saturating_sub(MAX_MARKS);
    let source = &scenario.source;
    let lines = LineIndex::new(source);
    for event in (first..events.len()).filter_map(|i| events.get(i)) {
        let Some(&(g, l)) = slots
            .get(event.work_item as usize)
            .filter(|&&(g, _)| g != usize::MAX)
        else {
            continue;
        };
        let title = mark_title(&event, source, &lines);
        groups[g].lanes[l].marks.push(Mark {
            step: event.step,
            kind: kind_name(event.kind),
            title,
        });
    }
    Timeline {
        steps: session.steps(),
        groups,
        hidden_lanes: count - shown,
        hidden_events: first,
    }
}

/// `wi 5 (g1·l1)` for one dimension, `wi (1,2) (g0·l(1,2))` for more.
pub fn lane_label(dims: usize, global_id: [u64; 3], group: usize, local_id: [u64; 3]) -> String {
    let ids = |id: [u64; 3]| match dims {
        0 | 1 => id[0].to_string(),
        2 => format!("({},{})", id[0], id[1]),
        _ => format!("({},{},{})", id[0], id[1], id[2]),
    };
    format!("wi {} (g{}·l{})", ids(global_id), group, ids(local_id))
}

/// `step 12: store ids[gid] = 1 (line 9)`: the event, the source text it came from and the
/// values it moved (raw bits, shown as integers).
pub fn mark_title(event: &Event, source: &str, lines: &LineIndex) -> String {
    let kind = kind_name(event.kind);
    let text = span_text(source, event.span.start as usize, event.span.end as usize);
    let what = match event.kind {
        EventKind::Load => format!("{kind} {text} → {}", event.read as i64),
        EventKind::Store => format!("{kind} {text} = {}", event.written as i64),
        EventKind::Atomic => format!(
            "{kind} {text}: {} → {}",
            event.read as i64, event.written as i64
        ),
        _ if text.is_empty() => kind.to_string(),
        _ => format!("{kind} {text}"),
    };
    let location = event
        .location
        .map(|loc| format!(" [{:?} #{} +{}]", loc.space, loc.alloc, loc.offset).to_lowercase())
        .unwrap_or_default();
    if event.span.end > event.span.start {
        let (line, _) = lines.line_col(source, event.span.start);
        format!("step {}: {what}{location} (line {line})", event.step)
    } else {
        format!("step {}: {what}{location}", event.step)
    }
}

/// The source text of a span on one line, shortened for a tooltip.
fn span_text(source: &str, start: usize, end: usize) -> String {
    let Some(text) = source.get(start.min(end)..end.min(source.len())) else {
        return String::new();
    };
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(39).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::diag::Span;
    use interleave_engine::trace::{Location, Space};

    #[test]
    fn labels_name_the_global_group_and_local_ids() {
        assert_eq!(lane_label(1, [5, 0, 0], 1, [1, 0, 0]), "wi 5 (g1·l1)");
        assert_eq!(
            lane_label(2, [1, 2, 0], 0, [1, 2, 0]),
            "wi (1,2) (g0·l(1,2))"
        );
    }

    #[test]
    fn titles_show_the_step_the_source_and_the_line() {
        let source = "int x;\n    ids[gid] = lid;\n";
        let start = source.find("ids").unwrap() as u32;
        let event = Event {
            step: 12,
            work_item: 5,
            kind: EventKind::Store,
            location: Some(Location {
                space: Space::Global,
                alloc: 0,
                offset: 20,
            }),
            read: 0,
            written: 1,
            span: Span::new(start, start + 8),
            order: None,
            scope: None,
        };
        let title = mark_title(&event, source, &LineIndex::new(source));
        assert_eq!(
            title,
            "step 12: store ids[gid] = 1 [global #0 +20] (line 2)"
        );
    }

    #[test]
    fn a_fresh_session_has_every_lane_grouped_and_one_step_one_mark() {
        let form = crate::form::validate(&crate::state::State::default());
        let scenario = form.scenario.expect("the default form is valid");
        let mut session = Session::new((*scenario).clone()).expect("the example compiles");
        let fresh = take(&session, None);
        assert_eq!(fresh.status, RunStatus::Running);
        let lanes: Vec<usize> = fresh
            .timeline
            .groups
            .iter()
            .map(|g| g.lanes.len())
            .collect();
        assert_eq!(lanes, [4, 4]);
        assert_eq!(fresh.timeline.groups[1].lanes[1].label, "wi 5 (g1·l1)");
        assert!(session.step());
        let stepped = take(&session, None);
        let marks: usize = stepped
            .timeline
            .groups
            .iter()
            .flat_map(|g| &g.lanes)
            .map(|l| l.marks.len())
            .sum();
        assert_eq!(marks, 1);
        assert_eq!(stepped.steps, 1);
    }

    #[test]
    fn a_litmus_test_has_one_lane_per_thread() {
        // IRIW's four threads share one work-group; 2+2W's two sit in groups of their own,
        // and a test with a group of two and a group of one pads the second.
        let source = "OPENCL padded\n{ [x]=0; }\n\
            P0@wg 0, dev 0 (global atomic_int* x) { atomic_store_explicit(x, 1, memory_order_relaxed); }\n\
            P1@wg 0, dev 0 (global atomic_int* x) { int r0 = atomic_load_explicit(x, memory_order_relaxed); }\n\
            P2@wg 1, dev 0 (global atomic_int* x) { int r1 = atomic_load_explicit(x, memory_order_relaxed); }\n\
            exists (1:r0=1)\n";
        let test = interleave_engine::litmus::parse(source).expect("parses");
        let scenario = interleave_engine::scenario::Scenario::new(
            source,
            "t.litmus",
            interleave_engine::scenario::Dialect::Litmus,
        );
        let mut session = Session::new(scenario).expect("runs");
        assert_eq!(session.work_item_count(), 4);
        session.run(u64::MAX);
        let snapshot = take(&session, Some(&test));
        let labels: Vec<Vec<&str>> = snapshot
            .timeline
            .groups
            .iter()
            .map(|g| g.lanes.iter().map(|l| l.label.as_str()).collect())
            .collect();
        assert_eq!(labels, [vec!["P0 (wg 0)", "P1 (wg 0)"], vec!["P2 (wg 1)"]]);
        let lanes = snapshot.timeline.groups.iter().flat_map(|g| &g.lanes);
        assert!(lanes.clone().all(|lane| !lane.marks.is_empty()));
    }

    #[test]
    fn long_spans_are_shortened() {
        let long = "a ".repeat(60);
        assert!(span_text(&long, 0, long.len()).ends_with('…'));
        assert_eq!(span_text("abc", 5, 9), "");
    }
}
