//! The front end as one call: source text to the IR, and the kernel signatures it declares.

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::ir::{ParamKind, Program};
use crate::scenario::Dialect;
use crate::trace::Space;
use crate::{lower, syntax};

/// One kernel parameter, as `interleave parse` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamSignature {
    pub name: String,
    /// `global`, `constant`, `local`, or `private` for scalars.
    pub address_space: String,
    /// The C type, e.g. `int*` or `uint`.
    #[serde(rename = "type")]
    pub ty: String,
}

/// A kernel entry point and its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelSignature {
    pub name: String,
    pub params: Vec<ParamSignature>,
}

/// Lexes, preprocesses, parses and lowers `source`. `defines` are `NAME` or `NAME=VALUE`.
pub(crate) fn compile(source: &str, dialect: Dialect, defines: &[String]) -> Result<Program, Diagnostic> {
    compile_with(source, dialect, defines, lower::Options::default())
}

/// [`compile`] with lowering options (the statement granularity).
pub(crate) fn compile_with(source: &str, dialect: Dialect, defines: &[String], options: lower::Options) -> Result<Program, Diagnostic> {
    if dialect == Dialect::Litmus {
        // A litmus test runs as the OpenCL C kernel it translates to, whose offsets are the
        // test's own.
        let test = crate::litmus::parse(source)?;
        return compile_litmus(&test, defines, options);
    }
    let tokens = syntax::lexer::lex(source)?;
    let config = syntax::preprocess::Config {
        dialect: Some(dialect),
        defines: defines
            .iter()
            .map(|d| match d.split_once('=') {
                Some((name, value)) => (name.trim().to_string(), value.to_string()),
                None => (d.trim().to_string(), String::new()),
            })
            .collect(),
    };
    let tokens = syntax::preprocess::preprocess(tokens, source, &config)?;
    let unit = syntax::parser::parse(&tokens, dialect)?;
    lower::lower(&unit, dialect, source, options)
}

/// Compiles a litmus test's translation, with every span in the test's own text.
pub(crate) fn compile_litmus(test: &crate::litmus::LitmusTest, defines: &[String], options: lower::Options) -> Result<Program, Diagnostic> {
    // A PTX test lowers straight to the IR, each instruction with its own span.
    if let Some(code) = &test.ptx {
        return Ok(crate::litmus::ptx::lower(test, code, options));
    }
    let result = compile_with(&test.kernel_source, Dialect::OpenCl, defines, options);
    if test.offsets_kept() {
        return result;
    }
    match result {
        Ok(mut program) => {
            for f in &mut program.functions {
                for span in &mut f.spans {
                    *span = test.source_span(*span);
                }
            }
            Ok(program)
        }
        Err(mut d) => {
            d.span = d.span.map(|s| test.source_span(s));
            for label in &mut d.labels {
                label.span = test.source_span(label.span);
            }
            Err(d)
        }
    }
}

/// The kernels `source` defines, or why it does not compile.
pub fn kernels(source: &str, dialect: Dialect, defines: &[String]) -> Result<Vec<KernelSignature>, Vec<Diagnostic>> {
    check(source, dialect, defines).map(|(kernels, _)| kernels)
}

/// The kernels `source` defines with the compiler's warnings about it, or why it does not
/// compile.
pub fn check(source: &str, dialect: Dialect, defines: &[String]) -> Result<(Vec<KernelSignature>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let program = compile(source, dialect, defines).map_err(|d| vec![d])?;
    let kernels = program
        .kernels
        .iter()
        .map(|k| KernelSignature {
            name: k.name.clone(),
            params: k
                .params
                .iter()
                .map(|p| {
                    let space = match &p.kind {
                        ParamKind::Pointer { space, .. } => *space,
                        ParamKind::Scalar(_) | ParamKind::Aggregate { .. } => Space::Private,
                    };
                    let ty = p.type_name.clone();
                    let address_space = match space {
                        Space::Global => "global",
                        Space::Local => "local",
                        Space::Constant => "constant",
                        Space::Private => "private",
                    };
                    ParamSignature { name: p.name.clone(), address_space: address_space.into(), ty }
                })
                .collect(),
        })
        .collect();
    Ok((kernels, program.warnings))
}

/// The lowered program of `source` as text (`interleave parse --ir`; the format is
/// `ir::print`'s) with the compiler's warnings, or why it does not compile.
pub fn ir_text(source: &str, dialect: Dialect, defines: &[String]) -> Result<(String, Vec<Diagnostic>), Vec<Diagnostic>> {
    let program = compile(source, dialect, defines).map_err(|d| vec![d])?;
    Ok((crate::ir::print::print(&program, source), program.warnings))
}
