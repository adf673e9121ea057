//! The one compare-or-bless of the data-driven tests, shared by the engine's, the CLI's and the
//! cross-crate tests: a test computes its output as text and [`check`]s it against the
//! expected file beside its input; `UPDATE_EXPECT=1 cargo test` rewrites the files that differ.
//!
//! The comparison, its diff and the rewrite are expect-test's (`expect_file!`). This wrapper
//! adds the two rules every test here needs and expect-test does not give:
//!
//! - a missing (or unreadable) expected file fails, naming the file, unless `UPDATE_EXPECT=1`,
//!   which writes it. expect-test reads a missing file as empty, so an empty output would pass
//!   against a file that does not exist, and blessing it would write nothing;
//! - a difference is returned rather than raised, so a test over a folder of cases checks every
//!   case and one run reports every file that differs. expect-test prints the diff to the
//!   test's output and unwinds; the unwind is caught here and becomes the `Err`.
//!
//! Line endings: expect-test reads `\r\n` in an expected file as `\n`, so a checkout that
//! converts line endings still passes.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

/// Compares `actual` with the expected file at `path`, which must be absolute (expect-test
/// would take a relative one as relative to this file). Without `UPDATE_EXPECT`, a missing
/// file or a difference is an `Err` naming the file; the difference's diff is printed to the
/// test's output first. With `UPDATE_EXPECT=1`, a missing or differing file is rewritten with
/// `actual` and the check passes; a file that is equal is left untouched.
pub fn check(actual: &str, path: &Path) -> Result<(), String> {
    if !path.is_absolute() {
        return Err(format!("{}: an expected file's path must be absolute", path.display()));
    }
    if let Err(e) = std::fs::read_to_string(path) {
        if !updating() {
            return Err(format!("{}: {e} (UPDATE_EXPECT=1 writes it)", path.display()));
        }
        return std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()));
    }
    let expect = expect_test::expect_file![path];
    panic::catch_unwind(AssertUnwindSafe(|| expect.assert_eq(actual)))
        .map_err(|_| format!("{} differs from the output (diff above; UPDATE_EXPECT=1 accepts the output)", path.display()))
}

/// Whether this run rewrites expected files: expect-test's own reading of the variable, so that
/// the two never disagree.
fn updating() -> bool {
    std::env::var("UPDATE_EXPECT").is_ok()
}
