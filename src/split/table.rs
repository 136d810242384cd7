//! What a pruned search (`pruned::Search`) learns: the values of components, and the
//! values components were shown not to have (a search that stopped short of the
//! value). One search keeps them in a plain map and a cache of its own (`Private`);
//! searches on several threads at once (`parallel`) read the map, left as it was,
//! and share what they learn in tables of atomic words (`Fresh`), entered in the
//! map once they are done. The map's bytes are counted as hashbrown lays a map out
//! (a power of two of buckets, each an entry and a control byte, at most 7/8 full),
//! so that a search checks its memory bound before the table grows.
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::{fence, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::{FxHashMap, FxHasher};

use crate::base::alloc;
use crate::base::error::Result;
use crate::base::interrupt::Poll;

/// What a search asks of its table.
pub trait Values<K> {
    fn get(&mut self, key: &K) -> Option<u32>;
    /// How many values the table holds.
    fn count(&self) -> usize;
    /// The bytes of the table's buckets.
    fn bytes(&self) -> u64;
    /// The bytes of the table's buckets once `key` is entered.
    fn bytes_with(&mut self, key: &K) -> u64;
    /// Enter the value of `key`, growing the table fallibly.
    fn enter(&mut self, key: K, value: u32) -> Result<()>;
    /// The values `key` was shown not to have (bits of those below 64), if known.
    fn refuted(&mut self, key: &K) -> Option<u64>;
    /// `key` was shown not to have the values of `not`.
    fn refute(&mut self, key: K, not: u64) -> Result<()>;
    /// Whether another search (on another thread) is on `key` now, as far as known.
    fn busy(&mut self, _key: &K) -> bool {
        false
    }
    /// This search is on `key` now (`on`), or no longer.
    fn searching(&mut self, _key: &K, _on: bool) {}
    /// Room made in place for a search bounded by `bound` bytes (`evict`, the keys
    /// by `size`), where the table is the search's alone: the sizes of the values
    /// kept. None where other searches share it (their caller makes the room).
    fn evict(
        &mut self,
        _bound: u64,
        _key_heap: usize,
        _size: &dyn Fn(&K) -> u32,
        _poll: &mut Poll,
    ) -> Option<Result<u64>> {
        None
    }
}

/// The bytes of a map of `capacity` entries of `(K, V)`, as hashbrown lays it out.
pub fn layout<K, V>(capacity: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    let entry = std::mem::size_of::<(K, V)>() as u64 + 1;
    (buckets(capacity) as u64).saturating_mul(entry)
}

/// The buckets hashbrown takes for `capacity` entries.
fn buckets(capacity: usize) -> usize {
    match capacity {
        0..4 => 4,
        4..8 => 8,
        _ => (capacity.saturating_mul(8) / 7).next_power_of_two(),
    }
}

/// The capacity `map` has once it holds one entry more (entries are never removed:
/// a full map grows).
pub fn capacity_with<K, V>(map: &FxHashMap<K, V>) -> usize {
    if map.len() < map.capacity() {
        return map.capacity();
    }
    match buckets(map.capacity() + 1) {
        b if b < 8 => b - 1,
        b => b / 8 * 7,
    }
}

/// Enter `value` for `key`, growing `map` fallibly.
pub fn enter_in<K: Eq + Hash>(map: &mut FxHashMap<K, u32>, key: K, value: u32) -> Result<()> {
    if map.len() == map.capacity() {
        map.try_reserve(1)
            .map_err(|_| alloc::too_large::<(K, u32)>(map.len() + 1))?;
    }
    map.insert(key, value);
    Ok(())
}

/// The values in a map of the caller's, and a cache of refuted values of the
/// search's own.
pub struct Private<'a, K> {
    values: &'a mut FxHashMap<K, u32>,
    refuted: Refuted<K>,
}

impl<'a, K: Eq + Hash> Private<'a, K> {
    pub fn new(values: &'a mut FxHashMap<K, u32>) -> Result<Self> {
        Ok(Private {
            values,
            refuted: Refuted::new(REFUTED_FIRST, REFUTED)?,
        })
    }

    /// The map of values.
    pub fn values(&mut self) -> &mut FxHashMap<K, u32> {
        self.values
    }
}

