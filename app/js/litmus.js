// Highlighting for the herd/Dat3M litmus format the app's litmus tests use:
//
//     OPENCL MP
//     (* a comment *)
//     { [x]=0; [y]=0; }
//     P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) { ...OpenCL C... }
//     exists (1:r0=1 /\ 1:r1=0)
//
// The header, the `(* *)` comments, the thread headers and the condition are recognised
// here; everything else, the thread bodies above all, goes to the kernel tokenizer. A `(*`
// is a comment only outside braces, since inside a thread body it is C (`(*p)`).

import { StreamLanguage } from "@codemirror/language";
import { indent, startState as kernelState, token as kernelToken, tokenTable } from "./kernel.js";

const CONDITION_WORDS = new Set(["exists", "forall", "filter", "locations"]);

function litmusComment(stream, state) {
  if (stream.skipTo("*)")) {
    stream.pos += 2;
    state.litmusComment = false;
  } else {
    stream.skipToEnd();
  }
  return "comment";
}

function token(stream, state) {
  if (stream.sol()) {
    state.header = false;
    state.thread = false;
  }
  if (state.litmusComment) return litmusComment(stream, state);
  if (state.comment) return kernelToken(stream, state);
  if (stream.eatSpace()) return null;
  if (state.depth === 0 && stream.match("(*")) {
    state.litmusComment = true;
    return litmusComment(stream, state);
  }
  if (stream.sol() && stream.match(/^OPENCL\b/)) {
    state.header = true;
    return "keyword";
  }
  if (state.header) {
    // The rest of the first line is the test's name.
    stream.skipToEnd();
    return "heading";
  }
  if (stream.sol() && stream.match(/^P\d+\b/)) {
    state.thread = true;
    return "labelName";
  }
  if (state.thread && stream.match(/^(?:wg|dev)\b/)) return "keyword";
  if (state.depth === 0 && stream.match(/^[A-Za-z]+\b/, false)) {
    const word = stream.match(/^[A-Za-z]+/)[0];
    if (CONDITION_WORDS.has(word)) return "keyword";
    stream.backUp(word.length);
  }
  if (stream.match("/\\") || stream.match("\\/")) return "logicOperator";
  return kernelToken(stream, state);
}

/// The litmus language, for CodeMirror.
export const litmus = StreamLanguage.define({
  name: "litmus",
  startState: () => ({ ...kernelState(), litmusComment: false, header: false, thread: false }),
  copyState: (state) => ({ ...state }),
  token,
  indent,
  tokenTable,
  languageData: {
    commentTokens: { block: { open: "(*", close: "*)" } },
    indentOnInput: /^\s*[}\])]$/,
  },
});
