//! Compiles arbitrary text as OpenCL C and as CUDA: the front end (lexer, preprocessor, parser,
//! lowering) must answer every input with kernels or diagnostics, never a panic.

#![no_main]

use interleave_engine::frontend;
use interleave_engine::scenario::Dialect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The engine takes text; the CLI and the app refuse other bytes before they reach it.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = frontend::kernels(text, Dialect::OpenCl, &[]);
    let _ = frontend::kernels(text, Dialect::Cuda, &[]);
});
