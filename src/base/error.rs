//! The one error type of the core; `src/python/errors.rs` maps it to Python exceptions.
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    #[error("take limit must be at least 1, got 0{}", heap_suffix(*.heap))]
    ZeroTakeLimit { heap: Option<usize> },

    #[error("{limits} per-heap take limits given for {heaps} heaps; give one per heap")]
    LimitCount { limits: usize, heaps: usize },

    #[error("illegal move: there is no heap {heap} (the position has {heaps} heaps)")]
    NoSuchHeap { heap: usize, heaps: usize },

    #[error("illegal move: a move must take at least 1 object")]
    TakeNothing,

    #[error("illegal move: cannot take {take} from heap {heap}, which has only {size}")]
    TakeTooMany { heap: usize, take: u64, size: u64 },

    #[error("illegal move: cannot take {take} from heap {heap}; the rules allow at most {limit}")]
    OverLimit { heap: usize, take: u64, limit: u64 },

    #[error(
        "illegal move: cannot take {take} from heap {heap}; the rules allow only {}",
        set_text(set)
    )]
    NotInSet {
        heap: usize,
        take: u64,
        set: Vec<u64>,
    },

    #[error("illegal move: the game is over")]
    GameOver,

    #[error("illegal move: that game is not an option of the position")]
    NotAGameOption,

    #[error("there are two players, 0 and 1; got {0}")]
    NoSuchPlayer(u8),

    #[error("error_rate must be between 0 and 1, got {0}")]
    ErrorRate(f64),

    #[error("a subtraction set needs at least one element")]
    EmptySet,

    #[error("a subtraction set holds positive integers; 0 is not a move")]
    ZeroInSet,

    #[error("subtraction set element {0} is too large (at most 2**20)")]
    SetElementTooLarge(u64),

    #[error("a subtraction set of {0} elements is too large (at most 4096)")]
    SetTooLarge(usize),

    #[error("no period found within the first {searched} Grundy values; raise max_length")]
    NoPeriod { searched: usize },

    #[error("heap arrays need at least one dimension: the last axis holds the heaps")]
    NoHeapAxis,

    #[error("out has shape {got:?}, but the positions have shape {expected:?}")]
    OutShape {
        expected: Vec<usize>,
        got: Vec<usize>,
    },

    #[error(
        "position {} has a negative heap: heap {heap} is {value}",
        index_text(position)
    )]
    NegativeHeap {
        position: Vec<usize>,
        heap: usize,
        value: i128,
    },

    #[error("the box holds {positions} positions, over the limit of {limit} (raise max_positions to allow more)")]
    BoxTooLarge { positions: u128, limit: u64 },

    #[error(
        "misère play of these subtraction sets has no closed form; solving by search \
         needs the {positions} positions of the box {bounds:?}, over max_positions = {limit} \
         (raise max_positions to allow it)"
    )]
    SearchTooLarge {
        bounds: Vec<u64>,
        positions: u128,
        limit: u64,
    },

    #[error("misère play of subtraction sets other than {{1..k}} has no closed form; search it")]
    NoClosedForm,

    #[error("{0} is for Nim and take limits, not subtraction sets")]
    NotForSets(&'static str),

    #[error("{heaps} heaps are more than the {limit} a P-position table is made for")]
    TooManyHeaps { heaps: usize, limit: usize },

    #[error(
        "counting the P-positions of this box would track more than {limit} partial \
         XORs (with take limits, bounds that differ from heap to heap make the count \
         grow exponentially with the number of heaps); count fewer heaps, or give \
         them equal bounds"
    )]
    CountTooHard { limit: usize },

    #[error("interrupted")]
    Interrupted,

    /// A search on one of several threads that wound up because the work it was part
    /// of ended (another thread's answer or error): never the user's asking to stop.
    #[error("abandoned: the work this search was part of ended")]
    Abandoned,

    /// A search unwinding at the time it was given to pause at, as it does on Ctrl-C:
    /// no answer and no failure, for the entry point that set the time answers
    /// `split::budget::Step::Paused` with `made_room` (whether it had made room in
    /// its table by eviction in this step).
    #[error("paused: the search ran for the time it was given")]
    Paused { made_room: bool },

    /// A memory bound asked of a game none of whose searches holds one.
    #[error(
        "no search of a {0} game holds to a memory bound: only the games on graphs and boards do"
    )]
    Unbounded(&'static str),

    #[error("this checkpoint does not fit this game: {0}")]
    Checkpoint(String),

    /// Work laid out for a cluster (`games::top`) of a game that does not split.
    #[error(
        "a {0} game does not split into parts: only the games on graphs and boards and \
         Sprouts are searched on a cluster"
    )]
    NoParts(&'static str),

    #[error("the top of a search laid out for a cluster is 1 to {most} moves deep, not {asked}")]
    TopDepth { most: u32, asked: u64 },

    #[error(
        "the top of this search, {depth} moves deep, holds more than {most} parts: \
         ask a smaller depth"
    )]
    TopTooLarge { depth: u32, most: usize },

    #[error("{0}")]
    TopAnswers(String),

    /// What a search found does not hold together: a defect of nimkit's.
    #[error("nimkit found its own results inconsistent ({0}): please report it")]
    Inconsistent(&'static str),

    #[error(
        "the search would hold about {needed} bytes, more than max_memory = {bound} \
         (its table has {entries} entries): raise max_memory, or ask about a smaller \
         position"
    )]
    MemoryBound {
        needed: u64,
        bound: u64,
        entries: usize,
        /// Whether the search had made room in place (`Budget::evict`) before: then
        /// what it holds past the bound is its own stack, and asking again in the same
        /// bound cannot get further.
        made_room: bool,
    },

    #[error(
        "the Grundy value needs a table of {cells} positions, more than max_positions = \
         {limit} (raise max_positions to allow it)"
    )]
    TableTooLarge { cells: u128, limit: u64 },

    #[error("0 has no inverse{}: every nimber but 0 has one", index.map_or(String::new(), |i| format!(" (element {i})")))]
    NoInverse { index: Option<usize> },

    #[error("not enough memory for {bytes} bytes")]
    OutOfMemory { bytes: u128 },

    #[error("bad take-and-break code {code:?}: {reason}")]
    BadCode { code: String, reason: String },

    #[error("the values file {path}: {reason}")]
    ValuesFile { path: String, reason: String },

    #[error(
        "the values file {path} must end in .u8, .u16 or .u32: its extension names the \
         width of its values"
    )]
    ValuesFileName { path: String },

    #[error("these are not this code's Grundy values: heap {heap} differs from the definition")]
    NotTheseValues { heap: usize },

    #[error(
        "illegal move: heap {heap} of {size} cannot lose {take}{} under these rules",
        parts_text(into)
    )]
    NotAnOption {
        heap: usize,
        size: u64,
        take: u64,
        into: Vec<u64>,
    },

    #[error(
        "heap {heap} is out of reach for the code {code}: no period is proven within the \
         first {limit} heaps, the most computed on demand ({})",
        further(code, *heap, *provable)
    )]
    CodeHeapTooLarge {
        code: String,
        heap: u64,
        limit: u64,
        /// Whether the periodicity theorem can prove a period of this code.
        provable: bool,
    },

    #[error(
        "a heap of {heap} has {options} options, more than the {limit} that a search for \
         every winning move looks through; the outcome and the Grundy values need no such \
         search, and players and games find their moves among one option of each class of \
         equal values once a period is proven"
    )]
    TooManyOptions { heap: u64, options: u64, limit: u64 },

    #[error(
        "the code {code} splits heaps, so it must be the rule of every heap, \
         not of one heap among others"
    )]
    SplitPerHeap { code: String },

    #[error(
        "{0} is not available for take-and-break codes that split heaps; solve positions \
         one by one"
    )]
    NotForSplits(&'static str),

    #[error("{0} is for Nim and take limits, not take-and-break codes")]
    NotForCodes(&'static str),

    #[error(
        "{}needs more than max_positions = {limit} positions below {start:?} (raise \
         max_positions to allow it)",
        searched(*misere)
    )]
    MultisetSearchTooLarge {
        start: Vec<u64>,
        limit: u64,
        misere: bool,
    },

    #[error(
        "{}weighs more than {limit} moves below {start:?} (about 40 s of work; each \
         position of a total of n has about n options)",
        searched(*misere)
    )]
    MultisetTooManyMoves {
        start: Vec<u64>,
        limit: u64,
        misere: bool,
    },

    #[error(
        "the misère quotient could not be extended to heap {heap}: a candidate had at \
         least {size} elements, more than the {limit} allowed (the quotient may be infinite \
         or too large); heaps up to {} are solved",
        heap.saturating_sub(1)
    )]
    QuotientTooLarge {
        /// The heap being added (0 where a monoid is built; the solver fills it in).
        heap: usize,
        size: usize,
        limit: usize,
    },

    #[error(
        "the misère quotient could not be extended to heap {heap}: no candidate \
         presentation gave the right outcomes"
    )]
    QuotientNotFound { heap: usize },

    #[error(
        "heap {heap} is beyond the misère quotient, computed to heap {max_heap} with no \
         period proven; compute to a larger max_heap"
    )]
    BeyondQuotient { heap: u64, max_heap: usize },

    #[error("{search}; the misère quotient, which answers heaps of any size, did not: {quotient}")]
    NoQuotient {
        search: Box<Error>,
        quotient: Box<Error>,
    },

    #[error(
        "the remoteness of {heaps:?} needs every position it can reach, {positions} here, \
         more than max_positions = {limit} (raise max_positions to allow it)"
    )]
    RemotenessTooLarge {
        heaps: Vec<u64>,
        positions: u128,
        limit: u64,
    },

    #[error(
        "searching every position below {heaps:?} weighs {moves} moves ({why}), more \
         than the {limit} allowed"
    )]
    BoxTooManyMoves {
        heaps: Vec<u64>,
        moves: u128,
        limit: u128,
        /// How the moves add up under the rules asked about.
        why: String,
    },

    #[error(
        "the remoteness of {0:?} is not known: misère play of this position is answered \
         by the misère quotient, which knows outcomes, not game lengths"
    )]
    RemotenessFromQuotient(Vec<u64>),

    #[error(
        "a period of {period} from preperiod {preperiod} needs more values than can be \
         counted (the periodicity theorem needs about 2 * (preperiod + period))"
    )]
    ProofTooLong { preperiod: usize, period: usize },

    #[error(
        "the game reaches more than max_positions = {limit} positions (raise max_positions \
         to allow more)"
    )]
    GraphTooLarge { limit: u64 },

    #[error(
        "the game's positions have more than {limit} moves among them (a heap of n without \
         a take limit has about n**2 / 2 below it, a coin at row x, column y of Turning \
         Corners x * y); raise max_positions to allow more"
    )]
    GraphTooManyMoves { limit: u128 },

    #[error(
        "searching the sum in misère play weighs each part's moves once for every position \
         of the other parts, {moves} moves here, more than {limit} (raise max_positions to \
         allow more)"
    )]
    SumTooManyMoves { moves: u128, limit: u128 },

    #[error(
        "searching the sum in misère play needs the product of its parts' positions, \
         {positions} here, more than max_positions = {limit} (raise max_positions to allow \
         it)"
    )]
    SumTooLarge { positions: u128, limit: u64 },

    #[error(
        "the ending belongs to the question, not to the game: give the rules of normal \
         play and ask outcome(misere=True)"
    )]
    MisereComponent,

    #[error(
        "the position has {} options, more than the {limit} a game lists one by one: a \
         search (grundy(), misère play) needs them all; outcomes and winning moves come \
         from the theorems where there are",
        if *options == u128::MAX { "about 2**128".to_owned() } else { options.to_string() }
    )]
    TooManyGameOptions { options: u128, limit: u128 },

    #[error("{0}")]
    Callback(Foreign),

    #[error("checking a misère quotient candidate met more than {limit} states (heap {heap})")]
    QuotientCheckTooLarge { heap: usize, limit: usize },

    /// An error a family defines beside its rules (`games/moore.rs`'s `MooreError`,
    /// ...): the core carries it whole; Python raises a ValueError with its message.
    #[error(transparent)]
    Family(Family),
}

