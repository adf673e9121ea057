//! A warp's rendezvous: which lanes meet at a warp collective, when they go on, and what each
//! gets back.
//!
//! CUDA's `_sync` functions name the lanes that take part with a member mask (CUDA C++
//! Programming Guide, "Warp Vote Functions", "Warp Shuffle Functions", `__syncwarp`): each
//! named lane must call the same function with the same mask, and lanes outside the mask are
//! neither waited for nor heard from. So a warp may hold several *meetings* at once (the two
//! halves of a warp shuffling among themselves), each released when the lanes its mask names
//! have all arrived. With independent thread scheduling (sm_70 and later, PTX's
//! `shfl.sync`, `vote.sync`, `bar.warp.sync`) the lanes of a meeting may call it from
//! different places in the program; without it (the lockstep scheduler, GPUs before Volta)
//! they must execute the same instruction together, so there a meeting is also one
//! instruction. A collective without a mask (OpenCL's sub-group functions, CUDA's legacy
//! votes) is one of every lane of the warp, at one instruction.
//!
//! A named lane that finishes instead of arriving leaves the others' result undefined (CUDA
//! asks every named lane to execute the call; a lane that returned early is a mask that names
//! too many lanes), and lanes waiting at different meetings that each need the other's lanes
//! can never go on: both are `barrier-divergence`, after which the lanes that did arrive go on
//! with what the arrivals gave. A shuffle from a lane outside its meeting reads a value CUDA
//! leaves undefined: an `undefined-value` warning (a reduction over half a warp computes such
//! values on its upper lanes and never uses them), and the lane gets its own value, as it does
//! for a source outside its segment.

use super::*;

impl Machine {
    /// Lane `arrival.wi` of warp `w` arrives at a warp collective.
    pub(super) fn warp_arrive(&mut self, w: usize, mut arrival: Arrival) {
        let first = self.warps[w].first;
        let lane = arrival.wi - first;
        if let Some(mask) = arrival.mask {
            if mask & lane_bit(lane) == 0 {
                let span = self.span_of(&arrival);
                self.fault(Fault {
                    kind: FindingKind::BarrierDivergence,
                    message: format!(
                        "lane {lane} (work-item {}) called this collective with the mask {mask:#010x}, which does not name it: each calling lane must set its own bit (the run counts it in)",
                        arrival.wi
                    ),
                    span,
                    work_item: arrival.wi,
                    step: self.step,
                    related: Vec::new(),
                });
                arrival.mask = Some(mask | lane_bit(lane));
            }
        }
        self.warps[w].rendezvous.waiting.push(arrival);
        self.settle_warp(w, arrival.wi, Some(arrival));
    }

    /// Releases the meetings of warp `w` that can go on: one whose lanes have all arrived, one
    /// whose missing lanes have all finished (divergence), and, when every unfinished lane
    /// waits and no meeting is complete, all of them (divergence: they wait for each other).
    /// `by` is the work-item whose step settles it. After an arrival (`arrived`) only its own
    /// meeting can have become complete; after a lane left, any meeting that named it.
    pub(super) fn settle_warp(&mut self, w: usize, by: u32, arrived: Option<Arrival>) {
        loop {
            let waiting = &self.warps[w].rendezvous.waiting;
            if waiting.is_empty() {
                return;
            }
            let first = self.warps[w].first;
            let exists = self.lanes_of(w);
            let active = self.warps[w].active & exists;
            let complete = |rep: &Arrival| {
                let there = waiting.iter().filter(|x| self.same_meeting(x, rep)).fold(0u64, |m, a| m | lane_bit(a.wi - first));
                let missing = self.named(rep, exists) & !there;
                (missing & active == 0).then_some(missing)
            };
            let ready = match arrived {
                Some(a) => complete(&a).map(|missing| (a, missing)),
                None => waiting
                    .iter()
                    .enumerate()
                    .filter(|&(k, rep)| !waiting[..k].iter().any(|x| self.same_meeting(x, rep)))
                    .find_map(|(_, rep)| complete(rep).map(|missing| (*rep, missing))),
            };
            if let Some((rep, missing)) = ready {
                let (members, rest): (Vec<Arrival>, Vec<Arrival>) =
                    std::mem::take(&mut self.warps[w].rendezvous.waiting).into_iter().partition(|x| self.same_meeting(x, &rep));
                self.warps[w].rendezvous.waiting = rest;
                if missing != 0 {
                    self.report_finished_lanes(w, &members, missing);
                }
                self.release_meeting(w, by, members);
                // A lane that left may have been all that several meetings waited for.
                if arrived.is_none() {
                    continue;
                }
                return;
            }
            let waiting_lanes = waiting.iter().fold(0u64, |m, a| m | lane_bit(a.wi - first));
            if active & !waiting_lanes != 0 {
                return;
            }
            // Every unfinished lane waits, and no meeting has all its lanes: they wait for one
            // another and none can go on.
            let all = std::mem::take(&mut self.warps[w].rendezvous.waiting);
            self.report_crossed_meetings(w, &all);
            let mut rest = all;
            while let Some(rep) = rest.first().copied() {
                let (members, others): (Vec<Arrival>, Vec<Arrival>) = rest.into_iter().partition(|x| self.same_meeting(x, &rep));
                rest = others;
                self.release_meeting(w, by, members);
            }
            return;
        }
    }

