//! What a release publishes at an atomic's word, and which acquirers may learn it: scoped
//! synchronises-with.
//!
//! A release has an *endpoint*, the release atomic itself or a release fence before the
//! atomic write, and the endpoint has a scope: work-group, device or system. So does the
//! acquire endpoint (the acquire atomic, or an acquire fence after the atomic read). The two
//! synchronise only when each one's scope includes the other's work-item: OpenCL 2.0 section
//! 3.3.6 ("inclusive scopes"; Batty, Donaldson and Wickerson, POPL 2016, which Dat3M's
//! `opencl.cat` follows), as PTX's *morally strong* pairs (PTX ISA, "Memory Consistency
//! Model"). A release at work-group scope therefore publishes nothing to another work-group,
//! however the acquire is scoped.
//!
//! The two dialects relate the scopes differently ([`Inclusion`]). PTX (CUDA) asks only that
//! each scope include the other's thread, so a `.gpu` release and a `.cta` acquire of one
//! CTA synchronise. OpenCL 2.0 asks for *inclusive* scopes in the specification's own sense
//! (section 3.3.6; `incl` in Dat3M's `opencl.cat`): both name the same scope, and that scope
//! includes both work-items, so a release at device scope and an acquire at work-group scope
//! never synchronise, even within one work-group, and two such atomics race.
//!
//! What one releasing work-item publishes is a [`Contribution`], three entries of knowledge.
//! Under PTX entry `d` is what an acquirer at *distance* `d` (0: in the releaser's own
//! work-group, 1: on its device, 2: anywhere) may learn: an endpoint at scope level `l`
//! reaches distances up to `l`, and with several endpoints (fences of different scopes before
//! the same write) each distance gets the latest endpoint that reaches it, so nearer
//! acquirers may learn more. Under OpenCL entry `l` is what the latest endpoint of exactly
//! scope level `l` published, for acquirers of that same scope within its reach.
//!
//! A word's [`Release`] gathers the contributions of its release sequences (OpenCL 2.0, as
//! C11: a release, then the read-modify-writes of anyone and the stores of the releasing
//! work-item) as [`Part`]s, one per reach and releasing work-item, up to [`MAX_PARTS`] per
//! reach; further releasers share one part, whose acquirers are taken to be as far from its
//! releasers as any of them is, so a large launch's counters stay small at the price of
//! precision only past that many releasers. A store ends every sequence but those its own
//! work-item released.

use super::clock::Knowledge;
use super::SPACES;
use crate::ir::Level;

/// Scope levels, and distances between work-items: 0 the same work-group, 1 the same
/// device, 2 anywhere (the [`Level`]s, by [`Level::index`]).
pub const LEVELS: usize = Level::COUNT;

/// The most releasing work-items per reach that keep a part of their own in one release.
pub const MAX_PARTS: usize = 16;

/// What one releasing work-item publishes, per entry (see the module documentation: a
/// distance of the acquirer under PTX, an endpoint's scope level under OpenCL), per address
/// space ([`super::GLOBAL`], [`super::LOCAL`]). Under PTX entry `d` knows no more than entry
/// `d - 1`.
pub type Contribution = [[Knowledge; SPACES]; LEVELS];

/// How the scopes of a release and an acquire (or of two conflicting atomics) must relate
/// for them to synchronise (or not to race).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Inclusion {
    /// OpenCL 2.0: both name the same scope, and it includes both work-items.
    #[default]
    SameScope,
    /// PTX's morally strong pairs: each scope includes the other's thread.
    Mutual,
}

impl Inclusion {
    /// Whether an endpoint at scope level `level` fills entry `entry` of its contribution.
    pub fn fills(self, level: Level, entry: usize) -> bool {
        match self {
            Inclusion::SameScope => entry == level.index(),
            Inclusion::Mutual => entry <= level.index(),
        }
    }

    /// Whether an acquire at scope level `level`, at distance `distance` from the releaser,
    /// learns a part of entry (its `reach`) `entry` that reaches it (`distance <= entry`).
    pub fn acquires(self, entry: usize, distance: usize, level: Level) -> bool {
        match self {
            Inclusion::SameScope => entry == level.index(),
            Inclusion::Mutual => distance <= level.index(),
        }
    }

    /// Where a relaxed read keeps such a part for a later acquire fence: by distance under
    /// PTX (a fence learns every distance its scope covers), by the release's scope under
    /// OpenCL (a fence learns only releases of its own scope).
    pub fn pending_slot(self, entry: usize, distance: usize) -> usize {
        match self {
            Inclusion::SameScope => entry,
            Inclusion::Mutual => distance,
        }
    }
}