/// Marks a family's own error type: it converts into the core's `Error`, so the
/// family's file returns it with `?` and nothing here names it.
pub trait FamilyError: std::error::Error + Send + Sync + 'static {}

impl<E: FamilyError> From<E> for Error {
    fn from(err: E) -> Error {
        Error::Family(Family(std::sync::Arc::new(err)))
    }
}

/// A family's error, behind the one type the core returns.
#[derive(Clone)]
pub struct Family(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl Family {
    /// The family's own error, when it is of type `E`.
    pub fn downcast_ref<E: FamilyError>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Family {}

impl PartialEq for Family {
    /// Equal when they say the same: families' errors compare by their message.
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

/// An error raised outside the core (by a callback: a Python exception), carried
/// through it unchanged for the caller that knows its type to take back.
#[derive(Clone)]
pub struct Foreign {
    /// What the error says, for messages.
    pub message: String,
    pub payload: std::sync::Arc<dyn std::any::Any + Send + Sync>,
}

impl std::fmt::Display for Foreign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::fmt::Debug for Foreign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Foreign({:?})", self.message)
    }
}

impl PartialEq for Foreign {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.payload, &other.payload)
    }
}

impl Error {
    /// True for the errors that describe an illegal move (IllegalMoveError in Python).
    pub fn is_illegal_move(&self) -> bool {
        matches!(
            self,
            Error::NoSuchHeap { .. }
                | Error::TakeNothing
                | Error::TakeTooMany { .. }
                | Error::OverLimit { .. }
                | Error::NotInSet { .. }
                | Error::NotAnOption { .. }
                | Error::NotAGameOption
                | Error::GameOver
        )
    }
}

