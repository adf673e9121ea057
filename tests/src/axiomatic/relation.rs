//! Binary relations over the events of one execution, as bit matrices.
//!
//! An execution of a litmus test has a few dozen events at most, so a relation is one 64-bit
//! row per event (bit `j` of row `i`: `i` is related to `j`) and a set of events one word.
//! Composition, closure and the acyclicity checks the models need are then a handful of word
//! operations per row.

/// The most events an execution may have.
pub const MAX_EVENTS: usize = 64;

/// A set of events.
pub type Set = u64;

pub fn bit(i: usize) -> Set {
    1u64 << i
}

/// The events of `s`, in increasing order.
pub fn members(mut s: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(i)
        }
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Rel {
    rows: [u64; MAX_EVENTS],
    n: usize,
}

impl std::fmt::Debug for Rel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pairs: Vec<(usize, usize)> = self.pairs().collect();
        write!(f, "{pairs:?}")
    }
}

impl Rel {
    /// The empty relation over `n` events.
    pub fn empty(n: usize) -> Rel {
        assert!(n <= MAX_EVENTS, "at most {MAX_EVENTS} events");
        Rel { rows: [0; MAX_EVENTS], n }
    }

    /// The identity on the events of `s`.
    pub fn id(n: usize, s: Set) -> Rel {
        let mut r = Rel::empty(n);
        for i in members(s) {
            r.rows[i] = bit(i);
        }
        r
    }

    /// Every pair `(a, b)` with `a` in `from` and `b` in `to`.
    pub fn product(n: usize, from: Set, to: Set) -> Rel {
        let mut r = Rel::empty(n);
        for i in members(from) {
            r.rows[i] = to;
        }
        r
    }

    /// The pairs for which `f` holds.
    pub fn from_fn(n: usize, mut f: impl FnMut(usize, usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for i in 0..n {
            for j in 0..n {
                if f(i, j) {
                    r.rows[i] |= bit(j);
                }
            }
        }
        r
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= bit(b);
    }

    pub fn has(&self, a: usize, b: usize) -> bool {
        self.rows[a] & bit(b) != 0
    }

    /// What `a` is related to.
    pub fn row(&self, a: usize) -> Set {
        self.rows[a]
    }

    pub fn is_empty(&self) -> bool {
        self.rows[..self.n].iter().all(|&r| r == 0)
    }

    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |i| members(self.rows[i]).map(move |j| (i, j)))
    }

    pub fn union(&self, o: &Rel) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            r.rows[i] |= o.rows[i];
        }
        r
    }

    pub fn inter(&self, o: &Rel) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            r.rows[i] &= o.rows[i];
        }
        r
    }

    pub fn minus(&self, o: &Rel) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            r.rows[i] &= !o.rows[i];
        }
        r
    }

    /// `self ; o`: `a` to `c` when `a` is related to some `b` that `o` relates to `c`.
    pub fn seq(&self, o: &Rel) -> Rel {
        let mut r = Rel::empty(self.n);
        for i in 0..self.n {
            let mut acc = 0;
            for j in members(self.rows[i]) {
                acc |= o.rows[j];
            }
            r.rows[i] = acc;
        }
        r
    }

    pub fn inverse(&self) -> Rel {
        let mut r = Rel::empty(self.n);
        for (i, j) in self.pairs() {
            r.rows[j] |= bit(i);
        }
        r
    }

    /// Keeps the pairs whose first event is in `s`.
    pub fn from_set(&self, s: Set) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            if s & bit(i) == 0 {
                r.rows[i] = 0;
            }
        }
        r
    }

    /// Keeps the pairs whose second event is in `s`.
    pub fn to_set(&self, s: Set) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            r.rows[i] &= s;
        }
        r
    }

    /// `self ∪ id`, the reflexive closure on all events.
    pub fn opt(&self) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            r.rows[i] |= bit(i);
        }
        r
    }

    /// The transitive closure (Warshall's algorithm on rows).
    pub fn plus(&self) -> Rel {
        let mut r = *self;
        for k in 0..self.n {
            let rk = r.rows[k];
            for i in 0..self.n {
                if r.rows[i] & bit(k) != 0 {
                    r.rows[i] |= rk;
                }
            }
        }
        r
    }

    /// Removes every pair `(a, a)`.
    pub fn no_id(&self) -> Rel {
        let mut r = *self;
        for i in 0..self.n {
            r.rows[i] &= !bit(i);
        }
        r
    }

    pub fn irreflexive(&self) -> bool {
        (0..self.n).all(|i| self.rows[i] & bit(i) == 0)
    }

    pub fn acyclic(&self) -> bool {
        self.plus().irreflexive()
    }
}
