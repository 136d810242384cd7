//! Allocations whose size follows the input. They are fallible, so that a request too
//! large for the machine is an error (MemoryError in Python), never an abort.
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;

/// An empty vector with room for `len` elements.
pub fn with_capacity<T>(len: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| too_large::<T>(len))?;
    Ok(v)
}

/// `len` copies of `value`, written a piece at a time with a poll for Ctrl-C between
/// pieces (a gigabyte of fresh pages takes the better part of a second to write).
pub fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>> {
    const PIECE_BYTES: usize = 1 << 24;
    let piece = (PIECE_BYTES / std::mem::size_of::<T>().max(1)).max(1);
    let mut v = with_capacity(len)?;
    let mut poll = Poll::default();
    while v.len() < len {
        poll.tick()?;
        let end = len.min(v.len() + piece);
        v.resize(end, value.clone());
    }
    Ok(v)
}

/// Room for one more element of a vector that grows as a search goes (amortised:
/// the capacity doubles when it runs out).
pub fn grow<T>(v: &mut Vec<T>) -> Result<()> {
    grow_by(v, 1)
}

/// Room for `more` elements, as `grow`.
pub fn grow_by<T>(v: &mut Vec<T>, more: usize) -> Result<()> {
    v.try_reserve(more)
        .map_err(|_| too_large::<T>(v.len().saturating_add(more)))
}

pub fn too_large<T>(len: usize) -> Error {
    Error::OutOfMemory {
        bytes: (len as u128).saturating_mul(std::mem::size_of::<T>() as u128),
    }
}
