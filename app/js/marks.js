// What the app marks in the source: where the work-items stand, the diagnostics of a failed
// compile, and the findings of a run. Each is a state field set by one effect and mapped
// through edits, so a mark stays on its text while the user types until the app sends the
// next set.
//
// Messages are always inserted as text nodes: they may quote the user's source, which must
// never be read as markup.

import { RangeSet, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  GutterMarker,
  gutter,
  gutterLineClass,
  hoverTooltip,
} from "@codemirror/view";

// Work-item lines.

/// `{ selected: line or null, others: [line] }`, 1-based.
export const setWorkItemLines = StateEffect.define();

class LineClass extends GutterMarker {
  constructor(elementClass) {
    super();
    this.elementClass = elementClass;
  }
  eq(other) {
    return other.elementClass === this.elementClass;
  }
}

const selectedLine = Decoration.line({ class: "cm-active-wi" });
const otherLine = Decoration.line({ class: "cm-other-wi" });
const selectedNumber = new LineClass("cm-wi-number-active");
const otherNumber = new LineClass("cm-wi-number-other");

function workItemMarks(doc, { selected, others }) {
  const lines = new Set(others);
  if (selected != null) lines.add(selected);
  const sorted = [...lines].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b);
  const decorations = new RangeSetBuilder();
  const numbers = new RangeSetBuilder();
  for (const n of sorted) {
    const from = doc.line(n).from;
    decorations.add(from, from, n === selected ? selectedLine : otherLine);
    numbers.add(from, from, n === selected ? selectedNumber : otherNumber);
  }
  return { decorations: decorations.finish(), numbers: numbers.finish() };
}

const workItemField = StateField.define({
  create: () => ({ decorations: Decoration.none, numbers: RangeSet.empty }),
  update(value, tr) {
    let next = {
      decorations: value.decorations.map(tr.changes),
      numbers: value.numbers.map(tr.changes),
    };
    for (const effect of tr.effects) {
      if (effect.is(setWorkItemLines)) next = workItemMarks(tr.state.doc, effect.value);
    }
    return next;
  },
  provide: (field) => [
    EditorView.decorations.from(field, (value) => value.decorations),
    gutterLineClass.from(field, (value) => value.numbers),
  ],
});

/// Line backgrounds (and line-number highlights) for the work-items' current lines.
export const workItemLines = workItemField;

// Diagnostics.

/// `[{ from, to, severity, code, message, primary }]`, in document positions.
export const setDiagnostics = StateEffect.define();

function underline(doc, d) {
  let { from, to } = d;
  from = Math.min(Math.max(from, 0), doc.length);
  to = Math.min(Math.max(to, from), doc.length);
  // An empty span (a missing token) still needs a character to underline: the one after it
  // on its line, else the one before.
  if (from === to) {
    const line = doc.lineAt(from);
    if (to < line.to) to += 1;
    else if (from > line.from) from -= 1;
    else return null;
  }
  const classes = [
    "cm-diagnostic-underline",
    `cm-diagnostic-${d.severity}`,
    d.primary ? "cm-diagnostic-primary" : "cm-diagnostic-secondary",
  ];
  return Decoration.mark({ class: classes.join(" "), diagnostic: d }).range(from, to);
}

const diagnosticField = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    let next = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (effect.is(setDiagnostics)) {
        const ranges = effect.value.map((d) => underline(tr.state.doc, d)).filter(Boolean);
        next = Decoration.set(ranges, true);
      }
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

function tooltipBody(found) {
  const dom = document.createElement("div");
  dom.className = "cm-diagnostic-tooltip";
  for (const d of found) {
    const row = document.createElement("div");
    row.className = `cm-diagnostic-message cm-diagnostic-${d.severity}`;
    const head = document.createElement("strong");
    head.textContent = d.code ? `${d.severity}[${d.code}]` : d.severity;
    row.append(head, document.createTextNode(`: ${d.message}`));
    dom.append(row);
  }
  return { dom };
}

