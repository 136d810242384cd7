//! Games of any family for Python: one native handle (`NativeGame`) on a core game,
//! the constructors of each family, and the Python states and node names the core
//! never sees (kept here, attached to the core's games as opaque tags).
use std::sync::{Arc, Mutex, PoisonError, Weak};

use numpy::PyReadonlyArray2;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple};

use super::convert::py_outcome;
use super::convert::UInt;
use super::rules::PyRules;
use crate::base::error::{Error, Foreign};
use crate::games::defined::{Defined, Tag};
use crate::games::digraph::Digraph;
use crate::games::heaps::HeapsGame;
use crate::games::sum::SumGame;
use crate::games::{At, GameRef, Limits, Value};
use crate::search::graph::Graph;
use crate::solve::solver::DEFAULT_MAX_POSITIONS;

/// A game of any family, as the core holds it (``nimkit.ImpartialGame`` and its
/// subclasses wrap one).
#[pyclass(name = "NativeGame", module = "nimkit._core", frozen)]
pub struct PyNativeGame(pub GameRef);

/// Run a question about `game` without the GIL (with it when the game calls Python
/// back: taking it again for every state would cost more than the call), with a
/// progress bar over the positions a search finds when `progress` (a
/// `nimkit._progress` counter) is given. `max_memory` bounds the searches of the
/// games on graphs and boards, which make room past it when `evict`.
pub(super) fn ask<T: Send>(
    py: Python<'_>,
    game: &GameRef,
    (max_positions, max_memory, evict): (u64, u64, bool),
    progress: Option<&Bound<'_, PyAny>>,
    question: impl Send + FnOnce(&Limits) -> crate::base::error::Result<T>,
) -> PyResult<T> {
    let bar = progress.map(|bar| bar.clone().unbind());
    let report = |found: usize| {
        if let Some(bar) = &bar {
            super::progress::tell(bar, found);
        }
    };
    let limits = Limits {
        max_positions,
        max_memory,
        evict,
        report: &report,
    };
    limits.check_for(&**game)?;
    let done = if game.calls_out() {
        question(&limits)
    } else {
        py.detach(|| question(&limits))
    };
    super::errors::unless_stopped(done)
}

/// The bound of `max_memory=` in bytes: None is none.
pub(super) fn memory(max_memory: Option<UInt>) -> u64 {
    max_memory.map_or(u64::MAX, |m| m.0)
}

/// `nimkit.Infinite` (the enum's module draws it), or an int.
fn py_value(py: Python<'_>, value: Value) -> PyResult<Py<PyAny>> {
    static INFINITE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    match value {
        Value::Finite(g) => Ok(g.into_pyobject(py)?.into_any().unbind()),
        Value::Infinite(k) => {
            let class = INFINITE.get_or_try_init(py, || {
                Ok::<_, PyErr>(py.import("nimkit.games")?.getattr("Infinite")?.unbind())
            })?;
            Ok(class.bind(py).call1((PyTuple::new(py, k)?,))?.unbind())
        }
    }
}

/// A game's state graph: its edges by node number, and its nodes.
type Explored = (Vec<(u32, u32)>, Vec<PyNativeGame>);

fn handles(games: Vec<GameRef>) -> Vec<PyNativeGame> {
    games.into_iter().map(PyNativeGame).collect()
}

fn wrong_family(game: &GameRef, wanted: &str) -> PyErr {
    PyTypeError::new_err(format!("a {} game has no {wanted}", game.family()))
}

