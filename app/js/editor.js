// The app's code editor: a CodeMirror 6 view with OpenCL C / CUDA and litmus highlighting,
// work-item line markers, diagnostics and a findings gutter, behind a small API that the Rust
// component (app/src/codemirror.rs) calls. Every function takes the record `create` returns.
//
// The app owns the text. Edits go out through `onChange`; `setText` brings the app's text in
// and replaces the document only when it really differs, so the editor's own edits coming
// back never move the cursor or disturb the undo history.

import { Annotation, Compartment, EditorSelection, EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentLess, indentMore } from "@codemirror/commands";
import {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { gpuTags } from "./gpu.js";
import { kernel } from "./kernel.js";
import { litmus } from "./litmus.js";
import {
  diagnostics,
  findingsGutter,
  setDiagnostics as setDiagnosticsEffect,
  setFindings as setFindingsEffect,
  setWorkItemLines,
  workItemLines,
} from "./marks.js";

const TAB_WIDTH = 4;

/// Marks the transactions that bring the app's text in, so they are not reported back.
const fromApp = Annotation.define();

const languageSlot = new Compartment();
const themeSlot = new Compartment();

function language(isLitmus) {
  const label = isLitmus ? "Litmus test" : "Kernel source";
  const content = EditorView.contentAttributes.of({ "aria-label": label });
  return [isLitmus ? litmus : kernel, content];
}

/// Tab indents: a selection is indented by a level, a cursor gets spaces up to the next tab
/// stop. Escape followed by Tab leaves the editor instead (CodeMirror's tab-focus mode).
function indentOrInsert(view) {
  const { state } = view;
  if (state.selection.ranges.some((range) => !range.empty)) return indentMore(view);
  view.dispatch(
    state.changeByRange((range) => {
      const line = state.doc.lineAt(range.head);
      const column = range.head - line.from;
      const spaces = " ".repeat(TAB_WIDTH - (column % TAB_WIDTH));
      return {
        changes: { from: range.head, insert: spaces },
        range: EditorSelection.cursor(range.head + spaces.length),
      };
    }),
    { scrollIntoView: true, userEvent: "input" },
  );
  return true;
}

// Colours are custom properties, set per theme below, so one highlight style serves both.
const highlightStyle = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword], color: "var(--cm-keyword)" },
  { tag: [tags.typeName, tags.standard(tags.typeName)], color: "var(--cm-type)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--cm-number)" },
  { tag: [tags.string, tags.character, tags.special(tags.string)], color: "var(--cm-string)" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: "var(--cm-comment)", fontStyle: "italic" },
  { tag: [tags.processingInstruction, tags.macroName, tags.meta], color: "var(--cm-meta)" },
  { tag: tags.function(tags.variableName), color: "var(--cm-function)" },
  { tag: [tags.heading, tags.labelName], color: "var(--cm-label)", fontWeight: "bold" },
  { tag: tags.logicOperator, color: "var(--cm-keyword)" },
  { tag: tags.atom, color: "var(--cm-number)" },
  ...Object.entries(gpuTags).map(([cls, tag]) => ({ tag, class: cls })),
]);

const palette = {
  light: {
    "--cm-keyword": "#b4235a",
    "--cm-type": "#1d5fb4",
    "--cm-number": "#0b7d74",
    "--cm-string": "#2f6f1f",
    "--cm-comment": "#6b7482",
    "--cm-meta": "#9a4d00",
    "--cm-function": "#6b3fc0",
    "--cm-label": "#1b1f27",
    "--cm-gpu-qualifier": "#c0267e",
    "--cm-gpu-builtin": "#6b3fc0",
    "--cm-gpu-variable": "#9a4d00",
    "--cm-wi-active": "rgba(255, 196, 0, 0.34)",
    "--cm-wi-active-edge": "#d69e00",
    "--cm-wi-other": "rgba(255, 196, 0, 0.12)",
  },
  dark: {
    "--cm-keyword": "#ff7ea8",
    "--cm-type": "#7cb7ff",
    "--cm-number": "#5fd8cc",
    "--cm-string": "#9ad67f",
    "--cm-comment": "#8690a2",
    "--cm-meta": "#ffad66",
    "--cm-function": "#c9a6ff",
    "--cm-label": "#e4e8ef",
    "--cm-gpu-qualifier": "#ff8fd0",
    "--cm-gpu-builtin": "#c9a6ff",
    "--cm-gpu-variable": "#ffad66",
    "--cm-wi-active": "rgba(250, 204, 21, 0.24)",
    "--cm-wi-active-edge": "#facc15",
    "--cm-wi-other": "rgba(250, 204, 21, 0.08)",
  },
};

