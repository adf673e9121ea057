//! The determinism check in the browser: the wasm build must produce exactly the trace
//! hashes the native build pinned in tests/data/trace_hashes.txt and
//! tests/data/generated_hashes.txt.
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn wasm_traces_equal_native_traces() {
    assert_eq!(common::observed(), common::EXPECTED);
}

/// The thousand generated kernels, each opened from its share link as the app would, give
/// the trace hashes the native build pinned.
#[wasm_bindgen_test]
fn generated_kernels_from_their_links_equal_native_traces() {
    assert_eq!(common::generated_kernel_hashes(true), common::GENERATED_HASHES);
}

#[wasm_bindgen_test]
fn a_syntax_error_is_a_diagnostic_not_a_panic() {
    let scenario =
        interleave_engine::scenario::Scenario::new("__kernel void f(__global int *d) { d[0] = }", "bad.cl", interleave_engine::scenario::Dialect::OpenCl);
    let errors = interleave_engine::session::Session::new(scenario).err().expect("a diagnostic");
    assert_eq!(errors[0].code, "syntax-error");
}