#[pymethods]
impl PyNativeGame {
    /// The family: "heaps", "defined", "digraph" or "sum".
    #[getter]
    fn family(&self) -> &'static str {
        self.0.family()
    }

    /// Every option, as a game of the same family.
    fn options(&self, py: Python<'_>) -> PyResult<Vec<PyNativeGame>> {
        let game = &self.0;
        let options = if game.calls_out() {
            game.options()
        } else {
            py.detach(|| game.options())
        };
        Ok(handles(options?))
    }

    /// Smith's value in normal play: an int, or a ``nimkit.Infinite``.
    #[pyo3(signature = (max_positions = UInt(DEFAULT_MAX_POSITIONS), progress = None, max_memory = None, evict = false))]
    fn grundy(
        &self,
        py: Python<'_>,
        max_positions: UInt,
        progress: Option<&Bound<'_, PyAny>>,
        max_memory: Option<UInt>,
        evict: bool,
    ) -> PyResult<Py<PyAny>> {
        let game = &self.0;
        let bounds = (max_positions.0, memory(max_memory), evict);
        let value = ask(py, game, bounds, progress, |limits| game.value(limits))?;
        py_value(py, value)
    }

    /// P, N or D in normal or misère play.
    #[pyo3(signature = (misere = false, max_positions = UInt(DEFAULT_MAX_POSITIONS), progress = None, max_memory = None, evict = false))]
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        misere: bool,
        max_positions: UInt,
        progress: Option<&Bound<'py, PyAny>>,
        max_memory: Option<UInt>,
        evict: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let game = &self.0;
        let bounds = (max_positions.0, memory(max_memory), evict);
        let outcome = ask(py, game, bounds, progress, |limits| {
            game.outcome(misere, limits)
        })?;
        py_outcome(py, outcome)
    }

    /// The options that win (to P-positions); from a draw, the options that keep it.
    #[pyo3(signature = (misere = false, max_positions = UInt(DEFAULT_MAX_POSITIONS), progress = None, max_memory = None, evict = false))]
    fn winning_moves(
        &self,
        py: Python<'_>,
        misere: bool,
        max_positions: UInt,
        progress: Option<&Bound<'_, PyAny>>,
        max_memory: Option<UInt>,
        evict: bool,
    ) -> PyResult<Vec<PyNativeGame>> {
        let game = &self.0;
        let bounds = (max_positions.0, memory(max_memory), evict);
        let found = ask(py, game, bounds, progress, |limits| {
            game.winning_moves(misere, limits)
        })?;
        Ok(handles(found))
    }

    /// Moves to the end with the winner hurrying and the loser not; None for a draw.
    #[pyo3(signature = (misere = false, max_positions = UInt(DEFAULT_MAX_POSITIONS), progress = None))]
    fn remoteness(
        &self,
        py: Python<'_>,
        misere: bool,
        max_positions: UInt,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<u32>> {
        let game = &self.0;
        ask(
            py,
            game,
            (max_positions.0, u64::MAX, false),
            progress,
            |limits| game.remoteness(misere, limits),
        )
    }

    /// Whether play can come back to a position it left.
    #[pyo3(signature = (max_positions = UInt(DEFAULT_MAX_POSITIONS), progress = None))]
    fn is_loopy(
        &self,
        py: Python<'_>,
        max_positions: UInt,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let game = &self.0;
        ask(
            py,
            game,
            (max_positions.0, u64::MAX, false),
            progress,
            |limits| game.loopy(limits),
        )
    }

    /// The state graph: its edges as ``(from, to)`` node numbers and its nodes (node 0
    /// is this game).
    #[pyo3(signature = (max_positions = UInt(DEFAULT_MAX_POSITIONS)))]
    fn explore(&self, py: Python<'_>, max_positions: UInt) -> PyResult<Explored> {
        let game = &self.0;
        let (graph, games) = ask(
            py,
            game,
            (max_positions.0, u64::MAX, false),
            None,
            |limits| game.explore(limits),
        )?;
        let edges = (0..graph.len() as u32)
            .flat_map(|u| graph.successors(u).iter().map(move |&v| (u, v)))
            .collect();
        Ok((edges, handles(games)))
    }

    /// The heaps of a heaps game.
    fn heaps(&self) -> PyResult<Vec<u64>> {
        let at = self.0.as_any().downcast_ref::<At<HeapsGame>>();
        at.map(|at| at.position.clone())
            .ok_or_else(|| wrong_family(&self.0, "heaps"))
    }

    /// The rules of a heaps game.
    fn rules(&self) -> PyResult<PyRules> {
        let at = self.0.as_any().downcast_ref::<At<HeapsGame>>();
        at.map(|at| PyRules::from(at.game.rules().clone()))
            .ok_or_else(|| wrong_family(&self.0, "rules"))
    }

    /// The position of a family whose positions are numbers (Wythoff's two heaps, ...).
    fn numbers(&self) -> PyResult<Vec<u64>> {
        self.0
            .numbers()
            .ok_or_else(|| wrong_family(&self.0, "numbers"))
    }

    /// The position of a family whose positions are written as text (Sprouts).
    fn text(&self) -> PyResult<String> {
        self.0.text().ok_or_else(|| wrong_family(&self.0, "text"))
    }

    /// The Python state of a defined game.
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let at = self.0.as_any().downcast_ref::<At<Defined>>();
        let at = at.ok_or_else(|| wrong_family(&self.0, "state"))?;
        Ok(states(at.game.tag()).state(py, at.position))
    }

    /// The node (its name in the graph given) of a digraph game.
    fn node(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let at = self.0.as_any().downcast_ref::<At<Digraph>>();
        let at = at.ok_or_else(|| wrong_family(&self.0, "node"))?;
        let names = at.game.tag().and_then(|tag| tag.downcast_ref::<Names>());
        let names = names.ok_or_else(|| wrong_family(&self.0, "node name"))?;
        Ok(names.0[at.position as usize].clone_ref(py))
    }

    /// The graph of a digraph game.
    fn digraph(&self) -> PyResult<PyDigraph> {
        let at = self.0.as_any().downcast_ref::<At<Digraph>>();
        at.map(|at| PyDigraph(Arc::clone(&at.game)))
            .ok_or_else(|| wrong_family(&self.0, "graph"))
    }

    /// The parts of a sum.
    fn parts(&self) -> PyResult<Vec<PyNativeGame>> {
        let at = self.0.as_any().downcast_ref::<At<SumGame>>();
        let at = at.ok_or_else(|| wrong_family(&self.0, "parts"))?;
        Ok(at
            .position
            .iter()
            .map(|p| PyNativeGame(Arc::clone(&p.0)))
            .collect())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PyNativeGame>() else {
            return Ok(py.NotImplemented());
        };
        let same = self.0.equals(&*other.get().0);
        Ok(match op {
            CompareOp::Eq => same.into_pyobject(py)?.to_owned().into_any().unbind(),
            CompareOp::Ne => (!same).into_pyobject(py)?.to_owned().into_any().unbind(),
            _ => py.NotImplemented(),
        })
    }

    fn __hash__(&self) -> u64 {
        self.0.hash_code()
    }
}

