//! The code editor's JavaScript side: CodeMirror 6 with our extensions (`app/js/`), bundled
//! into `app/js/bundle/editor.js` by `cargo xtask editor` (and `serve` and `test`).
//!
//! wasm-bindgen reads the bundle when the crate compiles and ships it beside the generated
//! JavaScript as a snippet, so the Trunk build and the wasm-bindgen tests both load the real
//! editor with no step of their own. `build.rs` stops the build with a clear message when
//! the bundle has not been built.
//!
//! [`View`] owns one editor and the Rust closures it calls, and destroys the editor when
//! dropped. Positions are CodeMirror's (see [`crate::marks::doc_position`]).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement};

#[wasm_bindgen(module = "/js/bundle/editor.js")]
extern "C" {
    fn create(
        parent: &HtmlElement,
        text: &str,
        litmus: bool,
        dark: bool,
        on_change: &Closure<dyn FnMut(String)>,
        on_finding: &Closure<dyn FnMut(u32)>,
    ) -> JsValue;
    #[wasm_bindgen(js_name = getText)]
    fn get_text(editor: &JsValue) -> String;
    #[wasm_bindgen(js_name = setText)]
    fn set_text(editor: &JsValue, text: &str);
    #[wasm_bindgen(js_name = setLanguage)]
    fn set_language(editor: &JsValue, litmus: bool);
    #[wasm_bindgen(js_name = setTheme)]
    fn set_theme(editor: &JsValue, dark: bool);
    #[wasm_bindgen(js_name = setMarkers)]
    fn set_markers(editor: &JsValue, selected: Option<u32>, others: &[u32]);
    #[wasm_bindgen(js_name = setDiagnostics)]
    fn set_diagnostics(editor: &JsValue, json: &str);
    #[wasm_bindgen(js_name = setFindings)]
    fn set_findings(editor: &JsValue, json: &str);
    #[wasm_bindgen(js_name = select)]
    fn select_range(editor: &JsValue, from: u32, to: u32);
    #[wasm_bindgen(js_name = focus)]
    fn focus_view(editor: &JsValue);
    fn destroy(editor: &JsValue);
    #[wasm_bindgen(js_name = textIn)]
    fn text_in(element: &Element) -> Option<String>;
}

/// What a new editor starts with and whom it tells.
pub struct Config {
    pub text: String,
    pub litmus: bool,
    pub dark: bool,
    /// Hears the whole text after every edit the user makes (not after [`View::set_text`]).
    pub on_change: Box<dyn FnMut(String)>,
    /// Hears the 1-based line of a findings-gutter marker that was clicked.
    pub on_finding: Box<dyn FnMut(u32)>,
}

/// One CodeMirror editor, alive until dropped.
pub struct View {
    editor: JsValue,
    // Kept alive for as long as the editor may call them.
    _on_change: Closure<dyn FnMut(String)>,
    _on_finding: Closure<dyn FnMut(u32)>,
}

impl View {
    /// Builds an editor inside `parent`, which also gets a `data-selection-line` attribute
    /// that follows the selection's head.
    pub fn new(parent: &HtmlElement, config: Config) -> View {
        let on_change = Closure::new(config.on_change);
        let on_finding = Closure::new(config.on_finding);
        let editor = create(parent, &config.text, config.litmus, config.dark, &on_change, &on_finding);
        View { editor, _on_change: on_change, _on_finding: on_finding }
    }

    pub fn text(&self) -> String {
        get_text(&self.editor)
    }

    /// Replaces the document with `text` unless it holds it already, or `text` is the
    /// editor's own last report coming back.
    pub fn set_text(&self, text: &str) {
        set_text(&self.editor, text);
    }

    pub fn set_litmus(&self, litmus: bool) {
        set_language(&self.editor, litmus);
    }

    pub fn set_dark(&self, dark: bool) {
        set_theme(&self.editor, dark);
    }

    /// Marks the selected work-item's line strongly and the other lines faintly (1-based).
    pub fn set_markers(&self, selected: Option<u32>, others: &[u32]) {
        set_markers(&self.editor, selected, others);
    }

    /// Underlines, as JSON (see [`crate::marks::underlines`]).
    pub fn set_diagnostics(&self, json: &str) {
        set_diagnostics(&self.editor, json);
    }

    /// Gutter markers, as JSON (see [`crate::marks::line_findings`]).
    pub fn set_findings(&self, json: &str) {
        set_findings(&self.editor, json);
    }

    /// Selects `[from, to)` with the cursor at `from`, and scrolls it into view.
    pub fn select(&self, from: u32, to: u32) {
        select_range(&self.editor, from, to);
    }

    pub fn focus(&self) {
        focus_view(&self.editor);
    }
}

impl Drop for View {
    fn drop(&mut self) {
        destroy(&self.editor);
    }
}

/// The text of the editor inside `element`, if there is one: for tests, which see the page
/// but not the component's handle.
pub fn text_of(element: &Element) -> Option<String> {
    text_in(element)
}
