//! Interleave in the browser.
//!
//! The page is one [`App`] component over one reducer ([`state`]): the kernel editor, the
//! launch settings, the run controls, the lane timeline, the findings and the diagnostics.
//! The app owns no semantics of its own: compiling, scheduling, detecting and hashing all
//! happen in `interleave-engine`, and the app only turns what a session reports into DOM.
//!
//! Pure code (the reducer, form validation, the snapshot of a session that the view draws
//! from, and the splitting and merging of explorations) is kept apart from the components so
//! that it can be tested natively.
//!
//! A panic (an engine bug) never takes the page down: [`crash`] shows a banner with the
//! scenario's link and a way to reset.
//!
//! Schedule exploration never runs on the page's thread: [`pool`] starts Web Workers, each
//! running [`worker`] in an instance of the page's own module, and [`explore`] holds what
//! they say to each other.

pub mod args;
pub mod codemirror;
pub mod components;
pub mod crash;
pub mod examples;
pub mod explain;
pub mod explore;
pub mod files;
pub mod form;
pub mod gallery;
pub mod inputs;
pub mod inspector;
pub mod lessons;
pub mod marks;
pub mod pool;
pub mod route;
pub mod share;
pub mod shrink;
pub mod snapshot;
pub mod state;
pub mod task;
pub mod timeline;
pub mod tutorial;
pub mod worker;

pub use components::app::App;

/// The module's entry point: mounts the app on the document body, or, when the module has
/// been instantiated inside an exploration worker, starts the worker instead.
pub fn start() {
    if worker::in_worker() {
        worker::start();
        return;
    }
    // Before anything can panic: a panic then shows a banner instead of leaving a dead page.
    crash::install();
    crash::expose_test_hook();
    yew::Renderer::<App>::new().render();
}
