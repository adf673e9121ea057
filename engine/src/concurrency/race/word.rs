//! One access against the accesses a word's shadow keeps (which ones, and why, is `shadow`'s
//! documentation): the races it makes, and the kept accesses it covers.
//!
//! A word keeps its accesses grouped by [`Kind`] (source location, bytes, kind of access and,
//! for an atomic, the work-item's group and device), the groups sorted by kind and each
//! group's accesses in the order they happened. Whether two accesses conflict, and whether
//! one can cover the other, depends on their kinds alone, so a group that can do neither is
//! passed over whole. Within a group that conflicts, the oldest access unordered with the new
//! one is the one its finding names, as it was when the word kept one list; once this access
//! has recorded a race that is not benign with the group's site, the group's other accesses
//! can tell nothing new. So an access to a word that hundreds of work-items touch at once
//! (a counter, a spin's flag) looks at its own work-item's earlier access and at one access
//! per conflicting group, not at every access kept.

use super::shadow::{Access, Accesses, Cell, MAX_ACCESSES};
use super::{AccessInfo, Races};
use crate::report::RaceKind;
use crate::trace::EventLog;

/// The agent of a kept access found covered, until the word's accesses are rewritten.
const GONE: u32 = u32::MAX;

/// What makes accesses of one kind, in the order a word's groups are sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Kind {
    site: (u32, u32),
    mask: u8,
    /// The access's flags but `MIXED` and `FORGOT`, which only say what it stands for.
    flags: u8,
    /// An atomic's group and device (0 for other accesses): atomics cover each other only
    /// within one group and device, where their scopes include the same work-items.
    group: u32,
    device: u32,
}

/// The races one access has recorded so far (the kept access's site, the kind, whether
/// benign): many kept accesses of one site race with it alike, and one record of the pair
/// does for all.
#[derive(Default)]
struct Recorded([Option<Race>; 4]);

/// A race as one access records it: the kept access's site, the kind, whether benign.
type Race = ((u32, u32), RaceKind, bool);

impl Recorded {
    fn contains(&self, race: Race) -> bool {
        self.0.contains(&Some(race))
    }

    /// Whether a race with the kept access's site `site` was recorded, of any kind.
    fn has_site(&self, site: (u32, u32)) -> bool {
        self.0.iter().flatten().any(|race| race.0 == site)
    }

    fn add(&mut self, race: Race) {
        if let Some(slot) = self.0.iter_mut().find(|r| r.is_none()) {
            *slot = Some(race);
        }
    }
}

/// The access being checked, with what every kept access is compared with.
struct Current {
    access: Access,
    kind: Kind,
    info: AccessInfo,
    space: usize,
    word: (u8, u32, u32, u64),
    recorded: Recorded,
}

impl Kind {
    /// What its accesses have in common with other groups' and devices' atomics of the same
    /// source location, bytes and kind of access.
    fn class(self) -> ((u32, u32), u8, u8) {
        (self.site, self.mask, self.flags)
    }
}

impl Races {
    fn kind(&self, p: Access) -> Kind {
        let (group, device) = if p.is_atomic() { (self.agent_group[p.agent as usize], self.device(p.agent as usize)) } else { (0, 0) };
        Kind { site: p.site, mask: p.mask, flags: p.flags & !(Access::MIXED | Access::FORGOT), group, device }
    }

    /// Whether accesses `p` and `cur` conflict: they share a byte and one writes, and they
    /// are not two atomics whose scopes include each other (a heterogeneous race: work-group
    /// scope across groups, device scope across devices). It depends on their kinds only.
    fn conflict(&self, p: Access, cur: Access) -> bool {
        p.mask & cur.mask != 0 && (p.is_write() || cur.is_write()) && !(p.is_atomic() && cur.is_atomic() && self.inclusive(p, cur))
    }

