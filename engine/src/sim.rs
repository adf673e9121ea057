//! Oclgrind's simulation files (`.sim`): a kernel launch as text.
//!
//! Line by line, `#` starting a comment: an optional `# ARGS:` first line (build options such as
//! `-D NAME=VALUE`), the kernel source file, the kernel name, the global size `X Y Z`, the
//! work-group size `X Y Z`, then one `<size=BYTES [type] [fill=V | range=START:STEP:END] [dump]
//! [hex] [noinit] [null] [ro|wo]>` per kernel argument, each optionally followed by lines of
//! literal values. Whether an argument is a buffer, a scalar or local memory comes from the
//! kernel's parameters, as in Oclgrind, so [`scenario`] compiles the kernel first.
//!
//! The engine does no I/O: the caller reads the `.sim` file and the kernel source it names.

use crate::diag::{Diagnostic, Span};
use crate::frontend;
use crate::ir::ParamKind;
use crate::scenario::{Access, ArgBinding, ArgSpec, BufferInit, Dialect, ElemType, Launch, Number, Scenario};
use crate::trace::Space;

/// One `<...>` argument of a `.sim` file.
#[derive(Clone, Debug, PartialEq)]
pub struct SimArg {
    pub size: u64,
    /// The element type written in the file, if any.
    pub ty: Option<ElemType>,
    pub fill: Option<String>,
    /// `range=START:STEP:END`.
    pub range: Option<(String, String, String)>,
    pub dump: bool,
    pub hex: bool,
    pub noinit: bool,
    pub null: bool,
    pub access: Access,
    /// Literal values from the lines after the argument.
    pub values: Vec<String>,
    /// Where the argument is in the `.sim` text.
    pub span: Span,
}

/// A parsed `.sim` file.
#[derive(Clone, Debug, PartialEq)]
pub struct SimFile {
    /// The kernel source file, relative to the `.sim` file.
    pub source_file: String,
    pub kernel: String,
    pub global: [u64; 3],
    pub local: [u64; 3],
    /// `-D` definitions from the `# ARGS:` line.
    pub defines: Vec<String>,
    pub args: Vec<SimArg>,
}

fn sim_error(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("invalid-input", message).with_span(span, "in this simulation file")
}

/// The meaningful lines of `text`: comments and blank lines removed, with their spans.
fn lines(text: &str) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.split('#').next().unwrap_or("").trim();
        if !line.is_empty() {
            let lead = raw.len() - raw.trim_start().len();
            out.push((line, Span::new((start + lead) as u32, (start + lead + line.len()) as u32)));
        }
    }
    out
}

fn sizes(line: &str, span: Span, what: &str) -> Result<[u64; 3], Diagnostic> {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let mut out = [1u64; 3];
    if parts.is_empty() || parts.len() > 3 {
        return Err(sim_error(span, format!("expected the {what} as `X Y Z`")));
    }
    for (k, p) in parts.iter().enumerate() {
        out[k] = p.parse().map_err(|_| sim_error(span, format!("`{p}` is not a {what} dimension")))?;
    }
    Ok(out)
}

/// Parses the text of a `.sim` file.
pub fn parse(text: &str) -> Result<SimFile, Diagnostic> {
    let mut defines = Vec::new();
    if let Some(first) = text.lines().next() {
        if let Some(args) = first.trim().strip_prefix("# ARGS:") {
            // Build options may come quoted (`--build-options "-DN=4 -cl-std=CL2.0"`) or joined
            // to their flag (`--build-options=-DN=4`); the quotes and the flag are not part of a
            // definition.
            let words: Vec<&str> =
                args.split_whitespace().map(|w| w.strip_prefix("--build-options=").unwrap_or(w).trim_matches(|c| c == '"' || c == '\'')).collect();
            let mut k = 0;
            while k < words.len() {
                if words[k] == "-D" {
                    if let Some(d) = words.get(k + 1) {
                        defines.push(d.to_string());
                    }
                    k += 1;
                } else if let Some(d) = words[k].strip_prefix("-D") {
                    defines.push(d.to_string());
                }
                k += 1;
            }
        }
    }
    let lines = lines(text);
    let end = Span::new(text.len() as u32, text.len() as u32);
    let get = |k: usize, what: &str| lines.get(k).copied().ok_or_else(|| sim_error(end, format!("the file ends before the {what}")));
    let (source_file, _) = get(0, "kernel source file name")?;
    let (kernel, _) = get(1, "kernel name")?;
    let (g, gspan) = get(2, "global size")?;
    let (l, lspan) = get(3, "work-group size")?;
    let global = sizes(g, gspan, "global size")?;
    let local = sizes(l, lspan, "work-group size")?;
    let mut args: Vec<SimArg> = Vec::new();
    for &(line, span) in &lines[4..] {
        if let Some(body) = line.strip_prefix('<') {
            let body = body.strip_suffix('>').ok_or_else(|| sim_error(span, "an argument is written `<size=BYTES ...>`"))?;
            args.push(parse_arg(body, span)?);
        } else if let Some(arg) = args.last_mut() {
            arg.values.extend(line.split(|c: char| c.is_whitespace() || c == ',').filter(|v| !v.is_empty()).map(String::from));
        } else {
            return Err(sim_error(span, format!("unexpected `{line}` before the first argument")));
        }
    }
    Ok(SimFile { source_file: source_file.to_string(), kernel: kernel.to_string(), global, local, defines, args })
}

