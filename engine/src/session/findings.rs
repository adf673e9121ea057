//! The findings a run makes as it goes, from what the machine recorded: faults, races, scope
//! mismatches, the race detector's forgetting, limits, and hangs with who waits or spins
//! where. `Session::check_step` calls these after every step.

use super::Session;
use crate::diag::{Severity, Span};
use crate::exec::{Fault, Status};
use crate::report::{Finding, FindingKind, Related, RunStatus};
use crate::trace::Space;

impl Session {
    /// Ends the run at a limit with a `step-limit` finding at a work-item that could still run.
    pub(super) fn stop_at_limit(&mut self, message: String) {
        self.status = RunStatus::StepLimit;
        let n = self.machine.items.len() as u32;
        let wi = self.machine.ready.iter().copied().find(|&a| a < n).unwrap_or(0);
        let span = self.current_span(wi).unwrap_or_default();
        let (line, column) = self.line_col(span);
        self.findings.push(Finding {
            kind: FindingKind::StepLimit,
            severity: Severity::Error,
            message,
            line,
            column,
            work_item: Some(self.global_id(wi)),
            step: Some(self.steps),
            related: Vec::new(),
            race: None,
            memory: None,
            benign: false,
            addresses: None,
            explanation: None,
            span: Some(span),
        });
    }

    /// Turns new race records into findings and brings changed ones up to date (a pair of
    /// source locations is one finding; its count of words grows).
    pub(super) fn collect_races(&mut self) {
        // Called after every step: what is rarely there is looked for without taking it.
        if !self.machine.races.scope_mismatches.is_empty() {
            self.collect_scope_mismatches();
        }
        if !self.machine.races.forgotten.is_empty() {
            self.collect_forgotten();
        }
        for k in 0..self.machine.races.records.len() {
            if !self.machine.races.records[k].dirty {
                continue;
            }
            // A record names events of the log; if one ever did not, it waits rather than panic.
            let Some(finding) = self.race_finding(k) else { continue };
            let r = &mut self.machine.races.records[k];
            r.dirty = false;
            match r.finding {
                Some(index) if index < self.findings.len() => self.findings[index] = finding,
                _ => {
                    r.finding = Some(self.findings.len());
                    self.findings.push(finding);
                }
            }
        }
    }

    /// Reports the scope mismatches found since the last step.
    fn collect_scope_mismatches(&mut self) {
        for (releasing, acquiring) in std::mem::take(&mut self.machine.races.scope_mismatches) {
            let (Some(rel), Some(acq)) = (self.machine.log.get(releasing as usize), self.machine.log.get(acquiring as usize)) else { continue };
            let key = (FindingKind::ScopeMismatch, acq.span.start, acq.span.end);
            if self.findings.iter().any(|f| (f.kind, f.span.map_or(0, |s| s.start), f.span.map_or(0, |s| s.end)) == key) {
                continue;
            }
            let (line, column) = self.line_col(acq.span);
            let (rl, rc) = self.line_col(rel.span);
            let scope_name = |s: Option<crate::ir::Scope>| match s.map(crate::ir::Scope::level) {
                Some(crate::ir::Level::Group) => "memory_scope_work_group",
                Some(crate::ir::Level::Device) => "memory_scope_device",
                _ => "memory_scope_all_svm_devices",
            };
            let (rel_scope, acq_scope) = (scope_name(rel.scope), scope_name(acq.scope));
            let group_of = |wi: u32| self.machine.items.get(wi as usize).map(|i| i.group);
            let same_group = group_of(rel.work_item).is_some() && group_of(rel.work_item) == group_of(acq.work_item);
            let message = if same_group && acq_scope != rel_scope {
                // Only OpenCL's inclusive scopes refuse this pair (PTX's morally strong pairs
                // need each scope to include the other's thread, which one group satisfies).
                format!(
                    "scope mismatch: this acquire ({acq_scope}) reads a value released ({rel_scope}) in its own work-group, but OpenCL 2.0 synchronises a release and an acquire only when both name the same scope, so it does not synchronise with that release"
                )
            } else if rel_scope == "memory_scope_work_group" && acq_scope != rel_scope {
                "scope mismatch: this acquire reads a value released at work-group scope by another work-group, so it does not synchronise with that release"
                    .to_string()
            } else {
                format!(
                    "scope mismatch: this acquire ({acq_scope}) reads a value released ({rel_scope}) by a work-item outside the other's scope, so it does not synchronise with that release"
                )
            };
            let rel_label = format!("released here with {rel_scope}");
            self.findings.push(Finding {
                kind: FindingKind::ScopeMismatch,
                severity: Severity::Error,
                message,
                line,
                column,
                work_item: Some(self.global_id(acq.work_item)),
                step: Some(acq.step),
                related: vec![Related {
                    line: rl,
                    column: rc,
                    work_item: Some(self.global_id(rel.work_item)),
                    step: Some(rel.step),
                    message: rel_label,
                    span: Some(rel.span),
                }],
                race: None,
                memory: None,
                benign: false,
                addresses: None,
                explanation: None,
                span: Some(acq.span),
            });
        }
    }