    /// For work-item `wi` waiting at a warp collective: how many of the lanes its meeting
    /// needs have arrived, how many it needs, and the work-items still missing.
    pub fn warp_meeting_of(&self, wi: u32) -> Option<(u32, u32, Vec<u32>)> {
        let w = self.items.get(wi as usize)?.warp as usize;
        let warp = self.warps.get(w)?;
        let me = warp.rendezvous.waiting.iter().find(|a| a.wi == wi)?;
        let exists = self.lanes_of(w);
        let arrived = warp.rendezvous.waiting.iter().filter(|x| self.same_meeting(x, me)).fold(0u64, |m, a| m | lane_bit(a.wi - warp.first));
        let named = self.named(me, exists);
        let missing = (0..64).filter(|&lane| named & !arrived & (1u64 << lane) != 0).map(|lane| warp.first + lane).collect();
        Some((arrived.count_ones(), named.count_ones(), missing))
    }

    /// The lanes warp `w` has (the last warp of a group may be short), as a mask.
    fn lanes_of(&self, w: usize) -> u64 {
        let (_, size) = self.members(Scope::Warp(w));
        if size >= 64 {
            u64::MAX
        } else {
            (1u64 << size) - 1
        }
    }

    /// The lanes a collective waits for: those its mask names (that the warp has), or all.
    fn named(&self, a: &Arrival, exists: u64) -> u64 {
        a.mask.map_or(exists, |m| m & exists)
    }

    fn collective_of(&self, a: &Arrival) -> Option<CollectiveOp> {
        match self.program.functions[a.func as usize].code[a.pc as usize] {
            Instr::Collective { op, .. } => Some(op),
            _ => None,
        }
    }

    fn span_of(&self, a: &Arrival) -> Span {
        self.program.functions[a.func as usize].spans[a.pc as usize]
    }

    /// Whether two arrivals meet: the same instruction without a mask; with one, the same
    /// function and mask, and under lockstep the same instruction too.
    fn same_meeting(&self, x: &Arrival, y: &Arrival) -> bool {
        let here = (x.func, x.pc) == (y.func, y.pc);
        match (x.mask, y.mask) {
            (None, None) => here,
            (Some(a), Some(b)) => a == b && (here || (!self.converged_warps && self.collective_of(x) == self.collective_of(y))),
            _ => false,
        }
    }

