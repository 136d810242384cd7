//! Where a code's computed Grundy values live: a buffer in memory, or a
//! memory-mapped file (little-endian uint32, heap 0 first), so that values past
//! memory go to the page cache and the disk rather than fail.
//!
//! Room is reserved before a run (`reserve`) and does not move during it: the second
//! thread of the sparse-space method reads the values already computed through a
//! `Prefix` while the first appends more, without a copy of its own.
use std::fmt;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use memmap2::MmapMut;

use crate::alloc;
use crate::error::{Error, Result};
use crate::interrupt::Poll;

/// The values of heaps `0..len` and room for `capacity`, read and written through
/// `ptr` alone (so that a `Prefix` read by another thread is never covered by a
/// mutable borrow of the whole buffer).
pub struct Store {
    backing: Backing,
    ptr: NonNull<u32>,
    len: usize,
    capacity: usize,
}

enum Backing {
    /// A vector kept at length 0: it only owns the room.
    Memory(Vec<u32>),
    /// The file, and its map of `capacity` values (none while empty).
    File {
        path: PathBuf,
        file: File,
        map: Option<MmapMut>,
    },
}

// SAFETY: a `Store` owns its room as a `Vec` does; `&Store` only reads it.
unsafe impl Send for Store {}
// SAFETY: as above.
unsafe impl Sync for Store {}

impl Store {
    /// The values in memory (the vector's own room).
    pub fn from_vec(mut values: Vec<u32>) -> Self {
        let (len, capacity) = (values.len(), values.capacity());
        let ptr = NonNull::new(values.as_mut_ptr()).unwrap_or(NonNull::dangling());
        // SAFETY: the values stay in the room; the store counts them from now on.
        unsafe { values.set_len(0) };
        Store {
            backing: Backing::Memory(values),
            ptr,
            len,
            capacity,
        }
    }

    /// The values in the file at `path` (created if missing): its first `count`
    /// values (`Error::ValuesFile` when it holds fewer), anything past them dropped.
    pub fn file(path: &Path, count: usize) -> Result<Self> {
        let failed = |reason: String| Error::ValuesFile {
            path: path.display().to_string(),
            reason,
        };
        if cfg!(target_endian = "big") {
            return Err(failed("values files are little-endian uint32".into()));
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| failed(e.to_string()))?;
        let held = file.metadata().map_err(|e| failed(e.to_string()))?.len() / 4;
        if held < count as u64 {
            return Err(failed(format!("it holds {held} values, not {count}")));
        }
        let mut store = Store {
            backing: Backing::File {
                path: path.to_path_buf(),
                file,
                map: None,
            },
            ptr: NonNull::dangling(),
            len: 0,
            capacity: 0,
        };
        store.map(count)?;
        store.len = count;
        Ok(store)
    }