    /// Warns of the memories whose words forgot accesses since the last step.
    fn collect_forgotten(&mut self) {
        for event in std::mem::take(&mut self.machine.races.forgotten) {
            let Some(e) = self.machine.log.get(event as usize) else { continue };
            let (line, column) = self.line_col(e.span);
            let name = e.location.and_then(|loc| self.alloc_name(loc, e.work_item)).map(|n| format!(" `{n}`")).unwrap_or_default();
            let memory = if e.location.is_some_and(|loc| loc.space == Space::Local) { "local" } else { "global" };
            let kept = crate::concurrency::race::shadow::MAX_ACCESSES;
            self.findings.push(Finding {
                kind: FindingKind::RaceDetectionLimit,
                severity: Severity::Warning,
                message: format!(
                    "race detection forgot accesses to {memory} memory{name}: the detector keeps at most {kept} accesses a word, a word here had more that nothing ordered (many work-items touched it at once), so it forgot the oldest, and this access found no race with their source location; a race with a forgotten access may have gone unreported"
                ),
                line,
                column,
                work_item: Some(self.global_id(e.work_item)),
                step: Some(e.step),
                related: Vec::new(),
                race: None,
                memory: None,
                benign: false,
                addresses: None,
                explanation: None,
                span: Some(e.span),
            });
        }
    }

    /// The finding of race record `k`, as it stands.
    pub(super) fn race_finding(&self, k: usize) -> Option<Finding> {
        let r = &self.machine.races.records[k];
        let log = &self.machine.log;
        let (first, second) = (log.get(r.first as usize)?, log.get(r.second as usize)?);
        let kind = match r.kind {
            crate::report::RaceKind::WriteWrite => "write-write",
            crate::report::RaceKind::ReadWrite => "read-write",
        };
        let memory = match r.memory {
            crate::report::RaceMemory::Global => "global",
            crate::report::RaceMemory::Local => "local",
        };
        let words = r.words.len() as u64;
        let name = first.location.and_then(|loc| self.alloc_name(loc, first.work_item)).map(|n| format!(" `{n}`")).unwrap_or_default();
        let benign = if r.benign { " (benign: whichever access comes first, the same values are read and stored)" } else { "" };
        let places = if words == 1 { "1 address".to_string() } else { format!("{words} addresses") };
        let message = format!("data race ({kind}) on {memory} memory{name}, {places}: {}{benign}", r.why);
        let verb = |e: &crate::trace::Event| match e.kind {
            crate::trace::EventKind::Load => "read",
            crate::trace::EventKind::Atomic => "accessed atomically",
            crate::trace::EventKind::AsyncCopy => "copied",
            _ => "wrote",
        };
        let (line, column) = self.line_col(second.span);
        let (fl, fc) = self.line_col(first.span);
        Some(Finding {
            kind: FindingKind::DataRace,
            severity: if r.benign { Severity::Warning } else { Severity::Error },
            message,
            line,
            column,
            work_item: Some(self.global_id(second.work_item)),
            step: Some(second.step),
            related: vec![Related {
                line: fl,
                column: fc,
                work_item: Some(self.global_id(first.work_item)),
                step: Some(first.step),
                message: format!("work-item {} {} here at step {}, unordered with this access", self.global_id(first.work_item)[0], verb(&first), first.step),
                span: Some(first.span),
            }],
            race: Some(r.kind),
            memory: Some(r.memory),
            benign: r.benign,
            addresses: Some(words),
            explanation: None,
            span: Some(second.span),
        })
    }

