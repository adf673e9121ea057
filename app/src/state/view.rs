//! The view's actions: selection, the inspector's tab and memory, the console filter, the
//! shortcuts overlay, opened findings, the panes and the theme. None of them touches the
//! launch or the session.

use super::{Action, View};

pub(super) fn reduce(view: &mut View, action: Action) {
    match action {
        Action::SetTheme(theme) => view.theme = theme,
        Action::SelectWorkItem(index) => view.selected = Some(index),
        Action::SetInspectorTab(tab) => view.inspector_tab = tab,
        Action::SetMemory(memory) => view.memory = Some(memory),
        Action::SetConsoleOnlySelected(only) => view.console_only_selected = only,
        Action::ToggleHelp => view.help_open = !view.help_open,
        Action::CloseHelp => view.help_open = false,
        Action::OpenFinding { index, step, work_item } => {
            view.finding = Some(index);
            if let Some(step) = step {
                let serial = view.reveal.map_or(1, |(serial, _)| serial + 1);
                view.reveal = Some((serial, step));
            }
            if work_item.is_some() {
                view.selected = work_item;
            }
        }
        Action::ResizePane { pane, size } => view.panes.resize(pane, size),
        _ => {}
    }
}
