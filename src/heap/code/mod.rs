//! Take-and-break games given by a code (Winning Ways; CGSuite's `TakeAndBreak`).
//!
//! The code `d0.d1d2d3...` says, for each take `t`, what may be left of the heap:
//! bit 1 of `d_t` allows leaving nothing (taking the whole heap), bit 2 one nonempty
//! heap, bit 4 two nonempty heaps, bit 8 three (hexadecimal codes). `d0` is taking
//! nothing and splitting, so it may only have bits 4 and 8. A `!` asks the heaps left
//! to be pairwise different (Grundy's game is `4!.0`).
//!
//! Grundy values come from the definition (the mex over every option, an option's
//! value the XOR of the parts' values), on demand, cached in the rule. The sequence is
//! checked for a period as it grows; once proven, a heap of any size is O(1).
//!
//! What is proven (see `periodic::proven_period`): for codes without `!` whose moves leave at
//! most two heaps, the octal periodicity theorem (Guy and Smith): if
//! `G(n + p) = G(n)` for every `pre <= n < 2 pre + p + t` (`t` the largest take),
//! then for every `n >= pre`. The same argument with the largest of three parts
//! gives the bound `3 pre + 2 p + t` for codes that leave three heaps. With `!` the
//! argument fails (moving a part by `p` can make two parts equal), so no period is
//! claimed: values stop at `MAX_NAIVE_HEAP`.
mod equivalence;
mod options;
mod values;

pub use equivalence::{octal_equivalences, OctalClass, CLASSIFIED_HEAPS, MAX_CLASSIFIED_DIGITS};
pub use values::Statistics;

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock, Weak};

use super::periodic::Periodic;
use super::sparse::{Moves, SparseSpace};
use super::store::Store;
use crate::base::error::{Error, Result};

/// The most digits after the point (the largest take is one less).
pub const MAX_DIGITS: usize = 256;
/// Without a proven period, Grundy values are computed by the definition up to this
/// heap (O(n) work per value for two parts).
pub const MAX_NAIVE_HEAP: u64 = 1 << 16;
/// The same for codes that leave three heaps (O(n^2) work per value).
pub const MAX_NAIVE_HEAP_THREE: u64 = 1 << 11;
/// The most options of one heap that a search for winning moves looks through.
pub const MAX_SCANNED_OPTIONS: u64 = 1 << 24;

const NONE: u8 = 1;
const ONE: u8 = 2;
const TWO: u8 = 4;
const THREE: u8 = 8;

/// How a search for moves looks through the options of a heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Every option; past `MAX_SCANNED_OPTIONS` of them, one of each class where a
    /// period gives classes (callers that promise every move refuse such heaps).
    Every,
    /// One option of each class wherever a period gives classes: enough for the
    /// first winning move, from heaps of any size at once.
    First,
}

/// A take-and-break rule and its Grundy sequence, computed on demand.
pub struct TakeAndBreak {
    /// `digits[t]`: what taking `t` may leave.
    digits: Vec<u8>,
    /// The heaps left must be pairwise different.
    distinct: bool,
    /// Grundy values of heaps `0..len`, and how the next ones are found.
    sequence: RwLock<Sequence>,
    /// Set once a period is proven.
    periodic: OnceLock<Periodic>,
    /// What other modules work out about this code and keep with it (`attached`), so
    /// that it goes when the rule goes.
    attached: OnceLock<Box<dyn Any + Send + Sync>>,
}

/// How Grundy values are found. Both give the same values; the naive method is the
/// reference, and a second computation to check the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The definition: the mex over every option.
    Naive,
    /// The sparse-space method where it applies (codes that split into at most two
    /// heaps), else the definition.
    Auto,
}

/// The values computed so far and the state of their computation.
#[derive(Debug)]
struct Sequence {
    values: Store,
    /// The sparse-space method, for codes that leave at most two heaps and split.
    sparse: Option<SparseSpace>,
    /// When to look for a period next (a count of values).
    next_check: usize,
    /// False for a second computation, which must not take values from a period.
    seeks_period: bool,
}

