//! CUDA's block and warp collectives: `__syncthreads_count`/`_and`/`_or`, `__syncwarp`, the
//! votes `__all_sync`/`__any_sync`/`__ballot_sync` and the shuffles `__shfl*_sync`.
//!
//! A `_sync` form takes a member mask first: only the lanes it names take part, and each of
//! them must call the same function with the same mask (CUDA C++ Programming Guide, "Warp Vote
//! Functions", "Warp Shuffle Functions", "Synchronization Functions"). The mask and a
//! shuffle's `width` are registers of the instruction; the rendezvous
//! (`crate::exec::warp`) holds the named lanes to it. The legacy votes `__all`, `__any` and
//! `__ballot` have no mask: every lane of the warp that has not finished takes part. nvcc 13
//! no longer compiles them for sm_70 and later, so they are accepted with a warning that names
//! the `_sync` form to write instead.

use super::*;

/// The code of the warning on a legacy vote.
pub const LEGACY_VOTE: &str = "deprecated-warp-vote";

impl FnLowerer<'_, '_> {
    /// A CUDA collective of the block (`warp` false) or of the warp; `name` is as written.
    pub(super) fn collective(&mut self, name: &str, op: CollectiveOp, warp: bool, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let masked = warp && (name.ends_with("_sync") || name == "__syncwarp");
        let (value_args, usage) = match op {
            CollectiveOp::Sync if masked => ((0, 0), format!("{name}() or {name}(mask)")),
            CollectiveOp::Sync => ((0, 0), format!("{name}()")),
            CollectiveOp::Count | CollectiveOp::All | CollectiveOp::Any | CollectiveOp::Ballot if masked => ((1, 1), format!("{name}(mask, predicate)")),
            CollectiveOp::Count | CollectiveOp::All | CollectiveOp::Any | CollectiveOp::Ballot => ((1, 1), format!("{name}(predicate)")),
            CollectiveOp::Shfl => ((2, 3), format!("{name}(mask, value, source_lane) or {name}(mask, value, source_lane, width)")),
            CollectiveOp::ShflXor => ((2, 3), format!("{name}(mask, value, lane_mask) or {name}(mask, value, lane_mask, width)")),
            _ => ((2, 3), format!("{name}(mask, value, delta) or {name}(mask, value, delta, width)")),
        };
        // `__syncwarp`'s mask may be left out (every lane); the others' may not.
        let (min, max) = match (masked, op) {
            (true, CollectiveOp::Sync) => (0, 1),
            (true, _) => (value_args.0 + 1, value_args.1 + 1),
            (false, _) => value_args,
        };
        if args.len() < min || args.len() > max {
            let takes = if min == max { format!("{min}") } else { format!("{min} to {max}") };
            let given = if args.len() == 1 { "1 was".to_string() } else { format!("{} were", args.len()) };
            return Err(type_error(
                span,
                format!("`{name}` takes {takes} argument{}, but {given} given", if max == 1 { "" } else { "s" }),
                "wrong number of arguments",
            )
            .with_help(format!("call it as {usage}")));
        }
        if warp && !masked {
            let predicate = args.first().and_then(|e| self.source.get(e.span.start as usize..e.span.end as usize)).unwrap_or("predicate");
            self.legacy_vote_warning(name, predicate, span);
        }
        let mask = match (masked, args.first()) {
            (false, _) => None,
            (true, Some(m)) if op != CollectiveOp::Sync || args.len() == 1 => {
                let v = self.rvalue(m)?;
                if !matches!(v.ty, Ty::Scalar(t) if !t.is_float()) {
                    return Err(type_error(m.span, format!("the mask of `{name}` is an unsigned int, not `{}`", v.ty.describe()), "not an integer"));
                }
                Some(self.convert(v, &Ty::Scalar(ElemType::UInt), m.span)?.reg)
            }
            (true, _) => Some(self.constant(0xffff_ffff, ElemType::UInt, span)?.reg),
        };
        let args = if masked { args.get(1..).unwrap_or_default() } else { args };
        let (a, ty) = match args.first() {
            Some(e) => {
                let v = self.rvalue(e)?;
                match op {
                    CollectiveOp::Shfl | CollectiveOp::ShflUp | CollectiveOp::ShflDown | CollectiveOp::ShflXor => {
                        if !matches!(v.ty, Ty::Scalar(_)) {
                            return Err(type_error(e.span, format!("`{name}` exchanges scalars, not `{}`", v.ty.describe()), "here"));
                        }
                        let ty = v.ty.clone();
                        (v.reg, ty)
                    }
                    _ => (self.truth(v, e.span)?, Ty::Scalar(ElemType::Int)),
                }
            }
            None => (self.constant(0, ElemType::Int, span)?.reg, Ty::Void),
        };
        let b = match args.get(1) {
            Some(e) => {
                let v = self.rvalue(e)?;
                self.convert(v, &Ty::Scalar(ElemType::Int), e.span)?.reg
            }
            None => a,
        };
        let width = match args.get(2) {
            Some(e) => {
                let v = self.rvalue(e)?;
                Some(self.convert(v, &Ty::Scalar(ElemType::Int), e.span)?.reg)
            }
            None => None,
        };
        let dst = self.reg()?;
        self.emit(Instr::Collective { op, warp, dst, a, b, mask, width }, span);
        let ty = match op {
            CollectiveOp::Sync => Ty::Void,
            CollectiveOp::Ballot => Ty::Scalar(ElemType::UInt),
            CollectiveOp::Count | CollectiveOp::All | CollectiveOp::Any => Ty::Scalar(ElemType::Int),
            _ => ty,
        };
        Ok(Val { reg: dst, ty })
    }

    /// The warning on `__all`, `__any` or `__ballot`, once per call site (a template's
    /// instances and an expression typed for `sizeof` share theirs).
    fn legacy_vote_warning(&mut self, name: &str, predicate: &str, span: Span) {
        if self.program.warnings.iter().any(|w| w.span == Some(span) && w.code == LEGACY_VOTE) {
            return;
        }
        let call = format!("{name}_sync(__activemask(), {predicate})");
        let full = format!("{name}_sync(0xffffffff, {predicate})");
        let warning = Diagnostic::warning(LEGACY_VOTE, format!("`{name}` without a mask does not compile for sm_70 and later (nvcc 13 removed it)"))
            .with_span(span, "legacy warp vote")
            .with_note("it is run here as a vote of every lane of the warp that has not finished")
            .with_help(format!("name the lanes that take part: {call}, or {full} when the whole warp gets here"));
        self.program.warnings.push(warning);
    }
}