    /// Checks one word of access `info` (whose memory is ordered by the happens-before of
    /// space index `space`) against its shadow `cell`, records what races and updates the
    /// cell.
    pub(super) fn check_word(&mut self, cell: &mut Cell, access: Access, info: AccessInfo, space: usize, word: (u8, u32, u32, u64), log: &EventLog) {
        let mut cur = Current { access, kind: self.kind(access), info, space, word, recorded: Recorded::default() };
        cell.accesses = match std::mem::take(&mut cell.accesses) {
            Accesses::None => Accesses::One(cur.access),
            Accesses::One(p) => {
                let kind = self.kind(p);
                let conflict = self.conflict(p, cur.access);
                let same_kind = kind == cur.kind;
                if self.visit(&mut cur, p, same_kind, conflict, &[p], log) {
                    Accesses::One(cur.access)
                } else if kind <= cur.kind {
                    Accesses::Many(vec![p, cur.access])
                } else {
                    Accesses::Many(vec![cur.access, p])
                }
            }
            Accesses::Many(mut kept) => {
                self.check_kept(&mut cur, &mut kept, log);
                Accesses::Many(kept)
            }
        };
    }

    /// [`Races::check_word`] for a word that keeps several accesses, in `kept`.
    fn check_kept(&mut self, cur: &mut Current, kept: &mut Vec<Access>, log: &EventLog) {
        let me = cur.access.agent;
        let mut covered = false;
        let mut start = 0;
        while start < kept.len() {
            let first = kept[start];
            let kind = self.kind(first);
            // Only accesses of its own kind can be covered by the new one: the other groups
            // are looked through for races alone.
            let same_kind = kind == cur.kind;
            let conflict = self.conflict(first, cur.access);
            if !same_kind && !conflict {
                start = self.end_of_alike(kept, start, kind, cur.access, cur.kind);
                continue;
            }
            let end = start + run_length(&kept[start..], |p| self.kind(p) == kind);
            for k in start..end {
                let p = kept[k];
                // A work-item's own earlier access happens before its later one.
                if p.agent == me {
                    if same_kind {
                        self.cover(cur, p, true);
                        kept[k].agent = GONE;
                        covered = true;
                    }
                    continue;
                }
                // The group's site and kind of race are the same throughout, so once one
                // is recorded as not benign the rest of the group can add nothing.
                if !conflict || self.settled(cur, p) {
                    if same_kind {
                        continue;
                    }
                    break;
                }
                if self.race(cur, p, kept, log) == Some(true) && same_kind {
                    self.cover(cur, p, true);
                    kept[k].agent = GONE;
                    covered = true;
                }
            }
            if conflict {
                self.check_forgotten(cur, &kept[start..end]);
            }
            start = end;
        }
        if covered {
            kept.retain(|p| p.agent != GONE);
        }
        if kept.len() >= MAX_ACCESSES {
            self.make_room(cur, kept);
        }
        let at = kept.partition_point(|p| self.kind(*p) <= cur.kind);
        kept.insert(at, cur.access);
    }

    /// Where the kept accesses from `start` (of kind `kind`, neither of the kind `cur_kind`
    /// of the current access `cur` nor in conflict with it) stop being so, as far as their
    /// kinds tell: the end of `kind`'s run, or further. Whether an atomic conflicts with the
    /// current access depends on its kind's class (site, bytes, flags, which give its scope)
    /// and, through scope inclusion, on its group and device only as far as they equal the
    /// current access's (`Races::within`). So on one device, every kind of an atomic class
    /// whose group is not the current access's conflicts with it as `kind` does, and none is
    /// its kind: the whole span of them is skipped at once. A counter that many groups update
    /// keeps a run for each group, and looking through them one by one cost every access a
    /// pass over the word. Against a plain access no kind of an atomic class conflicts by
    /// group at all.
    fn end_of_alike(&self, kept: &[Access], start: usize, kind: Kind, cur: Access, cur_kind: Kind) -> usize {
        let run = || start + run_length(&kept[start..], |p| self.kind(p) == kind);
        if !kept[start].is_atomic() || !self.agent_device.is_empty() {
            return run();
        }
        let class = kind.class();
        let rest = &kept[start..];
        if !cur.is_atomic() || kind.group > cur_kind.group {
            // The class's later kinds have later groups, none the current access's.
            start + rest.partition_point(|&p| self.kind(p).class() == class)
        } else if kind.group < cur_kind.group {
            start
                + rest.partition_point(|&p| {
                    let k = self.kind(p);
                    k.class() == class && k.group < cur_kind.group
                })
        } else {
            run()
        }
    }

