//! The translation of an OpenCL litmus test into one OpenCL C source that runs it, keeping
//! the byte offsets of the test's own text (see the module documentation of
//! [`crate::litmus`]).

use std::collections::HashSet;

use super::c_text::{c_tokens, tok_text, CKind};
use super::is_ident_byte;
use super::model::{LitmusLocation, LitmusRegister};
use super::parse::ThreadSyntax;

/// A stretch of the litmus text that is not C and is rewritten: what must appear in it, in
/// order, with blanks around.
#[derive(Clone, Debug)]
struct Region {
    start: usize,
    end: usize,
    /// What ends the previous thread's body: `}`, the observation calls and `}`, or the
    /// name of a macro holding them. Empty at the top of the file.
    close: String,
    /// `#define` lines, each on its own line.
    directives: Vec<String>,
    /// The next thread's function head, `void __P1`, right before its parameter list; empty
    /// after the last thread.
    head: String,
}

impl Region {
    /// The region's text, at least `target` bytes long when there is room, newlines first so
    /// the line count stays that of the original (up to `newlines` of them).
    fn layout(&self, at_line_start: bool, after_ident: bool, target: usize, newlines: usize) -> String {
        let mut s = String::new();
        if !self.close.is_empty() {
            if after_ident {
                s.push(' ');
            }
            s.push_str(&self.close);
        }
        if !self.directives.is_empty() {
            if !s.is_empty() || !at_line_start {
                s.push('\n');
            }
            for d in &self.directives {
                s.push_str(d);
                s.push('\n');
            }
        }
        let needs_separator = !s.is_empty() && !s.ends_with('\n') && !self.head.is_empty();
        let gap = target.saturating_sub(s.len() + self.head.len()).max(usize::from(needs_separator));
        let newlines = newlines.saturating_sub(s.matches('\n').count()).min(gap);
        s.extend(std::iter::repeat_n('\n', newlines));
        s.extend(std::iter::repeat_n(' ', gap - newlines));
        s.push_str(&self.head);
        s
    }

    /// Whether the region's content fits in its original length (assuming nothing before it
    /// shifted).
    fn fits(&self, bytes: &[u8]) -> bool {
        let at_line_start = self.start == 0 || bytes.get(self.start - 1) == Some(&b'\n');
        let after_ident = self.start > 0 && bytes.get(self.start - 1).copied().is_some_and(is_ident_byte);
        self.layout(at_line_start, after_ident, 0, 0).len() <= self.end - self.start
    }
}

/// Adds `directive` to `region` if the region still fits its original length with it.
fn add_if_it_fits(region: &mut Region, directive: &str, bytes: &[u8]) -> bool {
    region.directives.push(directive.to_string());
    let fits = region.fits(bytes);
    if !fits {
        region.directives.pop();
    }
    fits
}

/// Builds `kernel_source` (see the module documentation).
pub(super) fn translate(
    text: &str,
    threads: &[ThreadSyntax],
    registers: &[LitmusRegister],
    locations: &[LitmusLocation],
    placement: &[(usize, usize)],
) -> (String, Vec<(u32, u32, u32)>) {
    let mut segments = Vec::with_capacity(threads.len());
    let bytes = text.as_bytes();
    let n = threads.len();
    let observations = |t: usize| -> String {
        registers.iter().enumerate().filter(|(_, r)| r.thread == t).map(|(slot, r)| format!("__interleave_observe({slot},{});", r.name)).collect()
    };
    // Region 0 is the top of the file up to P0's parameter list; region t + 1 runs from the
    // closing brace of thread t to the parameter list of thread t + 1.
    let mut regions = Vec::with_capacity(n);
    regions.push(Region { start: 0, end: threads[0].params_open, close: String::new(), directives: Vec::new(), head: "void __P0".into() });
    for t in 0..n - 1 {
        regions.push(Region {
            start: threads[t].body_close,
            end: threads[t + 1].params_open,
            close: "}".into(),
            directives: Vec::new(),
            head: format!("void __P{}", t + 1),
        });
    }
    // Macro names must not capture an identifier of the test's own code.
    let used: HashSet<&str> = c_tokens(text, 0, text.len()).iter().filter(|t| t.kind == CKind::Ident).map(|t| tok_text(text, t)).collect();
    for t in 0..n - 1 {
        let calls = observations(t);
        if calls.is_empty() {
            continue;
        }
        let inline = format!("{calls}}}");
        let region = t + 1;
        regions[region].close = inline.clone();
        if regions[region].fits(bytes) {
            continue;
        }
        let mut macro_name = format!("__{t}");
        while used.contains(macro_name.as_str()) {
            macro_name.push('_');
        }
        regions[region].close = macro_name.clone();
        let directive = format!("#define {macro_name} {inline}");
        // The definition goes into the first region before the use that has room for it.
        let defined = regions[region].fits(bytes) && (0..region).any(|r| add_if_it_fits(&mut regions[r], &directive, bytes));
        if !defined {
            // No room for a definition anywhere before: write the calls in place and let the
            // text after them shift.
            regions[region].close = inline;
        }
    }
    let mut last = Region { start: threads[n - 1].body_close, end: text.len(), close: String::new(), directives: Vec::new(), head: String::new() };
    let calls = observations(n - 1);
    last.close = format!("{calls}}}");

    let mut out = String::with_capacity(text.len() + 512);
    let emit = |out: &mut String, r: &Region| {
        // Every region writes at least as much as it replaces once shifted, so the output is
        // never behind the original text.
        let shift = out.len().saturating_sub(r.start);
        let newlines = bytes[r.start..r.end].iter().filter(|&&b| b == b'\n').count();
        let mut target = (r.end - r.start).saturating_sub(shift);
        if r.head.is_empty() {
            // After the last thread, offsets no longer matter but the lines still count.
            target = target.max(r.close.len() + newlines);
        }
        let at_line_start = out.is_empty() || out.ends_with('\n');
        let after_ident = out.as_bytes().last().copied().is_some_and(is_ident_byte);
        out.push_str(&r.layout(at_line_start, after_ident, target, newlines));
    };
    emit(&mut out, &regions[0]);
    for t in 0..n {
        let (start, end) = (threads[t].params_open, threads[t].body_close);
        segments.push((out.len() as u32, start as u32, (end - start) as u32));
        out.push_str(&text[start..end]);
        emit(&mut out, if t + 1 < n { &regions[t + 1] } else { &last });
    }

    // The kernel: one pointer per location; each work-item calls its thread's function with
    // the locations cast to the types the thread declared.
    out.push_str("\n\nkernel void __litmus(");
    let params: Vec<String> = locations
        .iter()
        // A location is one location for every thread, as in herd and Dat3M, even one the
        // threads declare `local` and place in different work-groups (which OpenCL would
        // give a copy each): the kernel passes a global buffer, and the threads' casts keep
        // their declared types.
        .map(|l| format!("global {}* {}", l.elem.name(), l.name))
        .collect();
    out.push_str(&params.join(", "));
    out.push_str(") {\n    uint __litmus_group = get_group_id(0);\n    uint __litmus_item = get_local_id(0);\n");
    for (t, thread) in threads.iter().enumerate() {
        let (g, l) = placement[t];
        let args: Vec<String> = thread.params.iter().map(|p| format!("{}{}", p.cast, p.name)).collect();
        out.push_str(&format!("    {}if (__litmus_group == {g}u && __litmus_item == {l}u) __P{t}({});\n", if t == 0 { "" } else { "else " }, args.join(", ")));
    }
    out.push_str("}\n");
    (out, segments)
}