fn parse_arg(body: &str, span: Span) -> Result<SimArg, Diagnostic> {
    let mut arg = SimArg {
        size: 0,
        ty: None,
        fill: None,
        range: None,
        dump: false,
        hex: false,
        noinit: false,
        null: false,
        access: Access::ReadWrite,
        values: Vec::new(),
        span,
    };
    let mut has_size = false;
    for word in body.split_whitespace() {
        match word.split_once('=') {
            Some(("size", v)) => {
                arg.size = v.parse().map_err(|_| sim_error(span, format!("`{v}` is not a size in bytes")))?;
                has_size = true;
            }
            Some(("fill", v)) => arg.fill = Some(v.to_string()),
            Some(("range", v)) => {
                let parts: Vec<&str> = v.split(':').collect();
                let [a, b, c] = parts[..] else {
                    return Err(sim_error(span, "a range is written range=START:STEP:END"));
                };
                arg.range = Some((a.to_string(), b.to_string(), c.to_string()));
            }
            Some((key, _)) => return Err(sim_error(span, format!("unknown argument option `{key}`"))),
            None => match word {
                "dump" => arg.dump = true,
                "hex" => arg.hex = true,
                "noinit" => arg.noinit = true,
                "null" => arg.null = true,
                "ro" => arg.access = Access::ReadOnly,
                "wo" => arg.access = Access::WriteOnly,
                _ => {
                    let ty = ElemType::parse(word).ok_or_else(|| sim_error(span, format!("unknown argument option or type `{word}`")))?;
                    arg.ty = Some(ty);
                }
            },
        }
    }
    if !has_size {
        return Err(sim_error(span, "every argument needs size=BYTES"));
    }
    Ok(arg)
}

fn number(text: &str, hex: bool, span: Span) -> Result<Number, Diagnostic> {
    let parsed = if hex || text.starts_with("0x") || text.starts_with("0X") {
        u64::from_str_radix(text.trim_start_matches("0x").trim_start_matches("0X"), 16).ok().map(Number::UInt)
    } else {
        Number::parse(text)
    };
    parsed.ok_or_else(|| sim_error(span, format!("`{text}` is not a number")))
}

/// The scenario a `.sim` file describes, for the kernel `source` it names. Which buffers the
/// file marks `dump` are returned too (all buffers when none is marked).
pub fn scenario(sim: &SimFile, source: String, file_name: String) -> Result<(Scenario, Vec<String>), Vec<Diagnostic>> {
    let program = frontend::compile(&source, Dialect::OpenCl, &sim.defines).map_err(|d| vec![d])?;
    let Some(kernel) = program.kernels.iter().find(|k| k.name == sim.kernel) else {
        let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
        return Err(vec![Diagnostic::error("invalid-input", format!("the simulation file runs kernel `{}`, which the source does not define", sim.kernel))
            .with_note(format!("kernels in the source: {}", names.join(", ")))]);
    };
    if kernel.params.len() != sim.args.len() {
        return Err(vec![Diagnostic::error(
            "invalid-input",
            format!("kernel `{}` has {} parameters, but the simulation file gives {} arguments", kernel.name, kernel.params.len(), sim.args.len()),
        )]);
    }
    let mut scenario = Scenario::new(source, file_name, Dialect::OpenCl);
    scenario.kernel = Some(sim.kernel.clone());
    scenario.defines = sim.defines.clone();
    scenario.launch = Launch { global: sim.global.to_vec(), local: Some(sim.local.to_vec()), offset: Vec::new() };
    let mut dumped = Vec::new();
    for (p, a) in kernel.params.iter().zip(&sim.args) {
        let spec = match &p.kind {
            ParamKind::Pointer { space: Space::Local, .. } => ArgSpec::Local { bytes: a.size },
            ParamKind::Pointer { .. } if a.null => ArgSpec::Null,
            ParamKind::Scalar(t) => {
                let value = match a.values.first() {
                    Some(v) => number(v, a.hex, a.span).map_err(|d| vec![d])?,
                    None => match &a.fill {
                        Some(f) => number(f, a.hex, a.span).map_err(|d| vec![d])?,
                        None => Number::Int(0),
                    },
                };
                ArgSpec::Scalar { ty: *t, value }
            }
            // Oclgrind reads an untyped buffer of structs as 4-byte integers when it can.
            ParamKind::Pointer { elem, .. } => {
                let fallback = if a.size % 4 == 0 { ElemType::Int } else { ElemType::UChar };
                buffer_spec(a, a.ty.or(*elem).unwrap_or(fallback)).map_err(|d| vec![d])?
            }
            ParamKind::Aggregate { .. } => buffer_spec(a, a.ty.unwrap_or(ElemType::UChar)).map_err(|d| vec![d])?,
        };
        if a.dump {
            dumped.push(p.name.clone());
        }
        scenario.args.push(ArgBinding { name: p.name.clone(), spec });
    }
    scenario.report_buffers = dumped.clone();
    Ok((scenario, dumped))
}