    /// Whether the races `p` could make with the current access are all recorded already:
    /// one that is not benign with `p`'s site and kind of race says all that the pair can.
    fn settled(&self, cur: &Current, p: Access) -> bool {
        cur.recorded.contains((p.site, race_kind(p, cur.access), false))
    }

    /// Looks at kept access `p` (of the current access's kind when `same_kind`; in conflict
    /// with it when `conflict`; `kept` is every access the word keeps) and records a race of
    /// the two if there is one. Returns whether the current access covers `p`.
    fn visit(&mut self, cur: &mut Current, p: Access, same_kind: bool, conflict: bool, kept: &[Access], log: &EventLog) -> bool {
        // A work-item's own earlier access happens before its later one.
        if p.agent == cur.access.agent {
            return self.cover(cur, p, same_kind);
        }
        if conflict && !self.settled(cur, p) && self.race(cur, p, kept, log) == Some(true) {
            return self.cover(cur, p, same_kind);
        }
        false
    }

    /// Records a race of kept access `p` (of another work-item, in conflict with the current
    /// access) if `p` does not happen before the current access, and returns whether it
    /// does; `None` when a race of `p`'s site was recorded already, which needs no second
    /// look. Whether the current access covers another work-item's access is asked only
    /// here, when they conflict anyway, and when the word is full (see `shadow`).
    fn race(&mut self, cur: &mut Current, p: Access, kept: &[Access], log: &EventLog) -> Option<bool> {
        let kind = race_kind(p, cur.access);
        let race = (p.site, kind, benign(p, cur.access, kept));
        if cur.recorded.contains(race) {
            return None;
        }
        if self.ordered(p, cur.access.agent, cur.space) {
            return Some(true);
        }
        self.record(p, cur.access, kind, race.2, cur.info, cur.space, cur.word, log);
        cur.recorded.add(race);
        Some(false)
    }

    /// The current access covers `p`, which happens before it, when they are of the same
    /// kind; a covered access of another value leaves the current one standing for both,
    /// which is then never a benign race, and one that stood for forgotten accesses leaves it
    /// standing for them.
    fn cover(&self, cur: &mut Current, p: Access, same_kind: bool) -> bool {
        if same_kind {
            if p.flags & Access::MIXED != 0 || p.value != cur.access.value {
                cur.access.flags |= Access::MIXED;
            }
            cur.access.flags |= p.flags & Access::FORGOT;
        }
        same_kind
    }

    /// After the current access was checked against `group` (one kind's accesses, which
    /// conflict with it): if the word forgot accesses of that kind and no race of the pair of
    /// sites is known, one with a forgotten access may have gone unreported, and the run says
    /// so (once per memory). Where the pair is known, or the word forgot nothing of the kind,
    /// nothing was missed.
    fn check_forgotten(&mut self, cur: &Current, group: &[Access]) {
        let (x, y) = (group[0].site, cur.access.site);
        if cur.recorded.has_site(x) {
            return;
        }
        let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
        if self.index.contains_key(&(lo.0, lo.1, hi.0, hi.1)) || !group.iter().any(|p| p.flags & Access::FORGOT != 0) {
            return;
        }
        let (space, owner, alloc, _) = cur.word;
        if !self.forgetful.contains(&(space, owner, alloc)) {
            self.forgetful.push((space, owner, alloc));
            self.forgotten.push(cur.access.event);
        }
    }

