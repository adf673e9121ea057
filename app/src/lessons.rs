//! The tutorial's lessons, compiled in from `static/tutorial/`, in the order they are taught,
//! and the learner's progress as it is stored in the browser.
//!
//! The lesson format and its checks are the engine's `lesson` module; here is only which
//! lessons the page offers and how "passed" is remembered.

use std::collections::BTreeSet;
use std::rc::Rc;

use interleave_engine::lesson::{self, Lesson};

/// Every lesson file, in the tutorial's order (the gallery's order of concepts).
const FILES: &[&str] = &[
    include_str!("../../static/tutorial/lost-updates.toml"),
    include_str!("../../static/tutorial/atomics-cas-loop.toml"),
    include_str!("../../static/tutorial/spin-lock.toml"),
    include_str!("../../static/tutorial/message-passing.toml"),
    include_str!("../../static/tutorial/load-buffering.toml"),
    include_str!("../../static/tutorial/async-copies.toml"),
    include_str!("../../static/tutorial/early-unlock.toml"),
    include_str!("../../static/tutorial/residency.toml"),
    include_str!("../../static/tutorial/syncthreads-divergence.toml"),
    include_str!("../../static/tutorial/cuda-votes.toml"),
    include_str!("../../static/tutorial/threadfence.toml"),
    include_str!("../../static/tutorial/atomic-wrap.toml"),
    include_str!("../../static/tutorial/device-malloc.toml"),
    include_str!("../../static/tutorial/two-level-reduction.toml"),
    include_str!("../../static/tutorial/divergent-barrier.toml"),
];

thread_local! {
    /// Read once, on first use: the files are ours and checked by the engine's tests, so one
    /// that does not parse is left out rather than taking the page down.
    static LESSONS: Rc<Vec<Rc<Lesson>>> = Rc::new(FILES.iter().filter_map(|text| lesson::parse(text).ok()).map(Rc::new).collect());
}

/// Every lesson, in order.
pub fn all() -> Rc<Vec<Rc<Lesson>>> {
    LESSONS.with(Rc::clone)
}

/// The position of the lesson `id`.
pub fn position(id: &str) -> Option<usize> {
    LESSONS.with(|lessons| lessons.iter().position(|l| l.id == id))
}

/// Where the progress is kept in `localStorage`.
pub const PROGRESS_KEY: &str = "interleave.tutorial.progress";

/// The lessons passed, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub passed: BTreeSet<String>,
}

impl Progress {
    /// The stored form: `{"version":1,"passed":["id",...]}`.
    pub fn encode(&self) -> String {
        let passed: Vec<&String> = self.passed.iter().collect();
        serde_json::json!({ "version": 1, "passed": passed }).to_string()
    }

    /// Reads the stored form; anything unreadable is no progress (it is only a convenience,
    /// and passing a lesson again brings it back).
    pub fn decode(text: &str) -> Progress {
        // From bytes, as every JSON reader of the page does (one compiled parser).
        let value: serde_json::Value = serde_json::from_slice(text.as_bytes()).unwrap_or_default();
        let passed =
            value.get("passed").and_then(|p| p.as_array()).map(|ids| ids.iter().filter_map(|id| id.as_str()).map(String::from).collect()).unwrap_or_default();
        Progress { passed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_file_is_offered_once_and_parses() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/tutorial");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter_map(|name| name.strip_suffix(".toml").map(String::from))
            .collect();
        files.sort();
        let mut ids: Vec<String> = all().iter().map(|l| l.id.clone()).collect();
        assert_eq!(ids.len(), FILES.len(), "every compiled-in lesson parses");
        ids.sort();
        assert_eq!(ids, files);
        assert_eq!(position("lost-updates"), Some(0));
        assert_eq!(position("nope"), None);
    }

    #[test]
    fn progress_round_trips_and_bad_storage_is_no_progress() {
        let mut p = Progress::default();
        p.passed.insert("spin-lock".into());
        p.passed.insert("lost-updates".into());
        assert_eq!(Progress::decode(&p.encode()), p);
        assert_eq!(Progress::decode("not json"), Progress::default());
        assert_eq!(Progress::decode("{\"passed\":[1,\"x\"]}").passed.len(), 1);
    }
}
