//! Opening findings: in the editor (its place selected), on the timeline (its step revealed,
//! its work-item selected) and in the list (kept in view), by a click, by next and previous,
//! or from the editor's gutter.

use std::rc::Rc;

use interleave_engine::report::Finding;
use yew::prelude::*;

use super::super::editor::EditorHandle;
use super::super::findings::{self as findings_view, Opened, SourcePlace};
use super::page::{place_range, reveal_finding, scroll_into_view};
use super::session::{lane_of, SessionCell};
use crate::state::{Action, State};

/// The callbacks that open findings.
pub(super) struct FindingControls {
    pub on_open_finding: Callback<Opened>,
    /// Next (`true`) or previous finding, cycling through the list.
    pub on_next_finding: Callback<bool>,
    /// A gutter marker opens the first finding on its line and moves the focus to it in the
    /// findings list, where its explanation is.
    pub on_gutter_finding: Callback<u32>,
}

pub(super) fn finding_controls(session: &SessionCell, state: &UseReducerHandle<State>, editor: &EditorHandle, findings: &Rc<Vec<Finding>>) -> FindingControls {
    let dispatch = state.dispatcher();
    // Selects a place in the editor and focuses it.
    let on_select = {
        let (editor, source) = (editor.clone(), state.inputs.source.clone());
        Callback::from(move |place: SourcePlace| {
            let Some((start, end)) = place_range(&source, place) else {
                return;
            };
            editor.select(start, end);
            editor.focus();
        })
    };
    let on_open_finding = {
        let (session, on_select) = (session.clone(), on_select.clone());
        Callback::from(move |opened: Opened| {
            on_select.emit(opened.place);
            let work_item = opened.work_item.and_then(|id| session.borrow().as_ref().and_then(|s| lane_of(s, id)));
            dispatch.dispatch(Action::OpenFinding { index: opened.index, step: opened.step, work_item });
            // Keep the opened finding in view in the list too.
            scroll_into_view(&format!("finding-{}", opened.index));
        })
    };
    let on_next_finding = {
        let (findings, on_open, current) = (findings.clone(), on_open_finding.clone(), state.view.finding);
        Callback::from(move |forward: bool| {
            let count = findings.len();
            if count == 0 {
                return;
            }
            let index = match (current, forward) {
                (None, true) => 0,
                (None, false) => count - 1,
                (Some(i), true) => (i + 1) % count,
                (Some(i), false) => (i + count - 1) % count,
            };
            on_open.emit(findings_view::primary(index, &findings[index]));
        })
    };
    let on_gutter_finding = {
        let (findings, on_open) = (findings.clone(), on_open_finding.clone());
        Callback::from(move |line: u32| {
            if let Some((index, finding)) = findings.iter().enumerate().find(|(_, f)| f.line == line) {
                on_open.emit(findings_view::primary(index, finding));
                reveal_finding(&findings, line);
            }
        })
    };
    FindingControls { on_open_finding, on_next_finding, on_gutter_finding }
}