/// The Python states of a defined game, numbered as the core knows them: a state
/// that is exactly an int below `INTERNED` is its own number (the common case, with
/// no dictionary in the way); any other state is numbered from `INTERNED` on as met.
/// (So `True` and `1`, equal in Python, are two states here: a bool is not exactly
/// an int.)
struct States {
    /// Interned state -> number.
    numbers: Py<PyDict>,
    /// Interned states, by number - `INTERNED`.
    states: Mutex<Vec<Py<PyAny>>>,
}

/// The first number of an interned state.
const INTERNED: u64 = 1 << 63;

impl States {
    fn state(&self, py: Python<'_>, number: u64) -> Py<PyAny> {
        if number < INTERNED {
            return number
                .into_pyobject(py)
                .expect("ints convert")
                .into_any()
                .unbind();
        }
        let states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        states[(number - INTERNED) as usize].clone_ref(py)
    }

    /// The number of `state`, numbered anew if it is new.
    fn number(&self, state: &Bound<'_, PyAny>) -> PyResult<u64> {
        if state.is_exact_instance_of::<PyInt>() {
            if let Ok(n) = state.extract::<u64>() {
                if n < INTERNED {
                    return Ok(n);
                }
            }
        }
        let numbers = self.numbers.bind(state.py());
        if let Some(found) = numbers.get_item(state)? {
            return found.extract();
        }
        let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
        let number = INTERNED + states.len() as u64;
        numbers.set_item(state, number)?;
        states.push(state.clone().unbind());
        Ok(number)
    }
}

fn states(tag: &Tag) -> &States {
    tag.downcast_ref::<States>()
        .expect("a defined game made here carries its states")
}

/// A Python exception raised by a game's own code, carried through the core
/// unchanged, with a note naming the state whose options it was listing.
fn raised(py: Python<'_>, err: PyErr, state: &Bound<'_, PyAny>) -> Error {
    let repr = state
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let note = format!("raised while listing the options of the state {repr}");
    // Notes are Python 3.11's; on 3.10 the exception goes as it is. Ctrl-C is the
    // user's, not the game's: no note.
    if !err.is_instance_of::<PyKeyboardInterrupt>(py) {
        let _ = err.value(py).call_method1("add_note", (note.clone(),));
    }
    Error::Callback(Foreign {
        message: format!("{err} ({note})"),
        payload: Arc::new(err),
    })
}

/// A game whose options come from Python: `options(state)`, or `state.options()` when
/// `options` is None. States are numbered (they must be hashable); the function is
/// called once per state, without the GIL held in between.
pub fn defined_game(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    options: Option<Py<PyAny>>,
) -> PyResult<PyNativeGame> {
    let key = options.as_ref().map_or(0, |f| f.as_ptr() as usize);
    let mut engines = ENGINES.lock().unwrap_or_else(PoisonError::into_inner);
    engines.retain(|(_, engine)| engine.strong_count() > 0);
    let found = engines.iter().find(|(k, _)| *k == key);
    let game = match found.and_then(|(_, engine)| engine.upgrade()) {
        Some(game) => game,
        None => {
            let game = Arc::new(new_defined(py, options));
            engines.push((key, Arc::downgrade(&game)));
            game
        }
    };
    drop(engines);
    let start = states(game.tag()).number(state)?;
    Ok(PyNativeGame(Arc::new(At::new(game, start))))
}

