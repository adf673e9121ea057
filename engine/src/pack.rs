//! Variable-length integers (LEB128) for the states a snapshot keeps packed: the work-items
//! ([`crate::exec::frozen`]) and the race detector's shadow memory. Most fields are small, or
//! nearly equal to the same field of the neighbour packed before, so each is written as the
//! fewest 7-bit groups that hold it, and a difference as its zigzag form (0, -1, 1, -2, ... as
//! 0, 1, 2, 3, ...), which keeps a small difference small whichever its sign.
//!
//! The bytes are the engine's own, read back by the code that wrote them, so reading past
//! their end is a defect and panics; no user input is ever read through here.

/// Appends `value`.
#[inline]
pub fn put(bytes: &mut Vec<u8>, value: u64) {
    // Most values packed are small differences: their one byte is written in place, and only
    // longer ones pay for a call (freezing a snapshot writes tens of values per work-item).
    if value < 0x80 {
        bytes.push(value as u8);
    } else {
        put_long(bytes, value);
    }
}

#[inline(never)]
fn put_long(bytes: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        bytes.push(value as u8 | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

/// Appends `value - base`, wrapping, in zigzag form.
#[inline]
pub fn put_delta(bytes: &mut Vec<u8>, value: u64, base: u64) {
    let d = value.wrapping_sub(base) as i64;
    put(bytes, ((d << 1) ^ (d >> 63)) as u64);
}

/// Reads back what [`put`] and [`put_delta`] wrote, in order.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    #[inline]
    pub fn get(&mut self) -> u64 {
        // Most values packed take one byte: those skip the loop.
        let first = self.byte();
        if first < 0x80 {
            return u64::from(first);
        }
        self.get_long(first)
    }

    fn get_long(&mut self, first: u8) -> u64 {
        let mut value = u64::from(first & 0x7f);
        let mut shift = 7;
        loop {
            let byte = self.byte();
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return value;
            }
            shift += 7;
        }
    }

    /// A value that was 32 bits wide when it was put.
    pub fn get_u32(&mut self) -> u32 {
        self.get() as u32
    }

    /// The value whose difference from `base` [`put_delta`] wrote.
    #[inline]
    pub fn get_delta(&mut self, base: u64) -> u64 {
        let z = self.get();
        let d = ((z >> 1) as i64) ^ -((z & 1) as i64);
        base.wrapping_add(d as u64)
    }

    /// One byte pushed as it is.
    #[inline]
    pub fn byte(&mut self) -> u8 {
        let byte = self.bytes[self.at];
        self.at += 1;
        byte
    }

    /// Whether every byte was read.
    pub fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_differences_come_back_in_order() {
        let values = [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX - 1, u64::MAX, 1 << 63];
        let mut bytes = Vec::new();
        for (i, &v) in values.iter().enumerate() {
            put(&mut bytes, v);
            put_delta(&mut bytes, v, values[(i + 3) % values.len()]);
        }
        let mut reader = Reader::new(&bytes);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(reader.get(), v);
            assert_eq!(reader.get_delta(values[(i + 3) % values.len()]), v);
        }
        assert!(reader.done());
    }

    #[test]
    fn small_differences_take_one_byte_either_way() {
        for (value, base) in [(5u64, 9u64), (9, 5), (0, u64::MAX), (u64::MAX, 0)] {
            let mut bytes = Vec::new();
            put_delta(&mut bytes, value, base);
            assert_eq!(bytes.len(), 1, "{value} from {base}");
        }
    }
}