    /// A full word: the accesses of the current access's kind that happen before it go
    /// first (each races only where the current one does, with the same pair of sites); if
    /// that frees too little, the oldest go until half the room is free, so that a word many
    /// work-items keep touching at once is looked through once per so many accesses, not at
    /// each.
    fn make_room(&self, cur: &mut Current, kept: &mut Vec<Access>) {
        let mut gone = Vec::new();
        kept.retain(|&p| {
            let covered = self.kind(p) == cur.kind && self.ordered(p, cur.access.agent, cur.space);
            if covered {
                gone.push(p);
            }
            !covered
        });
        for p in gone {
            self.cover(cur, p, true);
        }
        if kept.len() > MAX_ACCESSES * 3 / 4 {
            self.forget(kept, MAX_ACCESSES / 2);
        }
    }

    /// Forgets the oldest accesses, keeping about `keep` in all: each class of access (a
    /// source location, bytes and kind of access, [`Kind::class`]) keeps its share of them,
    /// at least its newest, so that no source location's accesses are forgotten altogether
    /// while another's fill the word. Within a class, each kind keeps its share too, except
    /// where only atomics' groups tell the kinds apart ([`Races::forget_groups`]). The
    /// accesses a kind keeps after forgetting some of its class are marked `FORGOT`: they
    /// stand for the forgotten ones.
    fn forget(&self, kept: &mut Vec<Access>, keep: usize) {
        let total = kept.len();
        let mut forgotten = vec![false; total];
        let mut start = 0;
        while start < total {
            let class = self.kind(kept[start]).class();
            let len = kept[start..].partition_point(|p| self.kind(*p).class() == class);
            let (part, gone) = (&mut kept[start..start + len], &mut forgotten[start..start + len]);
            if self.forget_groups(part, (len * keep / total).max(2), gone) {
                // The kept accesses of every group stand for the forgotten ones of all.
                part.iter_mut().zip(gone.iter()).filter(|(_, &g)| !g).for_each(|(p, _)| p.flags |= Access::FORGOT);
            } else {
                let mut at = 0;
                while at < len {
                    let kind = self.kind(part[at]);
                    let n = part[at..].partition_point(|p| self.kind(*p) == kind);
                    let share = (n * keep / total).max(1);
                    gone[at..at + n].iter_mut().enumerate().for_each(|(k, g)| *g = k + share < n);
                    if share < n {
                        part[at + n - share..at + n].iter_mut().for_each(|p| p.flags |= Access::FORGOT);
                    }
                    at += n;
                }
            }
            start += len;
        }
        let mut k = 0;
        kept.retain(|_| {
            k += 1;
            !forgotten[k - 1]
        });
    }

    /// Forgets the oldest accesses of `class` (one class's accesses, sorted by kind) but its
    /// `keep` newest, marking them in `gone`, when its kinds differ only in the group of the
    /// atomics that made them; returns whether it did. An atomic counter that every
    /// work-group updates has a kind per group, and keeping each kind's newest would keep
    /// as many accesses as there are groups, looked through at every access (a launch of
    /// 65,536 work-items adding to one counter made 256 kinds, and each access cost a pass
    /// over them all). Forgetting whole kinds is safe here because the kept ones still
    /// stand for them: accesses of one class conflict with a later access alike, except
    /// that an atomic's scope may include the later access's work-item for one group and not
    /// for another; a work-group-scope access conflicts with the atomics of every group but
    /// its own, so with the newest accesses of two groups kept, one of them conflicts
    /// wherever a forgotten one would have, and being marked `FORGOT` it says a race may
    /// have been missed. That needs one device throughout (a device-scope access conflicts
    /// with the atomics of other devices, which the kept ones may not be); a class that
    /// spans devices, or has one kind, keeps each kind's share.
    fn forget_groups(&self, class: &[Access], keep: usize, gone: &mut [bool]) -> bool {
        let first = self.kind(class[0]);
        if class.len() <= keep || self.kind(class[class.len() - 1]) == first || class.iter().any(|p| self.kind(*p).device != first.device) {
            return false;
        }
        // The newest first; accesses are kept in the order they happened within a kind,
        // and event indices order them across kinds.
        let mut order: Vec<usize> = (0..class.len()).collect();
        order.sort_unstable_by_key(|&k| std::cmp::Reverse(class[k].event));
        let group = |k: usize| self.kind(class[k]).group;
        // Two groups among the kept: if the newest `keep` are all of one group, the newest
        // access of another takes the last place.
        let newest = group(order[0]);
        if order[..keep].iter().all(|&k| group(k) == newest) {
            if let Some(other) = order[keep..].iter().position(|&k| group(k) != newest) {
                order.swap(keep - 1, keep + other);
            }
        }
        gone.iter_mut().for_each(|g| *g = true);
        for &k in &order[..keep] {
            gone[k] = false;
        }
        true
    }
}

