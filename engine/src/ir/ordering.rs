//! Memory orders, memory scopes and the scope levels the memory models order by.
//!
//! An atomic or fence has an [`Order`] (how it orders the accesses around it) and a
//! [`Scope`] (which work-items it synchronises with). The race detector and the relaxed
//! model only ask how far a scope reaches, its [`Level`]: OpenCL's work-item, sub-group and
//! work-group scopes all stop at the work-group, since a sub-group is part of one.
//!
//! The discriminants of [`Order`] and [`Scope`] are OpenCL C's `memory_order` and
//! `memory_scope` values. A program may compute those at run time, so they are read back with
//! [`Order::from_value`] and [`Scope::from_value`]; and the event log records and hashes
//! them ([`Order::value`], [`Scope::value`]), so a trace hash does not depend on how the
//! engine spells them.

/// A memory order: OpenCL C's `memory_order` (after C11, without `consume`), and PTX's
/// `.relaxed`, `.acquire`, `.release`, `.acq_rel` and `.sc` semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Order {
    /// Atomic, but orders nothing else.
    Relaxed = 0,
    /// Later accesses stay after it; it learns what a release it reads from published.
    Acquire = 2,
    /// Earlier accesses stay before it; it publishes them to an acquire that reads it.
    Release = 3,
    /// Both an acquire and a release.
    AcqRel = 4,
    /// Acquire and release, and in the single total order of sequentially consistent
    /// operations.
    SeqCst = 5,
}

impl Order {
    /// Every order, weakest first.
    pub const ALL: [Order; 5] = [Order::Relaxed, Order::Acquire, Order::Release, Order::AcqRel, Order::SeqCst];

    /// OpenCL C's `memory_order` value.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The order whose `memory_order` value is `value`, if there is one.
    pub fn from_value(value: u8) -> Option<Order> {
        Order::ALL.into_iter().find(|o| o.value() == value)
    }

    /// Whether it has an acquire part (acquire, acq_rel, seq_cst).
    pub fn acquires(self) -> bool {
        matches!(self, Order::Acquire | Order::AcqRel | Order::SeqCst)
    }

    /// Whether it has a release part (release, acq_rel, seq_cst).
    pub fn releases(self) -> bool {
        matches!(self, Order::Release | Order::AcqRel | Order::SeqCst)
    }

    /// Its name as OpenCL C writes it after `memory_order_` (the IR's text and the
    /// explanations use it too).
    pub fn name(self) -> &'static str {
        match self {
            Order::Relaxed => "relaxed",
            Order::Acquire => "acquire",
            Order::Release => "release",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "seq_cst",
        }
    }
}

/// A memory scope: OpenCL C's `memory_scope`, narrowest first; PTX's `.cta`, `.gpu` and
/// `.sys` are the work-group, device and system scopes, and CUDA's `_block` and `_system`
/// atomics too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Scope {
    /// The work-item itself: only for image fences.
    WorkItem = 0,
    SubGroup = 4,
    WorkGroup = 1,
    Device = 2,
    /// `memory_scope_all_svm_devices`: every device and the host.
    System = 3,
}

impl Scope {
    /// Every scope, narrowest first.
    pub const ALL: [Scope; 5] = [Scope::WorkItem, Scope::SubGroup, Scope::WorkGroup, Scope::Device, Scope::System];

    /// OpenCL C's `memory_scope` value.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The scope whose `memory_scope` value is `value`, if there is one.
    pub fn from_value(value: u8) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.value() == value)
    }

    /// How far it reaches.
    pub fn level(self) -> Level {
        match self {
            Scope::WorkItem | Scope::SubGroup | Scope::WorkGroup => Level::Group,
            Scope::Device => Level::Device,
            Scope::System => Level::System,
        }
    }

    /// Its name as OpenCL C writes it after `memory_scope_` (the IR's text uses it too).
    pub fn name(self) -> &'static str {
        match self {
            Scope::WorkItem => "work_item",
            Scope::SubGroup => "sub_group",
            Scope::WorkGroup => "work_group",
            Scope::Device => "device",
            Scope::System => "system",
        }
    }
}

/// A scope level, narrowest first: what a release reaches and an acquire learns from, and
/// how far apart two work-items are (the same work-group, the same device, anywhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Group,
    Device,
    System,
}

impl Level {
    /// Every level, narrowest first.
    pub const ALL: [Level; 3] = [Level::Group, Level::Device, Level::System];

    /// How many levels there are: the length of the arrays kept per level.
    pub const COUNT: usize = Level::ALL.len();

    /// Its place in [`Level::ALL`], for the arrays kept per level (0 the work-group).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The level at place `index` of [`Level::ALL`], if there is one.
    pub fn from_index(index: usize) -> Option<Level> {
        Level::ALL.get(index).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_opencl_c_values() {
        let orders: Vec<(u8, &str)> = Order::ALL.iter().map(|o| (o.value(), o.name())).collect();
        assert_eq!(orders, [(0, "relaxed"), (2, "acquire"), (3, "release"), (4, "acq_rel"), (5, "seq_cst")]);
        let scopes: Vec<(u8, &str)> = Scope::ALL.iter().map(|s| (s.value(), s.name())).collect();
        assert_eq!(scopes, [(0, "work_item"), (4, "sub_group"), (1, "work_group"), (2, "device"), (3, "system")]);
        for v in 0..=u8::MAX {
            assert_eq!(Order::from_value(v).map(Order::value), Order::ALL.iter().any(|o| o.value() == v).then_some(v));
            assert_eq!(Scope::from_value(v).map(Scope::value), (v <= 4).then_some(v));
        }
    }

    #[test]
    fn levels_are_narrowest_first() {
        assert!(Level::Group < Level::Device && Level::Device < Level::System);
        assert_eq!(Level::ALL.map(Level::index), [0, 1, 2]);
        assert_eq!([0, 1, 2, 3].map(Level::from_index), [Some(Level::Group), Some(Level::Device), Some(Level::System), None]);
        let levels: Vec<Level> = Scope::ALL.iter().map(|s| s.level()).collect();
        assert_eq!(levels, [Level::Group, Level::Group, Level::Group, Level::Device, Level::System]);
    }
}
