//! Where a code's computed Grundy values live: a buffer in memory, or a
//! memory-mapped file (little-endian, heap 0 first, whose extension `.u8`, `.u16` or
//! `.u32` names the width), so that values past memory go to the page cache and the
//! disk rather than fail. Values are kept at the narrowest width that holds them all
//! (`Width`), widened as they grow: a file widens into a new file named by the new
//! width next to it (the narrower one stays: a checkpoint may still vouch for it).
//!
//! Room is reserved before a run (`reserve`) and does not move during it: the second
//! thread of the sparse-space method reads the values already computed through a
//! `Prefix` while the first appends more, without a copy of its own.
use std::fmt;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use memmap2::MmapMut;

use super::width::{Value, Width};
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;

/// The values of heaps `0..len` at `width` and room for `capacity`, read and written
/// through `ptr` alone (so that a `Prefix` read by another thread is never covered by
/// a mutable borrow of the whole buffer).
pub struct Store {
    backing: Backing,
    ptr: NonNull<u8>,
    width: Width,
    len: usize,
    capacity: usize,
}

enum Backing {
    /// A vector kept at length 0: it only owns the room (words, aligned for any
    /// width).
    Memory(Vec<u64>),
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

/// Values copied (and polled for Ctrl-C) at a time.
const PIECE: usize = 1 << 16;

impl Store {
    /// `values` in memory, at the narrowest width (for a handful: the start of a
    /// sequence).
    pub fn from_values(values: &[u32]) -> Self {
        let mut store = Store {
            backing: Backing::Memory(Vec::new()),
            ptr: NonNull::dangling(),
            width: Width::U8,
            len: 0,
            capacity: 0,
        };
        for &v in values {
            store
                .push_value(v)
                .expect("room for a handful of values, no file");
        }
        store
    }

    /// The values in the file at `path` (created if missing), whose extension names
    /// their width: its first `count` values (`Error::ValuesFile` when it holds
    /// fewer), anything past them dropped.
    pub fn file(path: &Path, count: usize) -> Result<Self> {
        let failed = |reason: String| Error::ValuesFile {
            path: path.display().to_string(),
            reason,
        };
        if cfg!(target_endian = "big") {
            return Err(failed("values files are little-endian".into()));
        }
        let width = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Width::from_extension)
            .ok_or_else(|| Error::ValuesFileName {
                path: path.display().to_string(),
            })?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| failed(e.to_string()))?;
        let held = file.metadata().map_err(|e| failed(e.to_string()))?.len() / width.bytes() as u64;
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
            width,
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

    pub fn width(&self) -> Width {
        self.width
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, of type `V`: the store's width (see `by_width!`).
    pub fn slice<V: Value>(&self) -> &[V] {
        assert_eq!(V::WIDTH, self.width, "values are read at their width");
        // SAFETY: `ptr` points to `capacity >= len` values of this width, aligned,
        // the first `len` written.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr().cast(), self.len) }
    }

    /// The value of heap `n`, if known.
    pub fn get(&self, n: usize) -> Option<u32> {
        crate::by_width!(self, |values| values.get(n).map(|&v| v.to_u32()))
    }

    /// The largest of the first `count` values (0 when none).
    pub fn max(&self, count: usize) -> u32 {
        let count = count.min(self.len);
        crate::by_width!(self, |values| values[..count]
            .iter()
            .max()
            .map_or(0, |&v| v.to_u32()))
    }

    /// Room for `total` values in all (fallible: MemoryError, or the file's error).
    /// In memory the room at least doubles, as a vector's; a file grows to `total`.
    pub fn reserve(&mut self, total: usize) -> Result<()> {
        if total <= self.capacity {
            return Ok(());
        }
        match &mut self.backing {
            Backing::Memory(room) => {
                let total = total.max(self.capacity.saturating_mul(2));
                let words = words(total, self.width)?;
                // SAFETY: the words holding the first `len` values are written; the
                // length goes back to 0.
                let used = words_for(self.len, self.width);
                unsafe { room.set_len(used) };
                let grown = room.try_reserve_exact(words - used);
                unsafe { room.set_len(0) };
                grown.map_err(|_| alloc::too_large::<u32>(total))?;
                self.ptr = NonNull::new(room.as_mut_ptr().cast()).unwrap_or(NonNull::dangling());
                self.capacity = room.capacity() * 8 / self.width.bytes();
                Ok(())
            }
            Backing::File { .. } => self.map(total),
        }
    }

    /// Set the file's length to `total` values and map all of them.
    fn map(&mut self, total: usize) -> Result<()> {
        let width = self.width;
        let Backing::File { path, file, map } = &mut self.backing else {
            return Ok(());
        };
        let failed = |reason: String| Error::ValuesFile {
            path: path.display().to_string(),
            reason,
        };
        let bytes = total
            .checked_mul(width.bytes())
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
            self.ptr = NonNull::new(mapped.as_mut_ptr()).unwrap_or(NonNull::dangling());
            self.capacity = total;
            *map = Some(mapped);
        }
        Ok(())
    }