    /// A meeting goes on although lanes `missing`, which its mask names, finished without
    /// arriving.
    fn report_finished_lanes(&mut self, w: usize, members: &[Arrival], missing: u64) {
        let first = self.warps[w].first;
        let finished = first + missing.trailing_zeros();
        let span = self.span_of(&members[0]);
        let count = members.len();
        let s = if count == 1 { "" } else { "s" };
        let message = match members[0].mask {
            None => format!(
                "barrier divergence: {count} work-item{s} of a warp waited at this collective, but work-item {finished} of the same warp finished without reaching it"
            ),
            Some(mask) => {
                let (lanes, items) = (lane_list(missing, 0), lane_list(missing, first));
                let (them, it) = if missing.count_ones() == 1 { (format!("lane {lanes} (work-item {items})"), "it") } else { (format!("lanes {lanes} (work-items {items})"), "them") };
                format!(
                    "barrier divergence: {count} lane{s} of a warp waited at this collective for {them}, which its mask {mask:#010x} names but which finished without reaching {it}; CUDA leaves the result undefined unless every named lane calls it"
                )
            }
        };
        let related = self.finish_span(finished).map(|at| vec![(at, Some(finished), format!("work-item {finished} finished here"))]).unwrap_or_default();
        self.fault(Fault { kind: FindingKind::BarrierDivergence, message, span, work_item: members[0].wi, step: self.step, related });
    }

    /// Where work-item `wi` finished, from the log (only for a finding, so the scan is rare).
    fn finish_span(&self, wi: u32) -> Option<Span> {
        let kinds = self.log.kinds();
        let items = self.log.work_items();
        (0..kinds.len()).rev().find(|&i| kinds[i] == EventKind::Finish && items[i] == wi).and_then(|i| self.log.get(i)).map(|e| e.span)
    }

    /// The lanes of warp `w` wait at meetings that each need lanes waiting at another.
    fn report_crossed_meetings(&mut self, w: usize, all: &[Arrival]) {
        let first = all[0];
        let Some(other) = all.iter().find(|x| !self.same_meeting(x, &first)) else { return };
        let (span, other_span) = (self.span_of(&first), self.span_of(other));
        let message = match (first.mask, other.mask) {
            (None, None) => "barrier divergence: work-items of one warp reached different barriers or collectives".to_string(),
            _ => {
                let lane = other.wi - self.warps[w].first;
                let how = match (first.mask, other.mask) {
                    (Some(a), Some(b)) if a != b => format!("with the mask {b:#010x} instead of {a:#010x}"),
                    _ if self.converged_warps => {
                        "at another instruction (under lockstep the lanes of a collective must execute one instruction together, as on GPUs before Volta)"
                            .to_string()
                    }
                    _ => "at another collective".to_string(),
                };
                format!(
                    "barrier divergence: lanes of one warp wait for each other at different collectives: lane {lane} (work-item {}), which this collective's mask names, waits {how}",
                    other.wi
                )
            }
        };
        self.fault(Fault {
            kind: FindingKind::BarrierDivergence,
            message,
            span,
            work_item: first.wi,
            step: self.step,
            related: vec![(other_span, Some(other.wi), format!("work-item {} waited here instead", other.wi))],
        });
    }

    /// Lets the lanes of one meeting go on with their results.
    fn release_meeting(&mut self, w: usize, by: u32, members: Vec<Arrival>) {
        if members[0].mask.is_some() {
            self.hand_out_masked(w, &members);
        }
        self.release_arrivals(Scope::Warp(w), by, members);
    }