impl<K: Eq + Hash> Values<K> for Private<'_, K> {
    #[inline]
    fn get(&mut self, key: &K) -> Option<u32> {
        self.values.get(key).copied()
    }

    fn count(&self) -> usize {
        self.values.len()
    }

    fn bytes(&self) -> u64 {
        layout::<K, u32>(self.values.capacity())
    }

    fn bytes_with(&mut self, _key: &K) -> u64 {
        layout::<K, u32>(capacity_with(self.values))
    }

    fn enter(&mut self, key: K, value: u32) -> Result<()> {
        enter_in(self.values, key, value)
    }

    fn refuted(&mut self, key: &K) -> Option<u64> {
        self.refuted.get(key)
    }

    fn refute(&mut self, key: K, not: u64) -> Result<()> {
        self.refuted.add(key, not)
    }

    fn evict(
        &mut self,
        bound: u64,
        key_heap: usize,
        size: &dyn Fn(&K) -> u32,
        poll: &mut Poll,
    ) -> Option<Result<u64>> {
        Some(evict(self.values, bound, key_heap, size, poll))
    }
}

/// Keys of a fixed number of words, as a `Fresh` table stores them.
pub trait Packed: Copy + Eq + Hash {
    const WORDS: usize;
    fn word(&self, i: usize) -> u64;
    fn from_words(word: impl Fn(usize) -> u64) -> Self;
}

impl Packed for u64 {
    const WORDS: usize = 1;

    fn word(&self, _: usize) -> u64 {
        *self
    }

    fn from_words(word: impl Fn(usize) -> u64) -> Self {
        word(0)
    }
}

/// What searches on different threads learn, entered and read at once without
/// locks: slots of atomic words, replaced by twice as many as they fill.
///
/// The values: open addressing, each slot a head word (0: empty; `BUSY`: being
/// written; `READY` and the value) and the key's words, written once. A reader
/// trusts a key's words only after it has seen its head `READY` (release and
/// acquire), so a value is never read for the wrong key. A table half full is
/// copied into one twice as large by one thread; entered into the old one meanwhile,
/// a value may be lost, which costs a search again, never a wrong value.
///
/// The refuted values: a cache, one slot a key, each slot a sequence word (odd while
/// written), the values refuted and the key; a reader keeps what it read only if the
/// sequence word is even and unchanged after reading (a sequence lock), so a key
/// never gets another's refuted values. A writer that finds a slot being written
/// gives up: a cache may forget.
pub struct Fresh<K> {
    values: Growing,
    /// On a cache line of its own: every value entered writes it, and the words
    /// every look-up reads must not share its line.
    len: Padded<AtomicUsize>,
    refuted: Growing,
    /// The hashes of keys searches are on now, a slot each (a newer one taking an
    /// older one's place): a search about to start on one of them may put it off
    /// and ask about other options first, rather than search it a second time.
    busy: Box<[AtomicU64]>,
    key: PhantomData<K>,
}

/// The slots of `Fresh::busy`.
const BUSY_SLOTS: usize = 1 << 12;

/// A user's hold on a table's slots, and the refuted values it has kept since the
/// cache last grew.
struct Holds {
    values: Held,
    refuted: Held,
    refuted_added: usize,
}

/// A value alone on its cache line (two lines: a neighbouring line may be fetched
/// with it).
#[derive(Debug)]
#[repr(align(128))]
struct Padded<T>(T);

const READY: u64 = 1 << 63;
const BUSY: u64 = 1 << 62;

/// The slots of a new table's values and refuted values.
const FIRST_SLOTS: usize = 1 << 8;

/// Slots of atomic words: each a head word and `stride - 1` words after it.
#[derive(Debug)]
struct Slots {
    words: Box<[AtomicU64]>,
    stride: usize,
    /// The bits of a key's hash that pick its slot: the top `64 - shift`.
    shift: u32,
}

impl Slots {
    /// `slots` empty slots (a power of two).
    fn new(slots: usize, stride: usize) -> Result<Arc<Self>> {
        let len = slots
            .checked_mul(stride)
            .ok_or_else(|| alloc::too_large::<AtomicU64>(usize::MAX))?;
        let mut words = alloc::with_capacity(len)?;
        words.resize_with(len, || AtomicU64::new(0));
        Ok(Self::of(words.into_boxed_slice(), stride))
    }