    /// Append a value of the store's width; the room must be reserved (it never
    /// moves here: a `Prefix` may be in use).
    #[inline]
    pub fn push<V: Value>(&mut self, value: V) {
        assert!(
            V::WIDTH == self.width && self.len < self.capacity,
            "room is reserved before a run, at the values' width"
        );
        // SAFETY: within the room, past every value a `Prefix` reads.
        unsafe { self.ptr.as_ptr().cast::<V>().add(self.len).write(value) };
        self.len += 1;
    }

    /// Append a value, widening and reserving room as needed (never while a
    /// `Prefix` is in use).
    pub fn push_value(&mut self, value: u32) -> Result<()> {
        self.widen(Width::of(value))?;
        self.reserve(self.len + 1)?;
        match self.width {
            Width::U8 => self.push(u8::narrow(value)),
            Width::U16 => self.push(u16::narrow(value)),
            Width::U32 => self.push(value),
        }
        Ok(())
    }

    /// Append `values`, widening and reserving room for them (a piece at a time,
    /// polling for Ctrl-C between pieces: billions of values take seconds).
    pub fn extend_from_slice<V: Value>(&mut self, values: &[V]) -> Result<()> {
        let top = values.iter().max().map_or(0, |&v| v.into());
        self.widen(Width::of(top))?;
        self.reserve(self.len + values.len())?;
        let mut poll = Poll::default();
        for piece in values.chunks(PIECE) {
            poll.tick()?;
            for &v in piece {
                self.push_value(v.into())?;
            }
        }
        Ok(())
    }

    /// Keep the values at `width` at least: in memory a new buffer; a file's go to a
    /// new file next to it named by the width (the old one is left as it is). The
    /// store is unchanged when this fails (Ctrl-C, no memory, the file's error).
    pub fn widen(&mut self, width: Width) -> Result<()> {
        if width <= self.width {
            return Ok(());
        }
        let room = self.capacity.max(self.len);
        let mut wide = match &self.backing {
            Backing::Memory(_) => Store {
                backing: Backing::Memory(Vec::new()),
                ptr: NonNull::dangling(),
                width,
                len: 0,
                capacity: 0,
            },
            Backing::File { path, .. } => {
                let wider = path.with_extension(width.extension());
                // A file left by a widening cut short is overwritten.
                let _ = std::fs::remove_file(&wider);
                Store::file(&wider, 0)?
            }
        };
        wide.reserve(room)?;
        let mut poll = Poll::default();
        crate::by_width!(self, |values| {
            for piece in values.chunks(PIECE) {
                poll.tick()?;
                for &v in piece {
                    match width {
                        Width::U8 => wide.push(u8::narrow(v.to_u32())),
                        Width::U16 => wide.push(u16::narrow(v.to_u32())),
                        Width::U32 => wide.push(v.to_u32()),
                    }
                }
            }
        });
        *self = wide;
        Ok(())
    }