/// The length of the run of leading elements of `list` for which `same` holds (it holds for
/// the first, and then for a prefix), found by galloping from the start: a word's groups are
/// mostly short, so this looks at a few elements where a binary search over the rest of the
/// word would look at its logarithm for every group.
fn run_length(list: &[Access], same: impl Fn(Access) -> bool) -> usize {
    // `same` holds up to `last`; the next look is `step` further, twice as far each time.
    let (mut last, mut step) = (0, 1);
    while last + step < list.len() && same(list[last + step]) {
        last += step;
        step *= 2;
    }
    let end = (last + step).min(list.len());
    last + 1 + list[last + 1..end].partition_point(|&p| same(p))
}

fn race_kind(p: Access, cur: Access) -> RaceKind {
    if p.is_write() && cur.is_write() {
        RaceKind::WriteWrite
    } else {
        RaceKind::ReadWrite
    }
}

/// Whether a race of kept access `p` with `cur` is benign: the order cannot matter. Two
/// writes: they store the same value. A read after the write: it read what the write stored,
/// and would have read that without it (the write stored what was there, or a later write,
/// among those `kept`, is what the read saw). A read before the write: the write stores what
/// it read.
fn benign(p: Access, cur: Access, kept: &[Access]) -> bool {
    let overwritten = || kept.iter().any(|w| w.is_write() && w.event > p.event && w.mask & p.mask & cur.mask != 0);
    p.same_bytes(cur) && (!p.is_write() || cur.is_write() || p.same_value() || overwritten())
}

#[cfg(test)]
mod tests {
    use super::super::shadow::{Access, Accesses, MAX_ACCESSES};
    use super::super::Races;
    use crate::report::RunStatus;
    use crate::scenario::{ArgBinding, Dialect, Scenario};
    use crate::session::{Prepared, Session};

    /// Galloping finds the end of every leading run, of every length in lists of every
    /// length, as a scan does.
    #[test]
    fn run_length_finds_where_a_run_ends() {
        let access = |site: u32| Access { agent: 0, clock: 0, event: 0, site: (site, 0), value: 0, mask: 1, flags: 0 };
        for len in 1..40 {
            for run in 1..=len {
                let list: Vec<Access> = (0..len).map(|k| access((k >= run) as u32)).collect();
                assert_eq!(super::run_length(&list, |p| p.site.0 == 0), run, "a run of {run} in {len}");
            }
        }
    }

