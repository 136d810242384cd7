//! Boards and stepped games for learning agents (`nimkit.rl`): contiguous numpy
//! arrays in, new arrays out, the GIL released around the work.
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

use super::games::PyNativeGame;
use super::rules::PyRules;
use crate::base::alloc;
use crate::batch::agent_board::Board;
use crate::batch::code_game::{CodeGame, Quotient};
use crate::batch::env_game::{EnvGame, Policy};
use crate::batch::envs::{Envs, First};
use crate::batch::learn::{self, Ranked, Verdict};
use crate::batch::start::Start;
use crate::batch::table_game::TableGame;

type Array1<'py, T> = Bound<'py, PyArray1<T>>;
type Array2<'py, T> = Bound<'py, PyArray2<T>>;
/// `step`'s rewards, terminations and labels.
type Stepped<'py> = (
    Array1<'py, f32>,
    Array1<'py, bool>,
    Array2<'py, bool>,
    Array2<'py, bool>,
    Array1<'py, bool>,
);
/// `rank`'s legal and winning counts, hits and random chances.
type RankArrays<'py> = (
    Array1<'py, u32>,
    Array1<'py, u32>,
    Array1<'py, bool>,
    Array1<'py, f64>,
);

/// A board: heaps, rules, OpenSpiel's action ids and the exact labels.
#[pyclass(name = "Board", module = "nimkit._core", frozen)]
pub struct PyBoard(Arc<Board>);

fn slice<'a, T: numpy::Element>(
    array: &'a PyReadonlyArray2<'_, T>,
    name: &str,
) -> PyResult<&'a [T]> {
    array
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name} must be C-contiguous")))
}

fn rows_of(rows: &PyReadonlyArray2<'_, u64>, m: usize) -> PyResult<usize> {
    let width = rows.shape()[1];
    if width != m {
        return Err(PyValueError::new_err(format!(
            "positions have {width} heaps; the board has {m}"
        )));
    }
    Ok(rows.shape()[0])
}

/// A zeroed array owned by numpy (so that views of it keep it, as the spare labels
/// need), made through `numpy.zeros`: MemoryError where numpy cannot allocate it, where
/// rust-numpy's own constructor would panic on the null pointer.
fn new_array<'py, T: numpy::Element>(
    py: Python<'py>,
    shape: [usize; 2],
) -> PyResult<Array2<'py, T>> {
    let dtype = numpy::dtype::<T>(py);
    let zeros = py.import("numpy")?.call_method1("zeros", (shape, dtype))?;
    Ok(zeros.cast_into::<PyArray2<T>>()?)
}

/// `new_array` of one axis.
fn new_vector<'py, T: numpy::Element>(py: Python<'py>, len: usize) -> PyResult<Array1<'py, T>> {
    let dtype = numpy::dtype::<T>(py);
    let zeros = py.import("numpy")?.call_method1("zeros", (len, dtype))?;
    Ok(zeros.cast_into::<PyArray1<T>>()?)
}

/// A copy of `rows` as an array of `shape`, allocated fallibly.
fn copied<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    rows: &[T],
    shape: [usize; 2],
) -> PyResult<Array2<'py, T>> {
    let mut out = alloc::with_capacity(rows.len())?;
    out.extend_from_slice(rows);
    PyArray1::from_vec(py, out).reshape(shape)
}

#[pymethods]
impl PyBoard {
    #[new]
    fn new(
        py: Python<'_>,
        bounds: Vec<u64>,
        rules: &Bound<'_, PyRules>,
        max_positions: u64,
    ) -> PyResult<Self> {
        let rules = rules.get().rules().clone();
        Ok(PyBoard(Arc::new(
            py.detach(|| Board::new(&bounds, &rules, max_positions))?,
        )))
    }

    #[getter]
    fn bounds(&self) -> Vec<u64> {
        self.0.bounds().to_vec()
    }

    #[getter]
    fn max_take(&self) -> u64 {
        self.0.max_take()
    }

    #[getter]
    fn actions(&self) -> usize {
        self.0.actions()
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules::from(self.0.rules().clone())
    }