    /// The first slots of a table: a few, allocated as any small value is.
    fn first(stride: usize) -> Arc<Self> {
        Self::of(
            (0..FIRST_SLOTS * stride)
                .map(|_| AtomicU64::new(0))
                .collect(),
            stride,
        )
    }

    fn of(words: Box<[AtomicU64]>, stride: usize) -> Arc<Self> {
        let slots = words.len() / stride;
        Arc::new(Slots {
            words,
            stride,
            shift: 64 - slots.trailing_zeros(),
        })
    }

    fn len(&self) -> usize {
        self.words.len() / self.stride
    }

    fn bytes(&self) -> u64 {
        std::mem::size_of_val(&*self.words) as u64
    }

    /// The slot where `hash`'s search starts.
    fn start(&self, hash: u64) -> usize {
        (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn head(&self, slot: usize) -> &AtomicU64 {
        &self.words[slot * self.stride]
    }

    /// Word `j` after slot `slot`'s head.
    fn word(&self, slot: usize, j: usize) -> &AtomicU64 {
        &self.words[slot * self.stride + 1 + j]
    }

    /// Whether the words from `from` on in `slot` are `key`'s.
    fn holds<K: Packed>(&self, slot: usize, from: usize, key: &K) -> bool {
        (0..K::WORDS).all(|j| self.word(slot, from + j).load(Ordering::Relaxed) == key.word(j))
    }

    fn store<K: Packed>(&self, slot: usize, from: usize, key: &K) {
        for j in 0..K::WORDS {
            self.word(slot, from + j)
                .store(key.word(j), Ordering::Relaxed);
        }
    }

    fn key<K: Packed>(&self, slot: usize, from: usize) -> K {
        K::from_words(|j| self.word(slot, from + j).load(Ordering::Relaxed))
    }

    /// The value of `key` (its hash `hash`), if entered.
    fn find<K: Packed>(&self, key: &K, hash: u64) -> Option<u32> {
        let mask = self.len() - 1;
        let mut slot = self.start(hash);
        for _ in 0..self.len() {
            let head = self.head(slot).load(Ordering::Acquire);
            if head == 0 {
                return None;
            }
            if head & READY != 0 && self.holds(slot, 0, key) {
                return Some(head as u32);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// Enter the value of `key`: whether it took a slot (not if it was there, or no
    /// slot was free).
    fn put<K: Packed>(&self, key: &K, hash: u64, value: u32) -> bool {
        let mask = self.len() - 1;
        let mut slot = self.start(hash);
        for _ in 0..self.len() {
            let head = self.head(slot);
            match head.compare_exchange(0, BUSY, Ordering::Acquire, Ordering::Acquire) {
                Ok(_) => {
                    self.store(slot, 0, key);
                    head.store(READY | u64::from(value), Ordering::Release);
                    return true;
                }
                Err(seen) if seen & READY != 0 && self.holds(slot, 0, key) => return false,
                Err(_) => slot = (slot + 1) & mask,
            }
        }
        false
    }

    /// The values `key` was shown not to have, if its slot holds them.
    fn refuted<K: Packed>(&self, key: &K, hash: u64) -> Option<u64> {
        let slot = self.start(hash);
        let head = self.head(slot);
        let sequence = head.load(Ordering::Acquire);
        if sequence == 0 || sequence & 1 == 1 {
            return None;
        }
        let not = self.word(slot, 0).load(Ordering::Relaxed);
        let same = self.holds(slot, 1, key);
        fence(Ordering::Acquire);
        (head.load(Ordering::Relaxed) == sequence && same).then_some(not)
    }

    /// Keep that `key` has none of the values of `not`: whether it was kept.
    fn refute<K: Packed>(&self, key: &K, hash: u64, not: u64) -> bool {
        let slot = self.start(hash);
        let head = self.head(slot);
        let sequence = head.load(Ordering::Relaxed);
        if sequence & 1 == 1
            || head
                .compare_exchange(sequence, sequence + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return false;
        }
        fence(Ordering::Release);
        let mut all = not;
        if sequence != 0 && self.holds(slot, 1, key) {
            all |= self.word(slot, 0).load(Ordering::Relaxed);
        } else {
            self.store(slot, 1, key);
        }
        self.word(slot, 0).store(all, Ordering::Relaxed);
        head.store(sequence + 2, Ordering::Release);
        true
    }
}

/// Slots replaced by larger ones as they fill: a user holds the slots it last saw,
/// and takes the newest once the generation has changed.
#[derive(Debug)]
struct Growing {
    newest: Mutex<Arc<Slots>>,
    generation: AtomicUsize,
    growing: Mutex<()>,
}

/// A user's hold on a `Growing`'s slots.
struct Held {
    slots: Arc<Slots>,
    generation: usize,
}

impl Growing {
    fn new(stride: usize) -> Self {
        Growing {
            newest: Mutex::new(Slots::first(stride)),
            generation: AtomicUsize::new(0),
            growing: Mutex::new(()),
        }
    }

    fn newest(&self) -> Arc<Slots> {
        Arc::clone(&self.newest.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn hold(&self) -> Held {
        let generation = self.generation.load(Ordering::Acquire);
        Held {
            slots: self.newest(),
            generation,
        }
    }

    #[inline]
    fn refresh(&self, held: &mut Held) {
        let generation = self.generation.load(Ordering::Acquire);
        if generation != held.generation {
            *held = self.hold();
        }
    }

    /// Replace the slots by those `copy` makes of them (None: leave them, another
    /// thread has grown them), one thread at a time: a thread that would grow them
    /// while another does waits, rather than enter values in slots being copied.
    fn grow(&self, copy: impl FnOnce(&Slots) -> Result<Option<Arc<Slots>>>) -> Result<()> {
        let _growing = self.growing.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slots) = copy(&self.newest())? {
            *self.newest.lock().unwrap_or_else(PoisonError::into_inner) = slots;
            self.generation.fetch_add(1, Ordering::Release);
        }
        Ok(())
    }
}

impl<K: Packed> Default for Fresh<K> {
    fn default() -> Self {
        Fresh {
            values: Growing::new(1 + K::WORDS),
            len: Padded(AtomicUsize::new(0)),
            refuted: Growing::new(2 + K::WORDS),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            key: PhantomData,
        }
    }
}

impl<K: Packed> Fresh<K> {
    /// Every value entered (through `&mut`: no search is using the table).
    pub fn entries(&mut self) -> impl Iterator<Item = (K, u32)> {
        let slots = self.values.newest();
        (0..slots.len()).filter_map(move |slot| {
            let head = slots.head(slot).load(Ordering::Acquire);
            (head & READY != 0).then(|| (slots.key(slot, 0), head as u32))
        })
    }

    /// How many values were entered.
    pub fn count(&self) -> usize {
        self.len.0.load(Ordering::Relaxed)
    }

    /// The slot of `key` among `busy`, and its mark there (never 0).
    fn busy_slot(&self, key: &K) -> (&AtomicU64, u64) {
        let hash = fx_hash(key) | 1;
        let slot = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_SLOTS.trailing_zeros());
        (&self.busy[slot as usize], hash)
    }

    fn hold(&self) -> Holds {
        Holds {
            values: self.values.hold(),
            refuted: self.refuted.hold(),
            refuted_added: 0,
        }
    }

    fn get(&self, holds: &mut Holds, key: &K) -> Option<u32> {
        self.values.refresh(&mut holds.values);
        holds.values.slots.find(key, fx_hash(key))
    }

    fn bytes(&self) -> u64 {
        self.values.newest().bytes() + self.refuted.newest().bytes()
    }

    /// Whether entering one more value makes the values' slots grow.
    fn full(&self, holds: &Holds) -> bool {
        (self.len.0.load(Ordering::Relaxed) + 1) * 2 > holds.values.slots.len()
    }

    fn bytes_with(&self, holds: &mut Holds) -> u64 {
        self.values.refresh(&mut holds.values);
        let grown = if self.full(holds) {
            holds.values.slots.bytes()
        } else {
            0
        };
        holds.values.slots.bytes() + holds.refuted.slots.bytes() + grown
    }

    fn enter(&self, holds: &mut Holds, key: K, value: u32) -> Result<()> {
        self.values.refresh(&mut holds.values);
        if self.full(holds) {
            let seen = holds.values.slots.len();
            self.values.grow(|old| {
                if old.len() > seen {
                    return Ok(None);
                }
                let new = Slots::new(old.len() * 2, old.stride)?;
                let mut copied = 0;
                for slot in 0..old.len() {
                    let head = old.head(slot).load(Ordering::Acquire);
                    if head & READY != 0 {
                        let key: K = old.key(slot, 0);
                        copied += usize::from(new.put(&key, fx_hash(&key), head as u32));
                    }
                }
                self.len.0.store(copied, Ordering::Relaxed);
                Ok(Some(new))
            })?;
            self.values.refresh(&mut holds.values);
        }
        let slots = &holds.values.slots;
        // Another thread copying them: past 7/8 full, the value is not kept.
        if self.len.0.load(Ordering::Relaxed) * 8 < slots.len() * 7
            && slots.put(&key, fx_hash(&key), value)
        {
            self.len.0.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    fn refuted(&self, holds: &mut Holds, key: &K) -> Option<u64> {
        self.refuted.refresh(&mut holds.refuted);
        holds.refuted.slots.refuted(key, fx_hash(key))
    }

    fn refute(&self, holds: &mut Holds, key: K, not: u64) -> Result<()> {
        self.refuted.refresh(&mut holds.refuted);
        let slots = &holds.refuted.slots;
        holds.refuted_added += usize::from(slots.refute(&key, fx_hash(&key), not));
        if holds.refuted_added > 2 * slots.len() && slots.len() < REFUTED {
            let seen = slots.len();
            self.refuted.grow(|old| {
                if old.len() > seen {
                    return Ok(None);
                }
                let new = Slots::new(old.len() * 2, old.stride)?;
                for slot in 0..old.len() {
                    let key: K = old.key(slot, 1);
                    let hash = fx_hash(&key);
                    if let Some(not) = old.refuted(&key, hash) {
                        new.refute(&key, hash, not);
                    }
                }
                Ok(Some(new))
            })?;
            holds.refuted_added = 0;
        }
        Ok(())
    }
}

/// What one of several searches on different threads reads and enters: a map of
/// values none enters in, and what they learn.
pub struct Frozen<'a, K> {
    map: &'a FxHashMap<K, u32>,
    fresh: &'a Fresh<K>,
    holds: Holds,
}

impl<'a, K: Packed> Frozen<'a, K> {
    pub fn new(map: &'a FxHashMap<K, u32>, fresh: &'a Fresh<K>) -> Self {
        Frozen {
            map,
            fresh,
            holds: fresh.hold(),
        }
    }
}

impl<K: Packed> Values<K> for Frozen<'_, K> {
    #[inline]
    fn get(&mut self, key: &K) -> Option<u32> {
        // A search from scratch leaves the map empty: no hashing it.
        match self.map.is_empty() {
            false => match self.map.get(key) {
                Some(&v) => Some(v),
                None => self.fresh.get(&mut self.holds, key),
            },
            true => self.fresh.get(&mut self.holds, key),
        }
    }

    fn count(&self) -> usize {
        self.map.len() + self.fresh.count()
    }

    fn bytes(&self) -> u64 {
        layout::<K, u32>(self.map.capacity()) + self.fresh.bytes()
    }

    fn bytes_with(&mut self, _key: &K) -> u64 {
        layout::<K, u32>(self.map.capacity()) + self.fresh.bytes_with(&mut self.holds)
    }

    fn enter(&mut self, key: K, value: u32) -> Result<()> {
        self.fresh.enter(&mut self.holds, key, value)
    }

    fn refuted(&mut self, key: &K) -> Option<u64> {
        self.fresh.refuted(&mut self.holds, key)
    }

    fn refute(&mut self, key: K, not: u64) -> Result<()> {
        self.fresh.refute(&mut self.holds, key, not)
    }

    fn busy(&mut self, key: &K) -> bool {
        // A part is never its own option: a mark is another search's.
        let (slot, mark) = self.fresh.busy_slot(key);
        slot.load(Ordering::Relaxed) == mark
    }

    fn searching(&mut self, key: &K, on: bool) {
        let (slot, mark) = self.fresh.busy_slot(key);
        if on {
            slot.store(mark, Ordering::Relaxed);
        } else {
            let _ = slot.compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

fn fx_hash<K: Hash>(key: &K) -> u64 {
    let mut hasher = FxHasher::default();
    key.hash(&mut hasher);
    hasher.finish()
}

/// Room in `map`, full for a search bounded by `bound` bytes: the values of the
/// largest components by `size` (the costliest to find again) are kept, as many as
/// half fill a map of half the bound (its keys holding `key_heap` bytes each on the
/// heap), the others dropped, and the map's buckets shrunk to what it holds. Any
/// value may go: the pruned search never reads back an entry it relies on. The sizes
/// of the values kept, summed: a measure of the search's progress, which no eviction
/// lowers (the largest are kept). Polls `poll` (a pass over gigabytes takes
/// seconds): a map left part pruned is still a sound one.
pub fn evict<K: Eq + Hash, V>(
    map: &mut FxHashMap<K, V>,
    bound: u64,
    key_heap: usize,
    size: impl Fn(&K) -> u32,
    poll: &mut Poll,
) -> Result<u64> {
    let capacity = |buckets: usize| buckets / 8 * 7;
    let bytes = |buckets: usize| {
        let heap = (capacity(buckets) as u64).saturating_mul(key_heap as u64);
        layout::<K, V>(capacity(buckets)).saturating_add(heap)
    };
    let mut buckets = 8usize;
    while buckets < usize::MAX / 4 && bytes(buckets * 2) <= bound / 2 {
        buckets *= 2;
    }
    let keep = capacity(buckets) / 2;
    // How many entries of each size: then the smallest size kept whole (`least`), as
    // those of it and above fit in `keep`.
    let largest = map.keys().map(&size).max().unwrap_or(0) as usize;
    let mut sizes = alloc::filled(largest + 1, 0usize)?;
    for key in map.keys() {
        poll.tick()?;
        sizes[size(key) as usize] += 1;
    }
    let (mut least, mut above) = (sizes.len(), 0);
    while least > 0 && above + sizes[least - 1] <= keep {
        least -= 1;
        above += sizes[least];
    }
    // Of the next size down, the first met fill what is left.
    let mut ties = keep - above;
    let mut stopped = Ok(());
    map.retain(|key, _| {
        let s = size(key) as usize;
        if s >= least || stopped.is_err() {
            return true;
        }
        stopped = poll.tick();
        let kept = s + 1 == least && ties > 0;
        ties -= usize::from(kept);
        kept
    });
    stopped?;
    let mut smaller = FxHashMap::default();
    smaller
        .try_reserve(map.len())
        .map_err(|_| alloc::too_large::<(K, V)>(map.len()))?;
    smaller.extend(map.drain());
    *map = smaller;
    Ok(map.keys().map(|k| u64::from(size(k))).sum())
}

/// Values components were shown not to have, by a search that stopped short of the
/// value: a cache, a newer entry taking an older one's place, that grows with use
/// up to a bound.
#[derive(Debug)]
struct Refuted<K> {
    slots: Vec<Option<(K, u64)>>,
    added: usize,
    most: usize,
}

/// The most entries of the caches of refuted values a search holds, and the fewest
/// of a private one (powers of two).
const REFUTED: usize = 1 << 18;
const REFUTED_FIRST: usize = 1 << 8;

impl<K: Eq + Hash> Refuted<K> {
    /// A cache of `first` entries, growing to `most`.
    fn new(first: usize, most: usize) -> Result<Self> {
        Ok(Refuted {
            slots: Self::empty(first)?,
            added: 0,
            most,
        })
    }

    fn empty(len: usize) -> Result<Vec<Option<(K, u64)>>> {
        let mut slots = alloc::with_capacity(len)?;
        slots.resize_with(len, || None);
        Ok(slots)
    }

    fn slot(&self, key: &K) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (fx_hash(key).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    fn get(&self, key: &K) -> Option<u64> {
        match &self.slots[self.slot(key)] {
            Some((k, not)) if k == key => Some(*not),
            _ => None,
        }
    }

    fn add(&mut self, key: K, not: u64) -> Result<()> {
        let slot = self.slot(&key);
        match &mut self.slots[slot] {
            Some((k, old)) if *k == key => *old |= not,
            entry => *entry = Some((key, not)),
        }
        self.added += 1;
        if self.added > 2 * self.slots.len() && self.slots.len() < self.most {
            let bigger = Self::empty(2 * self.slots.len())?;
            let old = std::mem::replace(&mut self.slots, bigger);
            for (key, not) in old.into_iter().flatten() {
                let slot = self.slot(&key);
                self.slots[slot] = Some((key, not));
            }
            self.added = 0;
        }
        Ok(())
    }
}

/// How many new table entries between two reports of progress.
pub const REPORT_EVERY: usize = 1 << 12;

/// Enter what a search learned (in room made by `Spend::room`), reporting the
/// table's size now and then.
pub fn remember<K: std::hash::Hash + Eq, V>(
    table: &mut FxHashMap<K, V>,
    key: K,
    value: V,
    report: &(dyn Fn(usize) + Sync),
) {
    table.insert(key, value);
    if table.len().is_multiple_of(REPORT_EVERY) {
        report(table.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eviction keeps the values of the largest components, as many as half fill a
    /// map of half the bound, and the map then takes no more than that.
    #[test]
    fn eviction_keeps_the_largest() {
        let size = |k: &u64| k.count_ones();
        for (entries, bound, key_heap) in [(100_000u64, 1u64 << 20, 0), (5000, 1 << 16, 24)] {
            let mut map: FxHashMap<u64, u32> = (0..entries).map(|k| (k * 7919, 1)).collect();
            let all = map.clone();
            let kept = evict(&mut map, bound, key_heap, size, &mut Poll::default()).unwrap();
            assert_eq!(kept, map.keys().map(|k| u64::from(size(k))).sum::<u64>());
            let least = map.keys().map(size).min().unwrap();
            let dropped = all.keys().filter(|k| !map.contains_key(k));
            assert!(dropped.map(size).all(|s| s <= least));
            let full = 2 * map.len();
            let bytes = layout::<u64, u32>(full) + (full * key_heap) as u64;
            assert!(bytes <= bound / 2, "{bytes} {}", map.len());
            assert!(bytes > bound / 8, "{bytes} {}", map.len());
            assert!(layout::<u64, u32>(map.capacity()) <= bound / 2);
        }
    }

    /// The bytes counted are those hashbrown holds: the layout of the capacity it
    /// has once it grows, as `bytes_with` foresaw it; the fresh table's, the slots it
    /// holds once it grows.
    #[test]
    fn bytes_foreseen_are_the_bytes_held() {
        let mut map: FxHashMap<u64, u32> = FxHashMap::default();
        let mut plain = Private::new(&mut map).unwrap();
        for key in 1..100_000u64 {
            let foreseen = plain.bytes_with(&key);
            plain.enter(key, 1).unwrap();
            assert_eq!(foreseen, plain.bytes(), "{key}");
        }
        let (map, mut fresh) = (FxHashMap::from_iter([(7, 3)]), Fresh::default());
        let mut frozen = Frozen::new(&map, &fresh);
        for key in 10..100_000u64 {
            let foreseen = frozen.bytes_with(&key);
            frozen.enter(key, (key % 7) as u32).unwrap();
            assert_eq!(foreseen, frozen.bytes(), "{key}");
        }
        assert_eq!(
            (frozen.count(), frozen.get(&7), frozen.get(&77)),
            (99_991, Some(3), Some(0))
        );
        assert_eq!(frozen.get(&100_000), None);
        assert_eq!(fresh.entries().count(), 99_990);
        assert!(fresh.entries().all(|(k, v)| v == (k % 7) as u32));
    }

    /// Two threads entering values and refuting at once, each reading the other's:
    /// a value read is the one entered for that key, refuted values are those kept
    /// for that key (or forgotten), and few values are lost as the slots grow.
    #[test]
    fn threads_share_what_they_learn() {
        let (map, mut fresh) = (FxHashMap::default(), Fresh::<u64>::default());
        let value = |k: u64| (k.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 59) as u32;
        let not = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let (map, fresh) = (&map, &fresh);
                scope.spawn(move || {
                    let mut mine = Frozen::new(map, fresh);
                    for k in 1..200_000u64 {
                        if k % 2 == t {
                            mine.enter(k, value(k)).unwrap();
                            mine.refute(k, not(k)).unwrap();
                        } else {
                            if let Some(v) = mine.get(&k) {
                                assert_eq!(v, value(k), "{k}");
                            }
                            if let Some(n) = mine.refuted(&k) {
                                assert_eq!(n, not(k), "{k}");
                            }
                        }
                    }
                });
            }
        });
        let entries: Vec<(u64, u32)> = fresh.entries().collect();
        assert!(entries.iter().all(|&(k, v)| v == value(k)));
        // Values are lost only by a thread entering them as the slots grow.
        assert!(entries.len() > 199_000, "{}", entries.len());
    }
}
