//! Stops the build with a clear message when the code editor's JavaScript bundle is missing.
//!
//! `src/codemirror.rs` links `js/bundle/editor.js` in with `#[wasm_bindgen(module = ...)]`,
//! which reads the file at compile time, natively too. The bundle is generated from `js/` by
//! `cargo xtask editor` (which `cargo xtask serve` and `cargo xtask test` run first) and never
//! committed, so a fresh clone does not have it until then.

use std::path::Path;

const BUNDLE: &str = "js/bundle/editor.js";

fn main() {
    println!("cargo:rerun-if-changed={BUNDLE}");
    if !Path::new(BUNDLE).is_file() {
        eprintln!(
            "error: the code editor's bundle app/{BUNDLE} has not been built.\n\
             Run `cargo xtask editor` at the workspace root (it installs the npm packages of \
             app/js/package-lock.json into target/editor-js/ and bundles app/js/ with esbuild; \
             `cargo xtask serve` and `cargo xtask test` do the same), then build again."
        );
        std::process::exit(1);
    }
}