    /// The file the values live in, if they are not in memory.
    pub fn path(&self) -> Option<&Path> {
        match &self.backing {
            Backing::Memory(_) => None,
            Backing::File { path, .. } => Some(path),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[u32] {
        // SAFETY: `ptr` points to `capacity >= len` values, the first `len` written.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// Room for `total` values in all (fallible: MemoryError, or the file's error).
    /// In memory the room at least doubles, as a vector's; a file grows to `total`.
    pub fn reserve(&mut self, total: usize) -> Result<()> {
        if total <= self.capacity {
            return Ok(());
        }
        match &mut self.backing {
            Backing::Memory(vec) => {
                let total = total.max(self.capacity.saturating_mul(2));
                // SAFETY: the first `len` values are written; the length goes back to 0.
                unsafe { vec.set_len(self.len) };
                let grown = vec.try_reserve_exact(total - self.len);
                unsafe { vec.set_len(0) };
                grown.map_err(|_| alloc::too_large::<u32>(total))?;
                self.ptr = NonNull::new(vec.as_mut_ptr()).unwrap_or(NonNull::dangling());
                self.capacity = vec.capacity();
                Ok(())
            }
            Backing::File { .. } => self.map(total),
        }
    }

    /// Set the file's length to `total` values and map all of them.
    fn map(&mut self, total: usize) -> Result<()> {
        let Backing::File { path, file, map } = &mut self.backing else {
            return Ok(());
        };
        let failed = |reason: String| Error::ValuesFile {
            path: path.display().to_string(),
            reason,
        };
        let bytes = total
            .checked_mul(4)
            .ok_or_else(|| alloc::too_large::<u32>(total))?;
        *map = None;
        (self.ptr, self.capacity) = (NonNull::dangling(), 0);
        file.set_len(bytes as u64)
            .map_err(|e| failed(e.to_string()))?;
        if total > 0 {
            // SAFETY: the map is of a file this store opened for itself; the file must
            // not be shortened by another program while it is used (the map's pages
            // past the end would be gone).
            let mut mapped =
                unsafe { MmapMut::map_mut(&*file) }.map_err(|e| failed(e.to_string()))?;
            self.ptr = NonNull::new(mapped.as_mut_ptr().cast()).unwrap_or(NonNull::dangling());
            self.capacity = total;
            *map = Some(mapped);
        }
        Ok(())
    }

    /// Append a value; the room must be reserved (it never moves here: a `Prefix`
    /// may be in use).
    pub fn push(&mut self, value: u32) {
        assert!(self.len < self.capacity, "room is reserved before a run");
        // SAFETY: within the room, past every value a `Prefix` reads.
        unsafe { self.ptr.as_ptr().add(self.len).write(value) };
        self.len += 1;
    }

    /// Append `values`, reserving room for them (a piece at a time, polling for
    /// Ctrl-C between pieces: billions of values take seconds).
    pub fn extend_from_slice(&mut self, values: &[u32]) -> Result<()> {
        self.reserve(self.len + values.len())?;
        let mut poll = Poll::default();
        for piece in values.chunks(1 << 16) {
            poll.tick()?;
            for &v in piece {
                self.push(v);
            }
        }
        Ok(())
    }

    /// Write the values of heaps `start..stop` of a file to the disk (nothing for
    /// values in memory).
    pub fn flush(&self, start: usize, stop: usize) -> Result<()> {
        let Backing::File { path, map, .. } = &self.backing else {
            return Ok(());
        };
        let (start, stop) = (start.min(self.len), stop.min(self.len));
        match map {
            Some(map) if start < stop => {
                map.flush_range(start * 4, (stop - start) * 4)
                    .map_err(|e| Error::ValuesFile {
                        path: path.display().to_string(),
                        reason: e.to_string(),
                    })
            }
            _ => Ok(()),
        }
    }

    /// The values so far, for another thread to read while this one appends.
    pub fn prefix(&self) -> Prefix {
        Prefix(self.ptr)
    }
}

impl std::ops::Deref for Store {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        self.as_slice()
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path())
            .field("len", &self.len)
            .field("capacity", &self.capacity)
            .finish()
    }
}

/// The start of a `Store`'s values, read by another thread.
#[derive(Clone, Copy)]
pub struct Prefix(NonNull<u32>);

// SAFETY: only read, and only as `Prefix::values` allows.
unsafe impl Send for Prefix {}

impl Prefix {
    /// The values of heaps `0..len`.
    ///
    /// # Safety
    /// They are written, and the store's room has not moved since `prefix()`: its
    /// thread only appends (no `reserve`) while this slice is in use.
    pub unsafe fn values<'a>(self, len: usize) -> &'a [u32] {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr(), len) }
    }
}

#[cfg(test)]
mod tests {
    use super::Store;

    #[test]
    fn memory_keeps_values_as_it_grows() {
        let mut store = Store::from_vec(vec![0, 1, 2]);
        for v in 3..1000 {
            store.reserve(store.len() + 1).unwrap();
            store.push(v);
        }
        assert_eq!(store.as_slice(), (0..1000).collect::<Vec<u32>>());
    }

    #[test]
    fn a_file_holds_little_endian_values_and_drops_what_is_past_the_count() {
        let dir = std::env::temp_dir().join(format!("nimkit-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("values.u32");
        std::fs::write(&path, [1u8, 0, 0, 0, 2, 0, 0, 0, 9, 9]).unwrap();
        let mut store = Store::file(&path, 2).unwrap();
        assert_eq!(store.as_slice(), [1, 2]);
        store.extend_from_slice(&[3, 0x0102_0304]).unwrap();
        store.flush(0, 4).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 3, 2, 1]);
        assert!(Store::file(&path, 5).is_err());
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