// `&light` and `&dark` follow the view's dark-theme facet, which `setTheme` switches.
const look = EditorView.baseTheme({
  "&light": palette.light,
  "&dark": palette.dark,
  "&": {
    height: "100%",
    backgroundColor: "var(--code-bg)",
    color: "var(--text)",
  },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": {
    fontFamily: "var(--mono)",
    fontSize: "var(--code-size)",
    lineHeight: "var(--code-line)",
  },
  ".cm-content": { padding: "0.5rem 0" },
  ".cm-gutters": {
    backgroundColor: "var(--panel-2, var(--code-bg))",
    color: "var(--gutter-text)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 0.6em 0 0.4em", minWidth: "2.6em" },
  ".cm-gpu-qualifier": { color: "var(--cm-gpu-qualifier)", fontWeight: "600" },
  ".cm-gpu-type": { color: "var(--cm-type)", fontWeight: "600" },
  ".cm-gpu-builtin": { color: "var(--cm-gpu-builtin)", fontWeight: "600" },
  ".cm-gpu-variable": { color: "var(--cm-gpu-variable)", fontWeight: "600" },
  ".cm-gpu-constant": { color: "var(--cm-number)", fontWeight: "600" },
  ".cm-active-wi": {
    backgroundColor: "var(--cm-wi-active)",
    boxShadow: "inset 3px 0 0 var(--cm-wi-active-edge)",
  },
  ".cm-other-wi": { backgroundColor: "var(--cm-wi-other)" },
  ".cm-gutterElement.cm-wi-number-active": {
    backgroundColor: "var(--cm-wi-active)",
    color: "var(--text)",
    fontWeight: "bold",
  },
  ".cm-gutterElement.cm-wi-number-other": { backgroundColor: "var(--cm-wi-other)", color: "var(--text)" },
  ".cm-diagnostic-underline": {
    textDecorationLine: "underline",
    textDecorationStyle: "wavy",
    textDecorationThickness: "1px",
    textUnderlineOffset: "3px",
    textDecorationSkipInk: "none",
  },
  ".cm-diagnostic-error": { textDecorationColor: "var(--error)" },
  ".cm-diagnostic-warning": { textDecorationColor: "var(--warning)" },
  ".cm-diagnostic-secondary": { textDecorationStyle: "dotted" },
  ".cm-tooltip.cm-tooltip-hover": {
    backgroundColor: "var(--panel)",
    color: "var(--text)",
    border: "1px solid var(--border)",
    borderRadius: "4px",
  },
  ".cm-diagnostic-tooltip": { padding: "0.25rem 0.5rem", maxWidth: "40rem", fontFamily: "var(--sans)" },
  ".cm-diagnostic-message.cm-diagnostic-error strong": { color: "var(--error)" },
  ".cm-diagnostic-message.cm-diagnostic-warning strong": { color: "var(--warning)" },
  ".cm-findings-gutter .cm-gutterElement": { display: "flex", alignItems: "center", padding: "0 2px" },
  ".cm-finding-marker": {
    width: "1.1em",
    height: "1.1em",
    padding: "0",
    border: "none",
    borderRadius: "50%",
    font: "bold 0.75em/1.1em var(--sans)",
    color: "#fff",
    cursor: "pointer",
  },
  ".cm-finding-error": { backgroundColor: "var(--error)" },
  ".cm-finding-warning": { backgroundColor: "var(--warning)" },
  "&dark .cm-finding-marker": { color: "#12151c" },
});