fn buffer_spec(a: &SimArg, elem: ElemType) -> Result<ArgSpec, Diagnostic> {
    let len = a.size / elem.size();
    let init = if a.noinit {
        BufferInit::Uninit
    } else if !a.values.is_empty() {
        let values = a.values.iter().map(|v| number(v, a.hex, a.span)).collect::<Result<Vec<_>, _>>()?;
        if values.len() as u64 > len {
            return Err(sim_error(a.span, format!("{} values for a buffer of {len} elements", values.len())));
        }
        BufferInit::Values { values }
    } else if let Some((start, step, end)) = &a.range {
        // Oclgrind's range counts from START by STEP and stops after END; the rest is zero.
        let (s, st, e) = (number(start, false, a.span)?, number(step, false, a.span)?, number(end, false, a.span)?);
        let mut values = Vec::new();
        let mut x = s.as_f64();
        while values.len() < len as usize && ((st.as_f64() >= 0.0 && x <= e.as_f64()) || (st.as_f64() < 0.0 && x >= e.as_f64())) {
            values.push(if elem.is_float() { Number::Float(x) } else { Number::Int(x as i64) });
            x += st.as_f64();
            if st.as_f64() == 0.0 {
                break;
            }
        }
        BufferInit::Values { values }
    } else if let Some(f) = &a.fill {
        BufferInit::Fill { value: number(f, a.hex, a.span)? }
    } else {
        BufferInit::Zeros
    };
    Ok(ArgSpec::Buffer { elem, len, init, access: a.access })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulation_file_becomes_a_launch() {
        let text =
            "# ARGS: -D N=4\n# a comment\nk.cl\nk\n8 1 1\n4 1 1\n\n<size=16 int range=0:1:3 dump>\n<size=16>\n<size=4 int>\n7\n<size=5 char hex>\n0x01 0x02\n";
        let sim = parse(text).unwrap();
        assert_eq!(sim.defines, vec!["N=4".to_string()]);
        assert_eq!((sim.source_file.as_str(), sim.kernel.as_str()), ("k.cl", "k"));
        assert_eq!(sim.global, [8, 1, 1]);
        assert_eq!(sim.args.len(), 4);
        assert!(sim.args[0].dump && sim.args[0].range.is_some());
        assert_eq!(sim.args[2].values, vec!["7".to_string()]);
        assert_eq!(sim.args[3].values, vec!["0x01".to_string(), "0x02".to_string()]);
        let source = "__kernel void k(__global int *a, __local int *l, int n, __global char *c) { a[0] = n + N; }".to_string();
        let (scenario, dumped) = scenario(&sim, source, "k.cl".into()).unwrap();
        assert_eq!(dumped, vec!["a".to_string()]);
        assert_eq!(scenario.args[1].spec, ArgSpec::Local { bytes: 16 });
        assert_eq!(scenario.args[2].spec, ArgSpec::Scalar { ty: ElemType::Int, value: Number::Int(7) });
    }

    #[test]
    fn quoted_and_joined_build_options_define_macros() {
        let defines = |first: &str| parse(&format!("{first}\nk.cl\nk\n1 1 1\n1 1 1\n")).unwrap().defines;
        assert_eq!(defines("# ARGS: --build-options \"-DN=4 -cl-std=CL2.0 -D M\""), vec!["N=4", "M"]);
        assert_eq!(defines("# ARGS: --build-options=-DN=4"), vec!["N=4"]);
        assert!(defines("# ARGS: -i").is_empty());
    }

    #[test]
    fn broken_files_are_diagnostics() {
        assert!(parse("k.cl\nk\n").is_err());
        assert!(parse("k.cl\nk\n1 1 1\n1 1 1\n<fill=3>\n").is_err());
        assert!(parse("k.cl\nk\nx 1 1\n1 1 1\n").is_err());
        assert!(parse("k.cl\nk\n1 1 1\n1 1 1\n<size=4 bogus>\n").is_err());
    }
}
