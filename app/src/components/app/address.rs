//! What the page address says and does: the share link in its fragment (at start and on
//! `hashchange`), the gallery page and the lesson pane it asks for (following Back and
//! Forward), where the scenario comes from at start (`route::source`), and new history
//! entries for pages and lessons.

use std::rc::Rc;

use gloo::events::EventListener;
use yew::prelude::*;

use super::super::share as share_view;
use crate::examples::Example;
use crate::state::{Action, State};
use crate::{gallery, lessons, route, share};

/// The page address's query (what `route::parse` reads), empty when it has none.
pub(super) fn location_search() -> String {
    gloo::utils::window().location().search().unwrap_or_default()
}

/// The page address's path, without query or fragment.
pub(super) fn location_path() -> String {
    gloo::utils::window().location().pathname().unwrap_or_else(|_| "/".into())
}

/// Makes `url` a new place in the browser's history (without loading anything).
pub(super) fn push_address(url: &str) {
    if let Ok(history) = gloo::utils::window().history() {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Shows the top of the page, where a page switch starts.
pub(super) fn scroll_to_top() {
    gloo::utils::window().scroll_to_with_x_and_y(0.0, 0.0);
}

/// A lesson's starting scenario as a link without a view, which loads like any opened link
/// (edits set aside, a session opened at step 0).
pub(super) fn lesson_link(position: usize) -> interleave_engine::link::Link {
    let all = lessons::all();
    interleave_engine::link::Link {
        scenario: all[position].scenario.clone(),
        view: interleave_engine::link::LinkView { step: None, selected: None, panel: None },
    }
}

/// A share link in the address: at start, and whenever the fragment changes to another one.
/// A link that cannot be read is explained in the Problems list, and the page stays on the
/// inputs it has.
#[hook]
pub(super) fn use_share_links(dispatch: &UseReducerDispatcher<State>) {
    let dispatch = dispatch.clone();
    use_effect_with((), move |_| {
        let open = move || {
            let hash = gloo::utils::window().location().hash().unwrap_or_default();
            match share::from_hash(&hash) {
                None => {}
                Some(Ok(link)) => dispatch.dispatch(Action::OpenLink(Rc::new(link))),
                Some(Err(diagnostic)) => dispatch.dispatch(Action::LinkFailed(diagnostic)),
            }
        };
        open();
        let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| open());
        move || drop(listener)
    });
}

/// The examples gallery is a page of its own (`?gallery`) over the workbench, which stays
/// mounted underneath (`?example=ID` is loaded where the address's sources compose, in
/// [`use_route`]). Back and Forward move between them, as the address says.
#[hook]
pub(super) fn use_gallery_open() -> UseStateHandle<bool> {
    let gallery_open = use_state(|| route::parse(&location_search()).gallery);
    {
        let gallery_open = gallery_open.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "popstate", move |_| {
                gallery_open.set(route::parse(&location_search()).gallery);
            });
            move || drop(listener)
        });
    }
    gallery_open
}

/// What the address asks for (`crate::route`): the lesson pane, a lesson, embedding. It
/// follows the browser's Back and Forward. Where the scenario comes from: at start, as
/// `route::source` composes the address (a share link, which [`use_share_links`] opens, wins
/// over a lesson, a lesson over an example); later, a lesson's starting scenario whenever
/// another lesson opens (from the pane, or by Back and Forward).
#[hook]
pub(super) fn use_route(dispatch: &UseReducerDispatcher<State>) -> UseStateHandle<route::Route> {
    let route = use_state(|| route::parse(&location_search()));
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "popstate", move |_| {
                route.set(route::parse(&location_search()));
            });
            move || drop(listener)
        });
    }
    {
        let (dispatch, first, route) = (dispatch.clone(), use_mut_ref(|| true), (*route).clone());
        use_effect_with(route.lesson.clone(), move |lesson| {
            let source = if first.replace(false) {
                route::source(&route, &gloo::utils::window().location().hash().unwrap_or_default())
            } else {
                lesson.clone().map_or(route::Source::Stored, route::Source::Lesson)
            };
            match source {
                route::Source::Lesson(id) => {
                    if let Some(position) = lessons::position(&id) {
                        dispatch.dispatch(Action::OpenLink(Rc::new(lesson_link(position))));
                    }
                }
                route::Source::Example(id) => {
                    if let Some(example) = gallery::example_for(&id) {
                        dispatch.dispatch(Action::LoadExample(example));
                    }
                }
                route::Source::Link | route::Source::Stored => {}
            }
        });
    }
    route
}

/// Moving between lessons (a new history entry) and resetting one to its starting scenario.
pub(super) fn lesson_controls(route: &UseStateHandle<route::Route>, dispatch: &UseReducerDispatcher<State>) -> (Callback<Option<usize>>, Callback<usize>) {
    let on_lesson_navigate = {
        let route = route.clone();
        Callback::from(move |lesson: Option<usize>| {
            let all = lessons::all();
            let next = route::Route { tutorial: true, lesson: lesson.and_then(|i| all.get(i)).map(|l| l.id.clone()), ..(*route).clone() };
            push_address(&format!("{}{}", location_path(), route::search(&next)));
            route.set(next);
        })
    };
    let on_lesson_reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |position: usize| dispatch.dispatch(Action::OpenLink(Rc::new(lesson_link(position)))))
    };
    (on_lesson_navigate, on_lesson_reset)
}

/// The callbacks that change page: loading an example (a new place in the history, so Back
/// returns to a link opened before; stepping and editing are not), and the gallery's button
/// and cards (the gallery is `?gallery`, an example loaded from it `?example=ID`, so Back
/// returns to the gallery).
pub(super) struct PageControls {
    pub on_example: Callback<&'static Example>,
    pub on_gallery: Callback<()>,
    pub on_gallery_load: Callback<&'static Example>,
    pub on_gallery_close: Callback<()>,
}

pub(super) fn page_controls(actions: &Callback<Action>, gallery_open: &UseStateHandle<bool>) -> PageControls {
    let on_example = {
        let actions = actions.clone();
        Callback::from(move |example| {
            push_address(&share_view::page_base());
            actions.emit(Action::LoadExample(example));
        })
    };
    let on_gallery = {
        let gallery_open = gallery_open.clone();
        Callback::from(move |()| {
            push_address(&format!("{}?gallery", location_path()));
            gallery_open.set(true);
            scroll_to_top();
        })
    };
    let on_gallery_load = {
        let (actions, gallery_open) = (actions.clone(), gallery_open.clone());
        Callback::from(move |example: &'static Example| {
            push_address(&gallery::example_url(&location_path(), example));
            actions.emit(Action::LoadExample(example));
            gallery_open.set(false);
            scroll_to_top();
        })
    };
    let on_gallery_close = {
        let gallery_open = gallery_open.clone();
        Callback::from(move |()| {
            push_address(&location_path());
            gallery_open.set(false);
        })
    };
    PageControls { on_example, on_gallery, on_gallery_load, on_gallery_close }
}
