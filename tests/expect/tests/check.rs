//! The rules of `check`, in a scratch folder under the target directory. Each test holds with
//! and without `UPDATE_EXPECT`, so that a blessing run of the whole workspace passes too; each
//! run checks the behaviour of its own mode.

use std::fs;
use std::path::PathBuf;

use interleave_expect::check;

fn updating() -> bool {
    std::env::var("UPDATE_EXPECT").is_ok()
}

/// A path in a fresh scratch folder of the test `name`, with `contents` there unless `None`.
fn scratch(name: &str, contents: Option<&str>) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("interleave-expect").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join("case.expected");
    if let Some(contents) = contents {
        fs::write(&path, contents).expect("a scratch file");
    }
    path
}

#[test]
fn an_equal_file_passes_and_stays_as_it_is() {
    let path = scratch("equal", Some("exit: 0\n--- stdout\n"));
    assert_eq!(check("exit: 0\n--- stdout\n", &path), Ok(()));
    assert_eq!(fs::read_to_string(&path).unwrap(), "exit: 0\n--- stdout\n");
}

#[test]
fn a_missing_file_fails_even_for_an_empty_output_unless_blessing_writes_it() {
    let path = scratch("missing", None);
    let result = check("", &path);
    if updating() {
        assert_eq!(result, Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "");
    } else {
        let message = result.unwrap_err();
        assert!(message.contains("case.expected") && message.contains("UPDATE_EXPECT=1"), "{message}");
        assert!(!path.exists());
    }
}

#[test]
fn a_differing_file_fails_unless_blessing_rewrites_it() {
    let path = scratch("differing", Some("one\ntwo\n"));
    let result = check("one\nthree\n", &path);
    if updating() {
        assert_eq!(result, Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\nthree\n");
    } else {
        let message = result.unwrap_err();
        assert!(message.contains("case.expected differs"), "{message}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    }
}

#[test]
fn a_missing_final_newline_is_a_difference() {
    let path = scratch("newline", Some("last line\n"));
    let result = check("last line", &path);
    assert_eq!(result.is_ok(), updating(), "{result:?}");
}

#[test]
fn a_relative_path_is_refused() {
    let message = check("text", std::path::Path::new("tests/data/case.expected")).unwrap_err();
    assert!(message.contains("absolute"), "{message}");
}