    /// `(legal, winning, p)`: per action whether it is legal and whether it wins, per
    /// position whether it is P.
    fn labels<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, u64>,
    ) -> PyResult<(Array2<'py, bool>, Array2<'py, bool>, Array1<'py, bool>)> {
        let n = rows_of(&rows, self.0.heaps())?;
        let a = self.0.actions();
        let (legal, winning) = (
            new_array::<bool>(py, [n, a])?,
            new_array::<bool>(py, [n, a])?,
        );
        let p = new_vector::<bool>(py, n)?;
        {
            let (mut l, mut w, mut q) = (legal.readwrite(), winning.readwrite(), p.readwrite());
            let (l, w, q) = (l.as_slice_mut()?, w.as_slice_mut()?, q.as_slice_mut()?);
            let rows = slice(&rows, "positions")?;
            py.detach(|| learn::labels(&self.0, rows, l, w, q))?;
        }
        Ok((legal, winning, p))
    }

    /// `(legal, wins)` of each position's chosen action.
    fn judge<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, u64>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(Array1<'py, bool>, Array1<'py, bool>)> {
        let n = rows_of(&rows, self.0.heaps())?;
        let mut verdicts = alloc::filled(n, Verdict::Illegal)?;
        let rows = slice(&rows, "positions")?;
        let actions = actions.as_slice()?;
        py.detach(|| learn::judge(&self.0, rows, actions, &mut verdicts))?;
        let legal = verdicts
            .iter()
            .map(|&v| v != Verdict::Illegal)
            .collect::<Vec<_>>();
        let wins = verdicts
            .iter()
            .map(|&v| v == Verdict::Wins)
            .collect::<Vec<_>>();
        Ok((PyArray1::from_vec(py, legal), PyArray1::from_vec(py, wins)))
    }

    /// `(legal, winning, hit, random)` per position for the scores' `k` best legal
    /// actions.
    fn rank<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, u64>,
        scores: PyReadonlyArray2<'py, f64>,
        k: usize,
    ) -> PyResult<RankArrays<'py>> {
        let n = rows_of(&rows, self.0.heaps())?;
        let mut ranked = alloc::filled(n, Ranked::default())?;
        let (rows, scores) = (slice(&rows, "positions")?, slice(&scores, "scores")?);
        py.detach(|| learn::rank(&self.0, rows, scores, k, &mut ranked))?;
        let column = |f: fn(&Ranked) -> u32| PyArray1::from_iter(py, ranked.iter().map(f));
        Ok((
            column(|r| r.legal),
            column(|r| r.winning),
            PyArray1::from_iter(py, ranked.iter().map(|r| r.hit)),
            PyArray1::from_iter(py, ranked.iter().map(|r| r.random)),
        ))
    }

    /// Every position reachable from `start`, one row each.
    fn reachable<'py>(
        &self,
        py: Python<'py>,
        start: Vec<u64>,
        limit: u64,
    ) -> PyResult<Array2<'py, u64>> {
        let rows = py.detach(|| self.0.reachable(&start, limit))?;
        let m = self.0.heaps();
        let n = rows.len() / m;
        PyArray1::from_vec(py, rows).reshape([n, m])
    }
}

fn policy(name: &str, rate: f64) -> PyResult<Policy> {
    match name {
        "perfect" => Ok(Policy::Perfect),
        "random" => Ok(Policy::Random),
        "fallible" => Ok(Policy::fallible(rate)?),
        other => Err(PyValueError::new_err(format!(
            "unknown opponent {other:?}: use None, 'perfect', 'random', a probability or a callable"
        ))),
    }
}

fn first(name: &str) -> PyResult<First> {
    match name {
        "agent" => Ok(First::Agent),
        "opponent" => Ok(First::Opponent),
        "random" => Ok(First::Random),
        other => Err(PyValueError::new_err(format!(
            "first must be 'agent', 'opponent' or 'random', not {other:?}"
        ))),
    }
}

/// The games of one kind.
enum Games {
    /// Heaps under rules that never split.
    Nim(Envs<Board>),
    /// A small game on a graph or board, every position in a table.
    Table(Envs<TableGame>),
    /// Heaps under a code that splits them, valued by their sizes' tables.
    Code(Envs<CodeGame>),
}

