//! The exploration worker's entry point. Trunk builds it as a worker (`data-type="worker"` in
//! `index.html`): the page starts one or more of these and never runs an exploration itself.

fn main() {
    interleave_app::worker::start();
}