    /// Skipping the kinds that neither conflict with an access nor are its own is looking at
    /// each: on generated words of atomics and plain accesses of a few sites, scopes and groups,
    /// against generated current accesses, under both scope inclusions and on one device or
    /// two, every kept access `end_of_alike` skips is of another kind and out of conflict, and
    /// it skips at least the run it starts at.
    #[test]
    fn skipping_alike_kinds_is_looking_at_each() {
        use crate::ir::Level;
        let mut rng = crate::rng::Rng::new(11);
        let (groups, per_group) = (6u32, 2u32);
        let agent_group: Vec<u32> = (0..groups * per_group).map(|wi| wi / per_group).collect();
        let mut skipped_past_a_run = 0;
        for case in 0..400 {
            let mut races = Races::new(true, agent_group.clone().into(), groups * per_group, groups as usize);
            races.ptx = case % 2 == 1;
            if case % 4 >= 2 {
                races.agent_device = agent_group.iter().map(|&g| g % 2).collect();
            }
            let access = |rng: &mut crate::rng::Rng| {
                let atomic = rng.below(4) != 0;
                let level = [Level::Group, Level::Device, Level::System][rng.below(3) as usize];
                let mut flags = if rng.below(2) == 0 { Access::WRITE } else { 0 };
                if atomic {
                    flags |= Access::ATOMIC | ((level.index() as u8) << Access::LEVEL_SHIFT);
                }
                let agent = rng.below((groups * per_group) as u64) as u32;
                Access { agent, clock: 0, event: 0, site: (rng.below(2) as u32, 0), value: 0, mask: [1, 3, 15][rng.below(3) as usize], flags }
            };
            let mut kept: Vec<Access> = (0..24).map(|_| access(&mut rng)).collect();
            kept.sort_by_key(|&p| races.kind(p));
            for _ in 0..8 {
                let cur = access(&mut rng);
                let cur_kind = races.kind(cur);
                for start in 0..kept.len() {
                    let first = kept[start];
                    if races.kind(first) == cur_kind || races.conflict(first, cur) {
                        continue;
                    }
                    let end = races.end_of_alike(&kept, start, races.kind(first), cur, cur_kind);
                    let run = start + super::run_length(&kept[start..], |p| races.kind(p) == races.kind(first));
                    assert!(end >= run && end <= kept.len(), "case {case}: {start}..{end}, its run ends at {run}");
                    for &p in &kept[start..end] {
                        assert!(races.kind(p) != cur_kind && !races.conflict(p, cur), "case {case}: {p:?} skipped against {cur:?}");
                    }
                    skipped_past_a_run += (end > run) as u32;
                }
            }
        }
        assert!(skipped_past_a_run > 100, "only {skipped_past_a_run} skips went past a run");
    }

    /// The most accesses any word of global memory keeps now.
    fn most_kept(session: &Session) -> usize {
        let cells = session.machine().global.iter().filter_map(|a| a.shadow.cell_if_made(0));
        cells
            .map(|c| match &c.accesses {
                Accesses::None => 0,
                Accesses::One(_) => 1,
                Accesses::Many(v) => v.len(),
            })
            .max()
            .unwrap_or(0)
    }

    /// A counter that 512 work-groups add to keeps no more accesses than a word has room
    /// for. Each group's atomics are a kind of their own, and when every kind kept its
    /// newest the word kept one access per group, looked through at every access. The
    /// atomics all have device scope, so the run is free of races and has forgotten nothing
    /// that could race.
    #[test]
    fn a_counter_of_many_groups_keeps_a_words_room() {
        let mut scenario = Scenario::new("__kernel void k(__global int *c) { atomic_add(c, 1); }", "k.cl", Dialect::OpenCl);
        scenario.launch.global = vec![8192];
        scenario.launch.local = Some(vec![16]);
        scenario.args = vec![ArgBinding::parse("c=int[1]:fill=0").expect("valid argument")];
        let prepared = Prepared::new(scenario).expect("compiles");
        let mut session = Session::start(&prepared, 0).expect("launches");
        let mut most = 0;
        while session.step() {
            most = most.max(most_kept(&session));
        }
        assert_eq!(session.status(), RunStatus::Completed);
        assert!(most > MAX_ACCESSES / 2 && most <= MAX_ACCESSES + 1, "a word kept {most} accesses");
        assert!(session.findings().is_empty(), "{:?}", session.findings());
    }
}
