// Highlighting and indentation for OpenCL C and CUDA kernels.
//
// A tokenizer rather than a C++ grammar: the GPU dialects put qualifiers such as `__kernel`,
// `__global` or `__device__` where a C++ parser expects a type, which turns every kernel
// into parse errors, while a tokenizer only needs to know the words (gpu.js). It also costs
// a fraction of a grammar's parse tables in the page, and the litmus mode reuses it for the
// thread bodies. Indentation follows the nesting of brackets.

import { StreamLanguage } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { classify, gpuTags } from "./gpu.js";

const words = (text) => new Set(text.split(/\s+/).filter(Boolean));

const KEYWORDS = words(`
  if else for while do return break continue switch case default goto sizeof typedef
  struct union enum static const volatile extern inline register auto
  template typename class namespace using public protected operator new delete this
  constexpr static_assert alignof alignas decltype
`);
const TYPES = words("void char short int long float double signed unsigned");
const ATOMS = words("true false NULL nullptr");

/// A fresh tokenizer state: whether a block comment or a directive is open, and how deeply
/// brackets nest.
export function startState() {
  return { comment: false, depth: 0, directive: false, continued: false };
}

function blockComment(stream, state) {
  if (stream.skipTo("*/")) {
    stream.pos += 2;
    state.comment = false;
  } else {
    stream.skipToEnd();
  }
  return "comment";
}

/// Reads one token of C (with the GPU words) and returns its style, or null for spaces.
export function token(stream, state) {
  if (stream.sol()) {
    // A directive goes on to the next line only after a backslash.
    state.directive = state.directive && state.continued;
    state.continued = false;
  }
  if (state.comment) return blockComment(stream, state);
  if (stream.eatSpace()) return null;
  if (stream.match("//")) {
    stream.skipToEnd();
    return "comment";
  }
  if (stream.match("/*")) {
    state.comment = true;
    return blockComment(stream, state);
  }
  if (state.directive || (stream.sol() && stream.peek() === "#")) {
    state.directive = true;
    stream.match(/^(?:[^/]|\/(?![/*]))*/);
    state.continued = /\\\s*$/.test(stream.string);
    return "meta";
  }
  if (stream.match(/^(?:u8|[uUL])?"(?:[^"\\]|\\.)*"?/)) return "string";
  if (stream.match(/^(?:u8|[uUL])?'(?:[^'\\]|\\.)*'?/)) return "character";
  if (stream.match(/^(?:0[xX][0-9a-fA-F']+|(?:\d[\d']*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[uUlLfFhH]*/)) {
    return "number";
  }
  const word = stream.match(/^[A-Za-z_]\w*/);
  if (word) {
    const text = word[0];
    const group = classify(text);
    if (group) return group;
    if (KEYWORDS.has(text)) return "keyword";
    if (TYPES.has(text)) return "typeName";
    if (ATOMS.has(text)) return "atom";
    return stream.match(/^\s*\(/, false) ? "callee" : "variableName";
  }
  const bracket = stream.match(/^[{}()[\]]/);
  if (bracket) {
    state.depth = Math.max(0, state.depth + ("{([".includes(bracket[0]) ? 1 : -1));
    return "bracket";
  }
  if (stream.match(/^[-+*/%&|^!~<>=?:.]+/)) return "operator";
  stream.next();
  return "punctuation";
}

/// The indentation of a new line: one unit per open bracket, one less before a closing one.
export function indent(state, textAfter, context) {
  if (state.comment) return null;
  const closing = /^\s*[}\])]/.test(textAfter) ? 1 : 0;
  return Math.max(0, state.depth - closing) * context.unit;
}

/// The token names beyond CodeMirror's standard ones.
export const tokenTable = { ...gpuTags, callee: tags.function(tags.variableName) };

/// OpenCL C and CUDA, for CodeMirror.
export const kernel = StreamLanguage.define({
  name: "opencl",
  startState,
  copyState: (state) => ({ ...state }),
  token,
  indent,
  tokenTable,
  languageData: {
    commentTokens: { line: "//", block: { open: "/*", close: "*/" } },
    indentOnInput: /^\s*[}\])]$/,
  },
});