    /// Write the values of heaps `start..stop` of a file to the disk (nothing for
    /// values in memory).
    pub fn flush(&self, start: usize, stop: usize) -> Result<()> {
        let Backing::File { path, map, .. } = &self.backing else {
            return Ok(());
        };
        let (start, stop) = (start.min(self.len), stop.min(self.len));
        let bytes = self.width.bytes();
        match map {
            Some(map) if start < stop => map
                .flush_range(start * bytes, (stop - start) * bytes)
                .map_err(|e| Error::ValuesFile {
                    path: path.display().to_string(),
                    reason: e.to_string(),
                }),
            _ => Ok(()),
        }
    }

    /// The values so far, for another thread to read while this one appends.
    pub fn prefix(&self) -> Prefix {
        Prefix(self.ptr, self.width)
    }
}

/// Words of room for `values` values of `width` (`MemoryError` past `usize`).
fn words(values: usize, width: Width) -> Result<usize> {
    values
        .checked_mul(width.bytes())
        .map(|bytes| bytes.div_ceil(8))
        .ok_or_else(|| alloc::too_large::<u32>(values))
}

/// Words holding the first `values` values of `width` (which fit in the room).
fn words_for(values: usize, width: Width) -> usize {
    (values * width.bytes()).div_ceil(8)
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path())
            .field("width", &self.width)
            .field("len", &self.len)
            .field("capacity", &self.capacity)
            .finish()
    }
}

/// The start of a `Store`'s values, read by another thread.
#[derive(Clone, Copy)]
pub struct Prefix(NonNull<u8>, Width);

// SAFETY: only read, and only as `Prefix::values` allows.
unsafe impl Send for Prefix {}

impl Prefix {
    pub fn width(self) -> Width {
        self.1
    }

    /// The values of heaps `0..len`, of type `V`: the store's width.
    ///
    /// # Safety
    /// They are written, and the store's room has not moved since `prefix()`: its
    /// thread only appends (no `reserve`, no `widen`) while this slice is in use.
    pub unsafe fn values<'a, V: Value>(self, len: usize) -> &'a [V] {
        assert_eq!(V::WIDTH, self.1, "values are read at their width");
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast(), len) }
    }
}

#[cfg(test)]
mod tests {
    use super::{Store, Width};

    fn all(store: &Store) -> Vec<u32> {
        (0..store.len()).filter_map(|n| store.get(n)).collect()
    }

    #[test]
    fn memory_keeps_values_as_it_grows_and_widens() {
        let mut store = Store::from_values(&[0, 1, 2]);
        assert_eq!(store.width(), Width::U8);
        for v in 3..1000 {
            store.push_value(v).unwrap();
        }
        assert_eq!(store.width(), Width::U16);
        store.push_value(70_000).unwrap();
        assert_eq!(store.width(), Width::U32);
        let mut expected: Vec<u32> = (0..1000).collect();
        expected.push(70_000);
        assert_eq!(all(&store), expected);
        assert_eq!(store.max(1000), 999);
    }

    #[test]
    fn a_file_holds_little_endian_values_and_widens_into_a_new_file() {
        let dir = std::env::temp_dir().join(format!("nimkit-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("values.u16");
        std::fs::write(&path, [1u8, 0, 2, 0, 9]).unwrap();
        let mut store = Store::file(&path, 2).unwrap();
        assert_eq!(all(&store), [1, 2]);
        store.extend_from_slice(&[3u32, 0x0304]).unwrap();
        store.flush(0, 4).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), [1, 0, 2, 0, 3, 0, 4, 3]);
        assert!(Store::file(&path, 5).is_err());
        assert!(Store::file(&dir.join("values.bin"), 0).is_err());
        store.push_value(0x0102_0304).unwrap();
        store.flush(0, 5).unwrap();
        let wide = dir.join("values.u32");
        assert_eq!(store.path(), Some(wide.as_path()));
        let bytes = std::fs::read(&wide).unwrap();
        assert_eq!(
            bytes[..20],
            [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 3, 0, 0, 4, 3, 2, 1]
        );
        // The narrower file is left as it was.
        assert_eq!(std::fs::read(&path).unwrap(), [1, 0, 2, 0, 3, 0, 4, 3]);
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