/// What a search over multisets of heaps is for, in normal or misère play.
fn searched(misere: bool) -> &'static str {
    if misere {
        "misère play of this take-and-break code has no closed form; solving it by search "
    } else {
        "in normal play of this take-and-break code, the Grundy values give outcomes, but \
         remoteness and solved boxes come from a search, which "
    }
}

/// How to reach a code's heap past what is computed on demand.
fn further(code: &str, heap: u64, provable: bool) -> String {
    if provable {
        format!(
            "TakeAndBreak({code:?}).period(max_heap=...) computes further and proves one if \
             it can"
        )
    } else {
        format!(
            "codes with ! prove no period; TakeAndBreak({code:?}).grundy_sequence({}) \
             computes the values that far",
            u128::from(heap) + 1
        )
    }
}

fn heap_suffix(heap: Option<usize>) -> String {
    heap.map(|h| format!(" for heap {h}")).unwrap_or_default()
}

fn set_text(set: &[u64]) -> String {
    let elements: Vec<String> = set.iter().map(u64::to_string).collect();
    format!("{{{}}}", elements.join(", "))
}

fn parts_text(into: &[u64]) -> String {
    match into {
        [] => String::new(),
        _ => format!(
            " and split into {}",
            into.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" + ")
        ),
    }
}

fn index_text(index: &[usize]) -> String {
    match index {
        [i] => i.to_string(),
        _ => format!("{index:?}"),
    }
}

pub type Result<T> = std::result::Result<T, Error>;
