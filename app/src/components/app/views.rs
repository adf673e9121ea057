//! What the view reads out of the session, once per change of the session or of the
//! choice that decides it: the snapshot (lanes, findings, timeline), the lines work-items are
//! at, the furthest recorded step, the inspector's open tab, the console and the explanation
//! of the opened finding.

use std::rc::Rc;

use interleave_engine::report::Explanation;
use interleave_engine::session::Session;
use interleave_engine::why;
use yew::prelude::*;

use super::session::{lane_of, SessionCell};
use crate::form::Form;
use crate::inspector::{self, Inspection};
use crate::snapshot::{self, Snapshot};
use crate::state::State;
use crate::timeline::{why_arrows, WhyArrows};

/// The session's views for the current state.
pub(super) struct Views {
    pub snapshot: Rc<Option<Snapshot>>,
    /// The lines work-items that have not finished are at, marked in the editor.
    pub active_lines: Rc<Vec<u32>>,
    /// The furthest step of the recorded path: the scrubber's end.
    pub furthest: u64,
    pub inspection: Option<Rc<Inspection>>,
    /// The console's lines (work-item, text).
    pub console_lines: Rc<Vec<(String, String)>>,
    /// The explanation shown while the run is still: the opened finding's, or once the run
    /// has ended with none opened, its outcome's (reads the relaxed model let read an older
    /// write).
    pub why: Option<Why>,
}

/// An explanation, in words (for the findings list) and as arrows (for the timeline).
#[derive(Clone, PartialEq)]
pub(super) struct Why {
    /// The finding it explains, if it is a finding's.
    pub finding: Option<usize>,
    pub explanation: Rc<Explanation>,
    pub arrows: Rc<WhyArrows>,
}

/// The most of a run's time that reading the timeline's overlays, or the inspector's open
/// tab, anew may take while the run goes (see `use_views`).
const OVERLAY_SHARE: f64 = 0.2;

/// When a reading that began at `started` (and ends now) is next due while a run goes: once
/// the time since is what it took over [`OVERLAY_SHARE`].
fn next_due(started: f64) -> f64 {
    started + (js_sys::Date::now() - started) / OVERLAY_SHARE
}

#[hook]
pub(super) fn use_views(session: &SessionCell, state: &State, form: &Rc<Form>) -> Views {
    // The timeline's events are kept between snapshots, so each one only adds the new ones.
    let timeline_cache = use_mut_ref(snapshot::TimelineCache::default);
    // While a run goes, the overlays are read anew only once the time since they last were is
    // at least what that took over `OVERLAY_SHARE`, so that a long log's lock analysis and
    // stale reads cannot fill every frame; when the run stops they are read anew.
    let overlays_due = use_mut_ref(|| 0.0_f64);
    let snapshot: Rc<Option<Snapshot>> = {
        let (session, form) = (session.clone(), form.clone());
        use_memo((state.run.generation, state.run.live, state.run.running), move |&(_, live, running)| {
            let session = session.borrow();
            let s = session.as_ref().filter(|_| live)?;
            let started = js_sys::Date::now();
            let overlaying = if running && started < *overlays_due.borrow() { snapshot::Overlaying::MayReuse } else { snapshot::Overlaying::Fresh };
            let taken = snapshot::take_with(s, form.litmus.as_deref(), &mut timeline_cache.borrow_mut(), overlaying);
            if overlaying == snapshot::Overlaying::Fresh {
                *overlays_due.borrow_mut() = next_due(started);
            }
            Some(taken)
        })
    };
    let active_lines: Rc<Vec<u32>> = {
        let snapshot = snapshot.clone();
        use_memo(state.run.generation, move |_| {
            let mut lines: Vec<u32> = Option::as_ref(&snapshot)
                .iter()
                .flat_map(|s| s.timeline.groups.iter().flat_map(|g| g.lanes.iter()))
                .filter(|lane| lane.status != "finished")
                .filter_map(|lane| lane.line)
                .collect();
            lines.sort_unstable();
            lines.dedup();
            lines
        })
    };

    let furthest: u64 = {
        let session = session.clone();
        *use_memo((state.run.generation, state.run.live), move |&(_, live)| session.borrow().as_ref().filter(|_| live).map_or(0, Session::recorded_steps))
    };
    // The inspector reads only its open tab, and only when the session or the choice moved.
    // Its memory and lock tabs read the event log, so while a run goes the last reading of the
    // same choice stands in until it is due again, as the overlays are.
    let inspected = use_mut_ref(|| (0.0_f64, None));
    let inspection: Option<Rc<Inspection>> = {
        let session = session.clone();
        let deps = (state.run.generation, state.run.live, state.run.running, state.view.selected, state.view.inspector_tab, state.view.memory);
        Option::clone(&use_memo(deps, move |&(_, live, running, selected, tab, memory)| {
            let session = session.borrow();
            let s = session.as_ref().filter(|_| live)?;
            let started = js_sys::Date::now();
            let mut inspected = inspected.borrow_mut();
            let (due, last) = &mut *inspected;
            if let Some((choice, kept)) = last.as_ref().filter(|_| running && started < *due) {
                if *choice == (selected, tab, memory) {
                    return Some(Rc::clone(kept));
                }
            }
            let fresh = Rc::new(inspector::inspect(s, tab, selected, memory));
            *due = next_due(started);
            *last = Some(((selected, tab, memory), Rc::clone(&fresh)));
            Some(fresh)
        }))
    };
    let console_lines: Rc<Vec<(String, String)>> = {
        let session = session.clone();
        let deps = (state.run.generation, state.run.live, state.view.selected, state.view.console_only_selected);
        use_memo(deps, move |&(_, live, selected, only)| {
            let guard = session.borrow();
            let Some(s) = guard.as_ref().filter(|_| live) else {
                return Vec::new();
            };
            let who = selected.filter(|&i| only && i < s.work_item_count()).map(|i| s.work_item(i).global_id);
            inspector::console(s.printf(), who)
        })
    };
    let why: Rc<Option<Why>> = {
        let session = session.clone();
        let deps = (state.run.generation, state.run.live && !state.run.running, state.view.finding, state.run.summary.is_some());
        // Not while a run goes on: the analysis scans the event log, and the arrows of a
        // moving run would be stale a chunk later anyway.
        use_memo(deps, move |&(_, still, finding, ended)| {
            let guard = session.borrow();
            let s = guard.as_ref().filter(|_| still)?;
            let (finding, explanation) = match finding {
                Some(k) => (Some(k), why::finding(s, k)?),
                None if ended => (None, why::outcome(s)?),
                None => return None,
            };
            let arrows = why_arrows(&explanation, |id| lane_of(s, id).map(|l| l as u32));
            Some(Why { finding, explanation: Rc::new(explanation), arrows: Rc::new(arrows) })
        })
    };
    Views { snapshot, active_lines, furthest, inspection, console_lines, why: Option::clone(&why) }
}