const diagnosticHover = hoverTooltip((view, pos, side) => {
  const found = [];
  let from = pos;
  let to = pos;
  view.state.field(diagnosticField).between(pos, pos, (start, end, decoration) => {
    if ((start === pos && side < 0) || (end === pos && side > 0)) return;
    found.push(decoration.spec.diagnostic);
    from = Math.min(from, start);
    to = Math.max(to, end);
  });
  if (found.length === 0) return null;
  return { pos: from, end: to, above: true, create: () => tooltipBody(found) };
});

/// Underlines for diagnostics, with their messages on hover.
export const diagnostics = [diagnosticField, diagnosticHover];

// Findings.

/// `[{ line, severity, message }]`, one per line, 1-based.
export const setFindings = StateEffect.define();

class FindingMarker extends GutterMarker {
  constructor(line, severity, message) {
    super();
    this.line = line;
    this.severity = severity;
    this.message = message;
  }
  eq(other) {
    return (
      other.line === this.line &&
      other.severity === this.severity &&
      other.message === this.message
    );
  }
  toDOM() {
    // A button, so that it is named and clickable; it stays out of the tab order, since the
    // findings list offers the same findings to the keyboard.
    const button = document.createElement("button");
    button.type = "button";
    button.tabIndex = -1;
    button.className = `cm-finding-marker cm-finding-${this.severity}`;
    if (this.line > 0) {
      button.dataset.line = String(this.line);
      button.title = this.message;
      button.setAttribute("aria-label", `${this.severity} on line ${this.line}: ${this.message}`);
    } else {
      // The spacer that keeps the gutter's width while there are no findings.
      button.style.visibility = "hidden";
      button.setAttribute("aria-hidden", "true");
    }
    button.textContent = this.severity === "error" ? "!" : "?";
    return button;
  }
}

/// The markers of `set` renumbered after their lines moved.
function renumber(set, doc) {
  const builder = new RangeSetBuilder();
  for (let cursor = set.iter(); cursor.value; cursor.next()) {
    const { severity, message } = cursor.value;
    const line = doc.lineAt(cursor.from).number;
    builder.add(cursor.from, cursor.from, new FindingMarker(line, severity, message));
  }
  return builder.finish();
}

const findingField = StateField.define({
  create: () => RangeSet.empty,
  update(value, tr) {
    let next = tr.docChanged ? renumber(value.map(tr.changes), tr.state.doc) : value;
    for (const effect of tr.effects) {
      if (!effect.is(setFindings)) continue;
      const doc = tr.state.doc;
      const builder = new RangeSetBuilder();
      const sorted = effect.value
        .filter((f) => f.line >= 1 && f.line <= doc.lines)
        .sort((a, b) => a.line - b.line);
      for (const f of sorted) {
        const from = doc.line(f.line).from;
        builder.add(from, from, new FindingMarker(f.line, f.severity, f.message));
      }
      next = builder.finish();
    }
    return next;
  },
});

/// A gutter with one severity-coloured marker per line that has findings; a click calls
/// `onClick` with the 1-based line.
export function findingsGutter(onClick) {
  return [
    findingField,
    gutter({
      class: "cm-findings-gutter",
      markers: (view) => view.state.field(findingField),
      initialSpacer: () => new FindingMarker(0, "error", ""),
      domEventHandlers: {
        mousedown(view, block, event) {
          // Keeps the focus where it is; the click below does the work.
          if (event.target.closest(".cm-finding-marker")) event.preventDefault();
          return false;
        },
        click(view, block, event) {
          // The marker's own line: a click from the keyboard has no coordinates to find the
          // line block by.
          const marker = event.target.closest(".cm-finding-marker[data-line]");
          if (!marker) return false;
          onClick(Number(marker.dataset.line));
          return true;
        },
      },
    }),
  ];
}