    /// The location work-item `wi` read last (a load or an atomic), looking back a bounded
    /// number of events.
    pub(super) fn last_read(&self, wi: u32) -> Option<crate::trace::Location> {
        let log = &self.machine.log;
        let from = log.len().saturating_sub(100_000);
        (from..log.len()).rev().filter_map(|i| log.get(i)).find_map(|e| {
            let reads = matches!(e.kind, crate::trace::EventKind::Load | crate::trace::EventKind::Atomic);
            (e.work_item == wi && reads).then_some(e.location).flatten()
        })
    }

    /// A location as the kernel names it (`locks[3]`), as `wi` sees it.
    pub(super) fn describe_location(&self, loc: crate::trace::Location, wi: u32) -> String {
        let group = (loc.space == Space::Local).then(|| self.machine.items.get(wi as usize).map(|i| i.group)).flatten();
        crate::locks::name_location(&self.machine, loc, group)
    }

    /// The name of the allocation a location is in (local memory as seen by `wi`'s group).
    pub(super) fn alloc_name(&self, loc: crate::trace::Location, wi: u32) -> Option<String> {
        let m = &self.machine;
        let alloc = match loc.space {
            Space::Global => m.global.get(loc.alloc as usize)?,
            Space::Constant => m.constant.get(loc.alloc as usize)?,
            Space::Local => m.groups.get(m.items.get(wi as usize)?.group as usize)?.local.get(loc.alloc as usize)?,
            Space::Private => return None,
        };
        Some(alloc.name.clone())
    }

    /// Explains a deadlock or livelock: who waits where, and which groups never started.
    pub(super) fn push_hang_finding(&mut self, kind: FindingKind, stuck: &[u32]) {
        // Which of the locations spun on are locks, and who holds them.
        let locks = self.lock_analysis();
        let machine = &self.machine;
        let resident: Vec<u32> = stuck.iter().copied().filter(|&wi| machine.items[wi as usize].status != Status::NotStarted).collect();
        let not_started = stuck.len() - resident.len();
        // Work-items waiting at the same place are told together.
        let mut places: Vec<(Span, (String, String), Vec<u32>)> = Vec::new();
        for &wi in &resident {
            let span = self.current_span(wi).unwrap_or_default();
            // The verb for one work-item and for several.
            let item = &machine.items[wi as usize];
            let what = match item.status {
                Status::AtBarrier => match machine.warp_meeting_of(wi) {
                    Some((arrived, named, missing)) => {
                        let verb = if missing.len() == 1 { "has" } else { "have" };
                        let who = describe_items(missing.iter().map(|&m| self.global_id(m)[0]).collect());
                        let counts = format!("({arrived} of the {named} lanes it names have arrived; {who} {verb} not)");
                        (format!("waits at this warp collective {counts}"), format!("wait at this warp collective {counts}"))
                    }
                    None => {
                        let r = &machine.groups[item.group as usize].rendezvous;
                        let counts = match crate::exec::named_barrier::waiting(machine, wi) {
                            Some((arrived, expected)) => format!("({arrived} of {expected} arrived)"),
                            None => format!("({} of {} arrived)", r.waiting.len(), r.unfinished),
                        };
                        (format!("waits at this barrier {counts}"), format!("wait at this barrier {counts}"))
                    }
                },
                Status::Waiting => ("waits for async copies here".to_string(), "wait for async copies here".to_string()),
                _ if machine.is_spinning(wi) => {
                    let context = crate::locks::HangContext { line_of: &|span| self.line_col(span).0, held_back: &|h| !self.scheduler.could_pick(machine, h) };
                    let on = self
                        .last_read(wi)
                        .map(|loc| {
                            let lock = crate::locks::lock_at(machine, &locks, loc, wi);
                            match lock.and_then(|l| crate::locks::spinning_for(machine, &locks, l, wi, &context)) {
                                Some(waiting) => waiting,
                                None => format!(", re-reading `{}`, which nobody changes", self.describe_location(loc, wi)),
                            }
                        })
                        .unwrap_or_else(|| ", re-reading values nobody changes".to_string());
                    (format!("spins here{on}"), format!("spin here{on}"))
                }
                Status::Ready if !self.scheduler.could_pick(machine, wi) => (
                    "is held here until the lanes of its warp behind it catch up (lockstep)".to_string(),
                    "are held here until the lanes of their warp behind them catch up (lockstep)".to_string(),
                ),
                _ => ("cannot go on from here".to_string(), "cannot go on from here".to_string()),
            };
            match places.iter_mut().find(|(s, w, _)| *s == span && *w == what) {
                Some((_, _, items)) => items.push(wi),
                None => places.push((span, what, vec![wi])),
            }
        }
        // The finding points at a spinner for a livelock, at the first waiter otherwise.
        let spinner = resident.iter().copied().find(|&wi| machine.is_spinning(wi));
        let first = spinner.or(resident.first().copied()).or(stuck.first().copied()).unwrap_or(0);
        let span = self.current_span(first).unwrap_or_default();
        let (line, column) = self.line_col(span);
        let mut message = match kind {
            FindingKind::Livelock => {
                let spinning = resident.iter().filter(|&&wi| machine.is_spinning(wi)).count();
                if spinning == 1 {
                    "livelock: a work-item spins and no work-item that could change what it reads can run".to_string()
                } else {
                    format!("livelock: {spinning} work-items spin and no work-item that could change what they read can run")
                }
            }
            _ => format!("deadlock: {} work-item(s) wait and none can move", stuck.len()),
        };
        if not_started > 0 {
            let groups = machine.pending_groups();
            message.push_str(&format!(
                "; {groups} work-group{} never started: at most {} may be resident at once and a group starts only when a resident one finishes",
                if groups == 1 { "" } else { "s" },
                machine.resident_limit
            ));
        }
        let related = places
            .iter()
            .take(8)
            .map(|(span, what, items)| {
                let (line, column) = self.line_col(*span);
                let who = describe_items(items.iter().map(|&wi| self.global_id(wi)[0]).collect());
                let verb = if items.len() == 1 { &what.0 } else { &what.1 };
                Related { line, column, work_item: Some(self.global_id(items[0])), step: Some(self.steps), message: format!("{who} {verb}"), span: Some(*span) }
            })
            .collect();
        self.findings.push(Finding {
            kind,
            severity: Severity::Error,
            message,
            line,
            column,
            work_item: Some(self.global_id(first)),
            step: Some(self.steps),
            related,
            race: None,
            memory: None,
            benign: false,
            addresses: None,
            explanation: None,
            span: Some(span),
        });
    }