    /// The results of a masked meeting, written to each lane's own destination register (its
    /// lanes may have called from different places).
    fn hand_out_masked(&mut self, w: usize, members: &[Arrival]) {
        let first = self.warps[w].first;
        let warp_size = self.warp_size;
        let mut lanes: Vec<(u32, u64)> = members.iter().map(|a| (a.wi - first, a.a)).collect();
        lanes.sort_unstable_by_key(|&(lane, _)| lane);
        let value_of = |lane: u32| lanes.binary_search_by_key(&lane, |&(l, _)| l).ok().map(|i| lanes[i].1);
        let votes = members.iter().filter(|a| a.a != 0).fold(0u64, |m, a| m | lane_bit(a.wi - first));
        let named = members[0].mask.unwrap_or(u64::MAX);
        let mut undefined: Vec<u32> = Vec::new();
        let mut bad_width = None;
        for a in members {
            let Instr::Collective { op, dst, .. } = self.program.functions[a.func as usize].code[a.pc as usize] else { continue };
            let lane = a.wi - first;
            let result = match op {
                CollectiveOp::All => (votes.count_ones() as usize == members.len()) as u64,
                CollectiveOp::Any => (votes != 0) as u64,
                CollectiveOp::Ballot => votes,
                CollectiveOp::Shfl | CollectiveOp::ShflUp | CollectiveOp::ShflDown | CollectiveOp::ShflXor => {
                    let width = match a.width {
                        0 => warp_size,
                        n if n <= warp_size as u64 && n.is_power_of_two() => n as u32,
                        n => {
                            bad_width.get_or_insert((*a, n));
                            warp_size
                        }
                    };
                    match shuffle_source(op, lane, a.b, width) {
                        None => a.a,
                        Some(source) => match value_of(source) {
                            Some(v) => v,
                            // A named lane that is missing is the divergence already reported;
                            // a lane outside the mask is this lane's own mistake.
                            None => {
                                if named & lane_bit(source) == 0 {
                                    undefined.push(lane);
                                }
                                a.a
                            }
                        },
                    }
                }
                _ => 0,
            };
            let item = &mut self.items[a.wi as usize];
            let base = item.base as usize;
            item.regs[base + dst as usize] = result;
        }
        if let Some((a, width)) = bad_width {
            let span = self.span_of(&a);
            self.fault(Fault {
                kind: FindingKind::UndefinedValue,
                message: format!(
                    "this shuffle's width {} is not a power of 2 from 1 to the warp size {warp_size}: CUDA leaves its result undefined (this run shuffles across the whole warp)",
                    width as i64
                ),
                span,
                work_item: a.wi,
                step: self.step,
                related: Vec::new(),
            });
        }
        if let Some(&lane) = undefined.first() {
            let a = members.iter().find(|a| a.wi - first == lane).copied().unwrap_or(members[0]);
            let span = self.span_of(&a);
            let mask = a.mask.unwrap_or(0);
            let who = match undefined.len() {
                1 => format!("lane {lane} (work-item {}) reads a lane", a.wi),
                n => format!("{n} lanes, lane {lane} (work-item {}) first, read lanes", a.wi),
            };
            self.fault(Fault {
                kind: FindingKind::UndefinedValue,
                message: format!(
                    "{who} that did not take part in this shuffle (its mask is {mask:#010x}): CUDA leaves such a value undefined, so this run gives the reading lane its own value"
                ),
                span,
                work_item: a.wi,
                step: self.step,
                related: Vec::new(),
            });
        }
    }
}

/// The lanes of `mask` as a list of numbers plus `base` (`16-31`, `3, 5`).
fn lane_list(mask: u64, base: u32) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut lane = 0;
    while lane < 64 {
        if mask & (1u64 << lane) == 0 {
            lane += 1;
            continue;
        }
        let start = lane;
        while lane < 64 && mask & (1u64 << lane) != 0 {
            lane += 1;
        }
        let (a, b) = (base + start, base + lane - 1);
        parts.push(if a == b { a.to_string() } else { format!("{a}-{b}") });
    }
    parts.join(", ")
}

/// The bit of `lane` in a lane mask.
fn lane_bit(lane: u32) -> u64 {
    1u64 << (lane % 64)
}

/// The lane a shuffle reads, or `None` when it keeps its own value: CUDA splits the warp into
/// segments of `width` lanes; `__shfl_sync` reads lane `b` of its segment (modulo the width),
/// `__shfl_up_sync` and `__shfl_down_sync` the lane `b` before or after it within the segment,
/// and `__shfl_xor_sync` the lane `lane ^ b` unless that lies in a later segment.
fn shuffle_source(op: CollectiveOp, lane: u32, b: u64, width: u32) -> Option<u32> {
    let start = lane & !(width - 1);
    let within = lane - start;
    match op {
        CollectiveOp::Shfl => Some(start + (b as u32 & (width - 1))),
        CollectiveOp::ShflUp => within.checked_sub(u32::try_from(b).ok()?).map(|k| start + k),
        CollectiveOp::ShflDown => u32::try_from(b).ok().and_then(|d| within.checked_add(d)).filter(|&k| k < width).map(|k| start + k),
        _ => Some(lane ^ b as u32).filter(|&source| source < start + width),
    }
}
