//! The launch's actions: an edit of one field, and everything that replaces the inputs (an
//! example, opened files, a share link, the edits set aside) without losing edits.

use std::rc::Rc;

use yew::AttrValue;

use super::{Action, State};
use crate::examples;
use crate::files;
use crate::inputs::{self, InputEdit, Inputs, Stash};
use crate::share;

pub(super) fn reduce(next: &mut State, action: Action) {
    match action {
        Action::Edit(edit) => edit_inputs(next, edit),
        Action::LoadExample(example) => next.replace_inputs(example.title, |inputs| inputs.load_example(example)),
        Action::OpenFiles(opened) => match files::open(&opened) {
            Ok(opened) => {
                // The problems of a file opened before are settled by this one.
                next.clear_file_problems();
                next.replace_inputs(&opened.label, |inputs| opened.change.apply(inputs));
            }
            Err(failure) => {
                next.problems.diagnostics = Rc::new(failure.diagnostics);
                next.problems.source = AttrValue::from(failure.source);
                next.problems.file = Some(AttrValue::from(failure.file_name));
                next.problems.stale = false;
                next.run.generation += 1;
            }
        },
        Action::RestoreEdits => {
            let Some(stash) = next.stash.clone() else {
                return;
            };
            let loaded = Inputs::clone(&next.inputs);
            let first = next.inputs.next_arg_id();
            let mut inputs = known_example(stash.inputs.clone());
            inputs.number_rows(first);
            next.inputs = Rc::new(inputs);
            next.invalidate();
            next.edited = !stash.restored;
            next.stash = Some(Rc::new(Stash { label: stash.label.clone(), inputs: loaded, restored: !stash.restored }));
        }
        Action::DismissStash => next.stash = None,
        Action::OpenLink(link) => {
            let label = match link.scenario.title.trim() {
                "" => "a shared link".to_string(),
                title => title.to_string(),
            };
            next.clear_file_problems();
            next.replace_inputs(&label, |inputs| {
                *inputs = inputs::from_scenario(&link.scenario);
            });
            next.view.selected = link.view.selected.map(|s| s as usize);
            if let Some(tab) = share::tab_of(link.view.panel.as_deref()) {
                next.view.inspector_tab = tab;
            }
            next.run.link_step = Some(link.view.step.unwrap_or(0));
        }
        Action::LinkFailed(diagnostic) => {
            next.problems.diagnostics = Rc::new(vec![diagnostic]);
            next.problems.source = AttrValue::default();
            next.problems.file = Some(AttrValue::from("link"));
            next.problems.stale = false;
            next.run.generation += 1;
        }
        _ => {}
    }
}

/// One field edited. An edit that changes nothing (the editor reporting back the text the
/// app gave it) keeps the session.
fn edit_inputs(next: &mut State, edit: InputEdit) {
    let mut inputs = Inputs::clone(&next.inputs);
    inputs.edit(edit);
    if inputs == *next.inputs {
        return;
    }
    next.inputs = Rc::new(inputs);
    next.invalidate();
}

/// `inputs` with an example id that is not one of ours (from an older stored value) dropped.
pub(super) fn known_example(mut inputs: Inputs) -> Inputs {
    if inputs.example.as_deref().and_then(examples::find).is_none() {
        inputs.example = None;
    }
    inputs
}

impl State {
    /// Loads something (`label`) in place of the inputs: what `load` sets replaces them, and
    /// edits are set aside in the stash rather than lost. The replay of an earlier input
    /// does not carry over; rows get ids the table has not shown yet.
    fn replace_inputs(&mut self, label: &str, load: impl FnOnce(&mut Inputs)) {
        let edits = self.edited.then(|| Inputs::clone(&self.inputs));
        let first = self.inputs.next_arg_id();
        let mut inputs = Inputs::clone(&self.inputs);
        inputs.replay = None;
        load(&mut inputs);
        let mut inputs = known_example(inputs);
        inputs.number_rows(first);
        let replay = inputs.replay.take();
        self.inputs = Rc::new(inputs);
        self.invalidate();
        Rc::make_mut(&mut self.inputs).replay = replay;
        self.edited = false;
        self.stash = match (edits, &self.stash) {
            (Some(inputs), _) => Some(Rc::new(Stash { label: label.to_string(), inputs, restored: false })),
            // Nothing new to keep: edits set aside earlier stay, under the new name.
            (None, Some(stash)) if !stash.restored => Some(Rc::new(Stash { label: label.to_string(), ..Stash::clone(stash) })),
            (None, _) => None,
        };
    }

    /// Forgets the problems of a file or link opened before.
    fn clear_file_problems(&mut self) {
        if self.problems.file.take().is_some() {
            self.problems.diagnostics = Rc::default();
        }
    }
}