/// `$body` with `$e` bound to the `Envs` whatever its game.
macro_rules! each {
    ($games:expr, $e:ident => $body:expr) => {
        match $games {
            Games::Nim($e) => $body,
            Games::Table($e) => $body,
            Games::Code($e) => $body,
        }
    };
}

/// Many games of one kind, stepped at once.
#[pyclass(name = "Envs", module = "nimkit._core")]
pub struct PyEnvs {
    envs: Games,
    /// Label arrays earlier steps handed out. A set nobody else holds any more is
    /// written again: fresh arrays of this size cost more in page faults than the
    /// labelling itself.
    spare: Vec<SpareLabels>,
}

/// Sets of label arrays a step keeps for reuse.
const SPARES: usize = 4;

type SpareLabels = (Py<PyArray2<bool>>, Py<PyArray2<bool>>, Py<PyArray1<bool>>);

type Opponent = Option<(String, f64, String)>;

fn opponent_of(opponent: Opponent) -> PyResult<Option<(Policy, First)>> {
    opponent
        .map(|(name, rate, who)| Ok((policy(&name, rate)?, first(&who)?)))
        .transpose()
}

#[pymethods]
impl PyEnvs {
    /// `start`: a list of heaps, or `(heaps, (low, high) count, (low, high) size)`;
    /// `opponent`: `None`, or a policy name with its error rate and who moves first.
    #[new]
    #[pyo3(signature = (count, start, rules, opponent, autoreset, max_positions))]
    fn new(
        py: Python<'_>,
        count: usize,
        start: StartArg,
        rules: &Bound<'_, PyRules>,
        opponent: Opponent,
        autoreset: bool,
        max_positions: u64,
    ) -> PyResult<Self> {
        let start = match start {
            StartArg::Fixed(heaps) => Start::Fixed(heaps),
            StartArg::Random(heaps, count, sizes) => Start::Random {
                heaps,
                count,
                sizes,
            },
        };
        let opponent = opponent_of(opponent)?;
        let rules = rules.get().rules().clone();
        let envs = py.detach(|| {
            let board = Board::new(&start.bounds(), &rules, max_positions)?;
            Envs::new(count, Arc::new(board), start, opponent, autoreset)
        })?;
        Ok(PyEnvs {
            envs: Games::Nim(envs),
            spare: Vec::new(),
        })
    }

    /// Games of Node Kayles, Arc Kayles or Cram from `game`'s position, every
    /// position of its graph valued first (`value_table`).
    #[staticmethod]
    fn of_graph(
        py: Python<'_>,
        count: usize,
        game: PyRef<'_, PyNativeGame>,
        misere: bool,
        opponent: Opponent,
        autoreset: bool,
    ) -> PyResult<Self> {
        let (engine, start) = super::boards::engine_and_start(&game)?;
        let opponent = opponent_of(opponent)?;
        let envs = py.detach(|| {
            let table = TableGame::new(engine.every_position()?, engine.vertices(), misere);
            Envs::new(
                count,
                Arc::new(table),
                Start::Fixed(vec![start]),
                opponent,
                autoreset,
            )
        })?;
        Ok(PyEnvs {
            envs: Games::Table(envs),
            spare: Vec::new(),
        })
    }

    /// Games of heaps under a code that splits them, from `start` (one size a place):
    /// `values` holds each heap size's Grundy value, `moves` each move `(n, take, a)`
    /// of a heap of size `n`, and `quotient` (misère play) the code's misère quotient
    /// as `(table, elements, p)`: the products of its elements row by row, each heap
    /// size's element and whether each element is in the P-portion.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (count, start, values, moves, quotient, opponent, autoreset))]
    fn of_code(
        py: Python<'_>,
        count: usize,
        start: Vec<u64>,
        values: Vec<u32>,
        moves: Vec<(usize, usize, usize)>,
        quotient: Option<(Vec<u32>, Vec<u32>, Vec<bool>)>,
        opponent: Opponent,
        autoreset: bool,
    ) -> PyResult<Self> {
        let opponent = opponent_of(opponent)?;
        let quotient = quotient.map(|(table, elements, p)| Quotient { table, elements, p });
        let envs = py.detach(|| {
            let game = CodeGame::new(start.len(), values, &moves, quotient)?;
            Envs::new(
                count,
                Arc::new(game),
                Start::Fixed(start),
                opponent,
                autoreset,
            )
        })?;
        Ok(PyEnvs {
            envs: Games::Code(envs),
            spare: Vec::new(),
        })
    }