    pub(super) fn finding_from_fault(&self, mut f: Fault) -> Finding {
        let (line, column) = self.line_col(f.span);
        if f.kind == FindingKind::AssertionFailed {
            // CUDA reports failed assertions as `file:line: function: block: ... failed.`
            f.message = format!("{}:{line}: {}", self.scenario.file_name, f.message);
        }
        let related = f
            .related
            .into_iter()
            .map(|(span, wi, message)| {
                let (line, column) = self.line_col(span);
                Related { line, column, work_item: wi.map(|w| self.global_id(w)), step: Some(f.step), message, span: Some(span) }
            })
            .collect();
        Finding {
            kind: f.kind,
            severity: if matches!(f.kind, FindingKind::SignedOverflow | FindingKind::UndefinedFunction | FindingKind::UndefinedValue) {
                Severity::Warning
            } else {
                Severity::Error
            },
            message: f.message,
            line,
            column,
            work_item: Some(self.global_id(f.work_item)),
            step: Some(f.step),
            related,
            race: None,
            memory: None,
            benign: false,
            addresses: None,
            explanation: None,
            span: Some(f.span),
        }
    }
}

/// "work-item 3" or "work-items 0-3, 8" (by the first global id).
fn describe_items(mut ids: Vec<u64>) -> String {
    ids.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < ids.len() {
        let start = ids[k];
        let mut end = start;
        while k + 1 < ids.len() && ids[k + 1] == end + 1 {
            k += 1;
            end = ids[k];
        }
        parts.push(if end > start { format!("{start}-{end}") } else { start.to_string() });
        k += 1;
    }
    let shown = if parts.len() > 6 { format!("{}, ...", parts[..6].join(", ")) } else { parts.join(", ") };
    if ids.len() == 1 {
        format!("work-item {shown}")
    } else {
        format!("work-items {shown}")
    }
}