/// The games defined in Python that are alive, by the address of their function (0:
/// states with an `options()` method), so that games built from the same function
/// are one game: their positions compare equal and share what searches found. An
/// engine holds its function, so a live engine's address is not reused.
static ENGINES: Mutex<Vec<(usize, Weak<Defined>)>> = Mutex::new(Vec::new());

fn new_defined(py: Python<'_>, options: Option<Py<PyAny>>) -> Defined {
    let states = Arc::new(States {
        numbers: PyDict::new(py).unbind(),
        states: Mutex::default(),
    });
    let known = Arc::clone(&states);
    let callback = move |number: u64, out: &mut Vec<u64>| {
        Python::attach(|py| {
            let state = known.state(py, number).into_bound(py);
            let listed = match &options {
                Some(options) => options.bind(py).call1((&state,)),
                None => state.call_method0("options"),
            };
            let listed = listed.map_err(|err| raised(py, err, &state))?;
            let items = listed.try_iter().map_err(|_| {
                let kind = listed
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string());
                let err = PyTypeError::new_err(format!(
                    "options must give an iterable of states, not {kind}"
                ));
                raised(py, err, &state)
            })?;
            for item in items {
                let item = item.map_err(|err| raised(py, err, &state))?;
                out.push(known.number(&item).map_err(|err| raised(py, err, &state))?);
            }
            Ok(())
        })
    };
    let tag: Tag = states;
    Defined::new(Box::new(callback), tag)
}

/// The names of a digraph's nodes, in node order.
struct Names(Vec<Py<PyAny>>);

/// A directed graph whose nodes are positions: values, kernel and games on it.
#[pyclass(name = "Digraph", module = "nimkit._core", frozen)]
pub struct PyDigraph(Arc<Digraph>);

#[pymethods]
impl PyDigraph {
    /// The graph of nodes `names` (in order) with edges ``(from, to)`` by node number,
    /// an array of shape ``(edges, 2)``.
    #[new]
    fn new(
        py: Python<'_>,
        names: &Bound<'_, PyList>,
        edges: PyReadonlyArray2<'_, u64>,
    ) -> PyResult<Self> {
        let nodes = names.len();
        let edges = edges.as_array();
        if edges.ncols() != 2 {
            return Err(PyValueError::new_err("edges are pairs (from, to)"));
        }
        let mut pairs = Vec::new();
        pairs
            .try_reserve_exact(edges.nrows())
            .map_err(|_| Error::OutOfMemory {
                bytes: edges.nrows() as u128 * 8,
            })?;
        for row in edges.rows() {
            let (from, to) = (row[0], row[1]);
            if from >= nodes as u64 || to >= nodes as u64 {
                return Err(PyValueError::new_err(format!(
                    "edge ({from}, {to}) names a node past the {nodes} given"
                )));
            }
            pairs.push((from as u32, to as u32));
        }
        let names = Names(names.iter().map(|n| n.unbind()).collect());
        let graph = py.detach(|| Graph::from_edges(nodes, &pairs))?;
        Ok(PyDigraph(Arc::new(Digraph::tagged(graph, Arc::new(names)))))
    }

    /// The game of a token on node number `node`.
    fn game(&self, node: UInt<u32>) -> PyResult<PyNativeGame> {
        if node.0 as usize >= self.0.graph().len() {
            return Err(PyValueError::new_err(format!(
                "there is no node {}",
                node.0
            )));
        }
        Ok(PyNativeGame(Arc::new(At::new(Arc::clone(&self.0), node.0))))
    }

    /// Smith's value of every node (ints, or ``nimkit.Infinite``), in node order.
    fn values(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let graph = &self.0;
        let values = py.detach(|| graph.values().map(<[Value]>::to_vec))?;
        values.into_iter().map(|v| py_value(py, v)).collect()
    }

    /// The node numbers of value 0 (the P-positions).
    fn kernel(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        let graph = &self.0;
        Ok(py.detach(|| graph.kernel())?)
    }

    /// Whether some position can come back.
    fn has_cycle(&self, py: Python<'_>) -> PyResult<bool> {
        let graph = &self.0;
        Ok(py.detach(|| graph.graph().has_cycle())?)
    }

    /// The number of nodes.
    fn __len__(&self) -> usize {
        self.0.graph().len()
    }
}