impl TakeAndBreak {
    /// Parse a code such as `0.77`, `0.07`, `4!.0`, `0.8` or `0.f3`.
    pub fn parse(code: &str) -> Result<Self> {
        let bad = |reason: String| Error::BadCode {
            code: shortened(code),
            reason,
        };
        let text = code.trim();
        if text.is_empty() {
            return Err(bad("the code is empty; write it like 0.77 (Kayles)".into()));
        }
        let distinct = text.contains('!');
        let placed = text.contains("!.") || text.ends_with('!');
        if text.matches('!').count() > 1 || (distinct && !placed) {
            return Err(bad(
                "`!` stands once, just before the point or at the end (Grundy's game is \
                 4!.0)"
                    .into(),
            ));
        }
        let text = text.replace('!', "");
        let Some((before, after)) = text.split_once('.') else {
            return Err(bad(
                "a code has a point: the digit before it is for taking nothing, the \
                 digits after it for taking 1, 2, ... (e.g. 0.77)"
                    .into(),
            ));
        };
        let digit = |c: char| {
            c.to_digit(16)
                .map(|d| d as u8)
                .ok_or_else(|| bad(format!("{c:?} is not a hexadecimal digit")))
        };
        let d0 = match before {
            "" => 0,
            _ if before.chars().count() == 1 => digit(before.chars().next().unwrap_or('0'))?,
            _ => return Err(bad("one digit may stand before the point".into())),
        };
        if d0 & (NONE | ONE) != 0 {
            return Err(bad(format!(
                "the digit before the point (taking nothing) may only split a heap: \
                 0, 4, 8 or c, not {d0:x}"
            )));
        }
        let mut digits = vec![d0];
        for c in after.chars() {
            digits.push(digit(c)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_DIGITS + 1 {
            return Err(bad(format!("at most {MAX_DIGITS} digits after the point")));
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(bad("it allows no move at all".into()));
        }
        let mut rule = TakeAndBreak {
            digits,
            distinct,
            sequence: RwLock::new(Sequence {
                values: Store::from_values(&[0]),
                sparse: None,
                next_check: 256,
                seeks_period: true,
            }),
            periodic: OnceLock::new(),
            attached: OnceLock::new(),
        };
        rule.set_method(Method::Auto);
        Ok(rule)
    }

    /// The same rule with no value computed, finding values by `method` and never
    /// looking for a period: a second, independent computation of the sequence (to
    /// check a first one, or a certificate).
    pub fn fresh(&self, method: Method) -> Self {
        let mut rule = TakeAndBreak {
            digits: self.digits.clone(),
            distinct: self.distinct,
            sequence: RwLock::new(Sequence {
                values: Store::from_values(&[0]),
                sparse: None,
                next_check: usize::MAX,
                seeks_period: false,
            }),
            periodic: OnceLock::new(),
            attached: OnceLock::new(),
        };
        rule.set_method(method);
        rule
    }

    fn set_method(&mut self, method: Method) {
        let sparse = match method {
            Method::Naive => false,
            Method::Auto => self.splits() && !self.leaves_three(),
        };
        let space = sparse.then(|| SparseSpace::new(self.moves()));
        let sequence = self
            .sequence
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        sequence.sparse = space;
    }

    /// What another module keeps with this rule (the misère quotient and its
    /// computation: `misere::Kept`), made on first use. This module does not know its
    /// type, so that the dependency runs one way; one type is attached per rule.
    pub fn attached<T: Any + Send + Sync + Default>(&self) -> &T {
        self.attached
            .get_or_init(|| Box::<T>::default())
            .downcast_ref()
            .expect("one type is attached to a rule")
    }

    /// The takes that leave nothing, one heap and two heaps.
    pub fn moves(&self) -> Moves {
        let takes = |bit: u8| -> Vec<usize> {
            let digits = self.digits.iter().enumerate();
            digits
                .filter(|&(_, &d)| d & bit != 0)
                .map(|(t, _)| t)
                .collect()
        };
        Moves {
            whole: takes(NONE),
            reduce: takes(ONE),
            split: takes(TWO),
            distinct: self.distinct,
        }
    }

    /// The rule of `code`, shared with every other user of the same code (in any
    /// spelling) while one holds it, so that the values one computes serve all.
    pub fn shared(code: &str) -> Result<Arc<Self>> {
        static RULES: Mutex<Option<HashMap<String, Weak<TakeAndBreak>>>> = Mutex::new(None);
        let rule = TakeAndBreak::parse(code)?;
        let mut rules = RULES.lock().unwrap_or_else(PoisonError::into_inner);
        let rules = rules.get_or_insert_with(HashMap::new);
        if let Some(existing) = rules.get(&rule.code()).and_then(Weak::upgrade) {
            return Ok(existing);
        }
        rules.retain(|_, rule| rule.strong_count() > 0);
        let rule = Arc::new(rule);
        rules.insert(rule.code(), Arc::downgrade(&rule));
        Ok(rule)
    }

    /// The code of a subtraction game: take any element of `set` from a heap
    /// (digit 3 at each element: leave nothing or one heap). `None` when an element
    /// is past `MAX_DIGITS`.
    pub fn subtraction_code(set: &[u64]) -> Option<String> {
        let top = usize::try_from(*set.iter().max()?).ok()?;
        if top > MAX_DIGITS {
            return None;
        }
        let mut digits = vec![b'0'; top];
        for &t in set {
            digits[t as usize - 1] = b'3';
        }
        Some(format!("0.{}", String::from_utf8(digits).ok()?))
    }

    /// The code in canonical form (`4!.0`, `0.77`): parsing it gives equal rules.
    pub fn code(&self) -> String {
        let mut text = format!("{:x}", self.digits[0]);
        if self.distinct {
            text.push('!');
        }
        text.push('.');
        let after: String = self.digits[1..].iter().map(|d| format!("{d:x}")).collect();
        text.push_str(if after.is_empty() { "0" } else { &after });
        text
    }

    /// The largest take (0 when the only moves split without taking).
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64 - 1
    }

    /// Whether some move leaves more than one heap.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|&d| d & (TWO | THREE) != 0)
    }

    fn leaves_three(&self) -> bool {
        self.digits.iter().any(|&d| d & THREE != 0)
    }

    /// The heaps left must be pairwise different (`!`).
    pub fn distinct(&self) -> bool {
        self.distinct
    }

    /// The largest heap whose value may be computed without a proven period.
    pub fn naive_limit(&self) -> u64 {
        if self.leaves_three() {
            MAX_NAIVE_HEAP_THREE
        } else {
            MAX_NAIVE_HEAP
        }
    }
}

/// A code as an error quotes it: a long one cut to its first characters.
fn shortened(code: &str) -> String {
    const SHOWN: usize = 40;
    match code.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}...", &code[..end]),
        None => code.to_string(),
    }
}

impl PartialEq for TakeAndBreak {
    fn eq(&self, other: &Self) -> bool {
        (&self.digits, self.distinct) == (&other.digits, other.distinct)
    }
}

impl Eq for TakeAndBreak {}

impl std::hash::Hash for TakeAndBreak {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.digits, self.distinct).hash(state);
    }
}

impl fmt::Debug for TakeAndBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TakeAndBreak({:?})", self.code())
    }
}