    /// The board of games of heaps under rules that never split (`None` for other
    /// games).
    #[getter]
    fn board(&self) -> Option<PyBoard> {
        match &self.envs {
            Games::Nim(envs) => Some(PyBoard(Arc::clone(envs.game()))),
            Games::Table(_) | Games::Code(_) => None,
        }
    }

    /// How many vertices the graph of a game on a graph has (`None` for heaps).
    #[getter]
    fn vertices(&self) -> Option<usize> {
        match &self.envs {
            Games::Table(envs) => Some(envs.game().vertices()),
            Games::Nim(_) | Games::Code(_) => None,
        }
    }

    #[getter]
    fn actions(&self) -> usize {
        each!(&self.envs, e => e.game().actions())
    }

    /// The words of a game's position (heaps or places; 1 for a graph's mask).
    #[getter]
    fn width(&self) -> usize {
        self.rows_of().2
    }

    /// Every game's position (int64, one row a game): its heaps, or the mask of the
    /// vertices left.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Array2<'py, i64>> {
        let (rows, n, m) = self.rows_of();
        let mut out = alloc::with_capacity(rows.len())?;
        out.extend(rows.iter().map(|&w| w as i64));
        PyArray1::from_vec(py, out).reshape([n, m])
    }

    /// Every game's vertices left (int8, one row a game, 1 for each vertex left), for
    /// games on a graph or board.
    fn vertex_bits<'py>(&self, py: Python<'py>) -> PyResult<Array2<'py, i8>> {
        let Games::Table(envs) = &self.envs else {
            return Err(PyValueError::new_err("not a game on a graph"));
        };
        let v = envs.game().vertices();
        let mut bits = alloc::with_capacity(envs.count() * v)?;
        for &mask in envs.rows() {
            bits.extend((0..v).map(|i| ((mask >> i) & 1) as i8));
        }
        PyArray1::from_vec(py, bits).reshape([envs.count(), v])
    }

    /// The positions as the core holds them (uint64), for the labels.
    fn heaps<'py>(&self, py: Python<'py>) -> PyResult<Array2<'py, u64>> {
        let (rows, n, m) = self.rows_of();
        copied(py, rows, [n, m])
    }

    /// The labels of every game's position, as `Board.labels`.
    fn labels<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Array2<'py, bool>, Array2<'py, bool>, Array1<'py, bool>)> {
        let (n, a) = (self.count(), self.actions());
        let (legal, winning) = (
            new_array::<bool>(py, [n, a])?,
            new_array::<bool>(py, [n, a])?,
        );
        let p = new_vector::<bool>(py, n)?;
        {
            let (mut l, mut w, mut q) = (legal.readwrite(), winning.readwrite(), p.readwrite());
            let (l, w, q) = (l.as_slice_mut()?, w.as_slice_mut()?, q.as_slice_mut()?);
            let envs = &self.envs;
            py.detach(|| each!(envs, e => learn::labels_of_rows(&**e.game(), e.rows(), l, w, q)))?;
        }
        Ok((legal, winning, p))
    }

    /// The labels of the positions `rows` (uint64, one row a position), as
    /// `Board.labels`.
    fn label_rows<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, u64>,
    ) -> PyResult<(Array2<'py, bool>, Array2<'py, bool>, Array1<'py, bool>)> {
        let (_, _, m) = self.rows_of();
        let n = rows_of(&rows, m)?;
        let a = self.actions();
        let (legal, winning) = (
            new_array::<bool>(py, [n, a])?,
            new_array::<bool>(py, [n, a])?,
        );
        let p = new_vector::<bool>(py, n)?;
        {
            let (mut l, mut w, mut q) = (legal.readwrite(), winning.readwrite(), p.readwrite());
            let (l, w, q) = (l.as_slice_mut()?, w.as_slice_mut()?, q.as_slice_mut()?);
            let rows = slice(&rows, "positions")?;
            let envs = &self.envs;
            py.detach(|| each!(envs, e => learn::labels_of_rows(&**e.game(), rows, l, w, q)))?;
        }
        Ok((legal, winning, p))
    }

    /// Every position of a game of heaps under a code reachable from `start`, one
    /// row each (heaps largest first), at most `limit` of them.
    fn code_positions<'py>(
        &self,
        py: Python<'py>,
        start: Vec<u64>,
        limit: u64,
    ) -> PyResult<Array2<'py, u64>> {
        let Games::Code(envs) = &self.envs else {
            return Err(PyValueError::new_err("not a game of heaps under a code"));
        };
        let game = envs.game();
        let rows = py.detach(|| game.every_position(&start, limit))?;
        let m = game.width();
        let n = rows.len() / m;
        PyArray1::from_vec(py, rows).reshape([n, m])
    }

    /// Moves made in each game so far (uint32).
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Array1<'py, u32>> {
        let moves = each!(&self.envs, e => e.moves());
        let mut out = alloc::with_capacity(moves.len())?;
        out.extend_from_slice(moves);
        Ok(PyArray1::from_vec(py, out))
    }

    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        let envs = &mut self.envs;
        Ok(py.detach(|| each!(envs, e => e.reset(seed)))?)
    }

    /// `(rewards, terminated, legal, winning, p)` after one action a game: the
    /// labels of where each game is then.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Stepped<'py>> {
        let n = self.count();
        let rewards = new_vector::<f32>(py, n)?;
        let terminated = new_vector::<bool>(py, n)?;
        let (legal, winning, p) = self.labels_to_write(py)?;
        {
            let (mut r, mut t) = (rewards.readwrite(), terminated.readwrite());
            let (r, t) = (r.as_slice_mut()?, t.as_slice_mut()?);
            let (mut l, mut w, mut q) = (legal.readwrite(), winning.readwrite(), p.readwrite());
            let (l, w, q) = (l.as_slice_mut()?, w.as_slice_mut()?, q.as_slice_mut()?);
            let actions = actions.as_slice()?;
            let envs = &mut self.envs;
            py.detach(|| each!(envs, e => e.step(actions, r, t, l, w, q)))?;
        }
        Ok((rewards, terminated, legal, winning, p))
    }
}