/// Builds an editor in `parent` holding `text`. `onChange(text)` hears every edit the user
/// makes; `onFinding(line)` hears clicks on the findings gutter. `parent` gets a
/// `data-selection-line` attribute with the 1-based line of the selection's head.
export function create(parent, text, isLitmus, dark, onChange, onFinding) {
  // `isLitmus` and `dark` are kept so that setting them to what they are already (as the
  // app's first render does, right after creating the editor) reconfigures nothing.
  const editor = { parent, view: null, lastEmitted: null, isLitmus, dark };
  const report = EditorView.updateListener.of((update) => {
    if (update.docChanged && !update.transactions.every((tr) => tr.annotation(fromApp))) {
      const doc = update.state.doc.toString();
      editor.lastEmitted = doc;
      onChange(doc);
    }
    if (update.docChanged || update.selectionSet) showSelectionLine(editor);
  });
  const state = EditorState.create({
    doc: text,
    extensions: [
      findingsGutter((line) => onFinding(line)),
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      EditorState.tabSize.of(TAB_WIDTH),
      indentUnit.of(" ".repeat(TAB_WIDTH)),
      syntaxHighlighting(highlightStyle),
      keymap.of([
        { key: "Tab", run: indentOrInsert, shift: indentLess },
        ...historyKeymap,
        ...defaultKeymap,
      ]),
      languageSlot.of(language(isLitmus)),
      themeSlot.of(EditorView.darkTheme.of(dark)),
      EditorView.contentAttributes.of({ "aria-describedby": "editor-hint" }),
      workItemLines,
      diagnostics,
      look,
      report,
    ],
  });
  editor.view = new EditorView({ state, parent });
  showSelectionLine(editor);
  return editor;
}

function showSelectionLine(editor) {
  const { state } = editor.view;
  editor.parent.dataset.selectionLine = String(state.doc.lineAt(state.selection.main.head).number);
}

/// The document's text.
export function getText(editor) {
  return editor.view.state.doc.toString();
}

/// Brings the app's text in. Nothing happens when it equals the document, or when it is the
/// last text the editor reported (an echo that the user's typing has already overtaken);
/// otherwise the document is replaced, as one undoable step, with the cursor at the start.
export function setText(editor, text) {
  const { view } = editor;
  const current = view.state.doc.toString();
  if (text === current || text === editor.lastEmitted) return;
  editor.lastEmitted = null;
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: 0 },
    annotations: fromApp.of(true),
    effects: EditorView.scrollIntoView(0, { y: "start" }),
  });
}

/// Switches between the kernel and the litmus language (and the content's accessible name).
export function setLanguage(editor, isLitmus) {
  if (editor.isLitmus === isLitmus) return;
  editor.isLitmus = isLitmus;
  editor.view.dispatch({ effects: languageSlot.reconfigure(language(isLitmus)) });
}

export function setTheme(editor, dark) {
  if (editor.dark === dark) return;
  editor.dark = dark;
  editor.view.dispatch({ effects: themeSlot.reconfigure(EditorView.darkTheme.of(dark)) });
}

/// Marks the selected work-item's line (`selected`, or undefined) and the other work-items'
/// lines (`others`), all 1-based.
export function setMarkers(editor, selected, others) {
  const value = { selected: selected ?? null, others: Array.from(others ?? []) };
  editor.view.dispatch({ effects: setWorkItemLines.of(value) });
}

/// Underlines diagnostics: a JSON array of `{from, to, severity, code, message, primary}`.
export function setDiagnostics(editor, json) {
  editor.view.dispatch({ effects: setDiagnosticsEffect.of(JSON.parse(json)) });
}

/// Shows findings in the gutter: a JSON array of `{line, severity, message}`.
export function setFindings(editor, json) {
  editor.view.dispatch({ effects: setFindingsEffect.of(JSON.parse(json)) });
}

/// Selects `[from, to)` (document positions), with the head at `from`, and scrolls it into
/// the middle of the view.
export function select(editor, from, to) {
  const { view } = editor;
  const length = view.state.doc.length;
  const start = Math.min(from, length);
  const end = Math.min(Math.max(to, start), length);
  view.dispatch({
    selection: EditorSelection.single(end, start),
    effects: EditorView.scrollIntoView(EditorSelection.range(end, start), { y: "center" }),
  });
}

export function focus(editor) {
  editor.view.focus();
}

export function destroy(editor) {
  editor.view.destroy();
}

/// The text of the editor inside `element` (or null), for tests that only see the DOM.
export function textIn(element) {
  const dom = element.querySelector(".cm-editor") ?? element;
  const view = EditorView.findFromDOM(dom);
  return view ? view.state.doc.toString() : null;
}