/// Knowledge of a release that acquirers within `reach` of its releasers may learn.
#[derive(Clone, Debug)]
pub struct Part {
    pub reach: u8,
    /// The releasing agent, its work-group and device (`None`: several, past
    /// [`MAX_PARTS`]).
    pub agent: Option<u32>,
    pub group: Option<u32>,
    pub device: Option<u32>,
    pub know: [Knowledge; SPACES],
}

impl Part {
    /// Joins what releasers of `group` on `device` (`None`: several) publish into this part,
    /// which then names a group or device only if all its releasers share it.
    fn merge(&mut self, group: Option<u32>, device: Option<u32>, know: &[Knowledge; SPACES]) {
        if self.group != group {
            self.group = None;
        }
        if self.device != device {
            self.device = None;
        }
        for (mine, theirs) in self.know.iter_mut().zip(know.iter()) {
            mine.join(theirs);
        }
    }

    /// How far an acquirer in `group` on `device` is from this part's releasers (the
    /// farthest of them when there are several).
    pub fn distance(&self, group: u32, device: u32) -> usize {
        if self.group == Some(group) {
            0
        } else if self.device == Some(device) {
            1
        } else {
            2
        }
    }
}

/// A release published at a word by an atomic write: the parts of its release sequence.
#[derive(Clone, Debug)]
pub struct Release {
    pub parts: Vec<Part>,
    /// The agent of the last store (not read-modify-write) of the sequence.
    pub agent: u32,
    /// The latest releasing event, for a scope-mismatch finding.
    pub event: u32,
    /// The head's group and device.
    pub group: u32,
    pub device: u32,
}

impl Release {
    /// A new release sequence headed by `agent` (of `group` on `device`) at `event`; its scope
    /// is in what `c` fills.
    pub fn new(c: Contribution, agent: u32, group: u32, device: u32, event: u32, rule: Inclusion) -> Release {
        let mut r = Release { parts: Vec::new(), agent, event, group, device };
        r.add(c, agent, group, device, rule);
        r
    }

    /// Adds what a releaser of `group` on `device` contributes (a read-modify-write that
    /// continues the sequence, or the head agent's own later write).
    pub fn add(&mut self, c: Contribution, agent: u32, group: u32, device: u32, rule: Inclusion) {
        for d in (0..LEVELS).rev() {
            let know = &c[d];
            if know.iter().all(Knowledge::is_empty) {
                continue;
            }
            // Under PTX nearer acquirers also learn the wider parts of the same releaser: a
            // part that adds nothing to the next wider one is left out.
            if rule == Inclusion::Mutual && d + 1 < LEVELS && c[d + 1] == *know {
                continue;
            }
            self.join_part(d as u8, agent, group, device, know);
        }
    }

    /// A store by `agent` (not a read-modify-write): it continues the sequences `agent`
    /// released and ends the others.
    pub fn stored_by(&mut self, agent: u32) {
        self.parts.retain(|p| p.agent == Some(agent));
        self.agent = agent;
    }

    /// Joins the parts of `other`, the release an update adds to the sequence it continues
    /// (the relaxed model's promised updates, which the detector did not see made).
    pub fn absorb(&mut self, other: &Release) {
        for p in &other.parts {
            if let (Some(agent), Some(group), Some(device)) = (p.agent, p.group, p.device) {
                self.join_part(p.reach, agent, group, device, &p.know);
                continue;
            }
            match self.parts.iter().position(|q| q.reach == p.reach && q.agent.is_none()) {
                Some(k) => self.parts[k].merge(p.group, p.device, &p.know),
                None => self.parts.push(p.clone()),
            }
        }
        self.event = other.event;
    }

    fn join_part(&mut self, reach: u8, agent: u32, group: u32, device: u32, know: &[Knowledge; SPACES]) {
        let at = self.parts.iter().position(|p| p.reach == reach && p.agent == Some(agent));
        let at = at.or_else(|| {
            let own = self.parts.iter().filter(|p| p.reach == reach && p.agent.is_some()).count();
            if own < MAX_PARTS {
                return None;
            }
            // Past the bound the releaser joins the shared part of this reach.
            match self.parts.iter().position(|p| p.reach == reach && p.agent.is_none()) {
                Some(k) => Some(k),
                None => {
                    self.parts.push(Part { reach, agent: None, group: Some(group), device: Some(device), know: Default::default() });
                    Some(self.parts.len() - 1)
                }
            }
        });
        match at {
            Some(k) => self.parts[k].merge(Some(group), Some(device), know),
            None => self.parts.push(Part { reach, agent: Some(agent), group: Some(group), device: Some(device), know: know.clone() }),
        }
    }
}