impl PyEnvs {
    fn count(&self) -> usize {
        each!(&self.envs, e => e.count())
    }

    /// The rows of the games' positions, how many games and the words a row.
    fn rows_of(&self) -> (&[u64], usize, usize) {
        each!(&self.envs, e => (e.rows(), e.count(), e.game().width()))
    }

    /// Arrays for a step's labels: a spare set only this object holds (every entry
    /// is written again), else new ones, kept as spares while there is room.
    fn labels_to_write<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Array2<'py, bool>, Array2<'py, bool>, Array1<'py, bool>)> {
        // SAFETY: each is a live object this struct holds a reference to.
        let only_ours = |o: &Bound<'_, PyAny>| unsafe { pyo3::ffi::Py_REFCNT(o.as_ptr()) } == 1;
        let unheld = |(l, w, p): &&SpareLabels| {
            only_ours(l.bind(py).as_any())
                && only_ours(w.bind(py).as_any())
                && only_ours(p.bind(py).as_any())
        };
        if let Some((l, w, p)) = self.spare.iter().find(unheld) {
            return Ok((l.bind(py).clone(), w.bind(py).clone(), p.bind(py).clone()));
        }
        let (n, a) = (self.count(), self.actions());
        let (l, w) = (
            new_array::<bool>(py, [n, a])?,
            new_array::<bool>(py, [n, a])?,
        );
        let p = new_vector::<bool>(py, n)?;
        if self.spare.len() < SPARES {
            let keep = (l.clone().unbind(), w.clone().unbind(), p.clone().unbind());
            self.spare.push(keep);
        }
        Ok((l, w, p))
    }
}

/// A start as Python gives it.
#[derive(FromPyObject)]
enum StartArg {
    Fixed(Vec<u64>),
    Random(usize, (usize, usize), (u64, u64)),
}
