//! The browser entry point: everything lives in the library so that tests can mount the same
//! components the page does.

fn main() {
    interleave_app::start();
}
