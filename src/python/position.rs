//! `nimkit.Position`: heap sizes validated once, at construction, and every question
//! about one position, answered by the core.
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PySliceMethods, PyTuple};

use super::convert::{self, py_outcome, UInt};
use super::moves::{py_moves, PyMove};
use super::rules::PyRules;
use crate::heap::position::{check_move, Position};
use crate::heap::rules::Rules;
use crate::solve::solver::{self, Solvers, DEFAULT_MAX_POSITIONS};
use crate::solve::theory;

/// ``Position.moves`` refuses to build a list longer than this.
pub const MAX_LISTED_MOVES: u64 = 10_000_000;

/// The sizes of the heaps: an immutable, hashable sequence of ints in 0..2**64 - 1.
///
/// >>> Position([1, 3, 5, 7])
/// Position([1, 3, 5, 7])
///
/// Methods that depend on the rules take a ``Rules`` (default: plain Nim, normal play).
#[pyclass(name = "Position", module = "nimkit", frozen, eq, hash, sequence)]
#[derive(PartialEq, Eq, Hash)]
pub struct PyPosition(pub Position);

impl PyPosition {
    pub fn heaps(&self) -> &[u64] {
        self.0.heaps()
    }
}

/// Runs `f` with the rules a call names (a `nimkit.Rules`), or plain Nim in normal
/// play when they are None.
/// `with_rules` with the ending `misere` asks for, where it asks (`misere=True` is
/// the way every game is asked about misère play).
fn with_ending<T, E: Into<PyErr>>(
    rules: Option<&Bound<'_, PyAny>>,
    misere: Option<bool>,
    f: impl FnOnce(&Rules, &Solvers) -> Result<T, E>,
) -> PyResult<T> {
    with_rules(rules, |r, solvers| match misere {
        Some(m) if m != r.is_misere() => {
            let ended = Rules::new(m, r.take_limit().clone()).map_err(PyErr::from)?;
            f(&ended, solvers).map_err(Into::into)
        }
        _ => f(r, solvers).map_err(Into::into),
    })
}

/// `f` of the rules given (with the solvers of the questions asked under them), or
/// of plain Nim.
fn with_rules<T, E: Into<PyErr>>(
    rules: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&Rules, &Solvers) -> Result<T, E>,
) -> PyResult<T> {
    let found = match rules.filter(|rules| !rules.is_none()) {
        None => f(&Rules::normal(), &Solvers::default()),
        Some(rules) => {
            let rules = rules.cast::<PyRules>().map_err(|_| not_rules(rules))?.get();
            f(rules.rules(), rules.solvers())
        }
    };
    found.map_err(Into::into)
}

fn not_rules(obj: &Bound<'_, PyAny>) -> PyErr {
    let name = obj
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string());
    PyTypeError::new_err(format!("rules must be a nimkit.Rules, not {name}"))
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (heaps = None))]
    fn new(heaps: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let heaps = heaps.map(convert::heaps).transpose()?.unwrap_or_default();
        Ok(PyPosition(Position::new(heaps)))
    }

    /// The heap sizes as a tuple.
    #[getter(heaps)]
    fn heaps_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.heaps())
    }

    /// True when no object is left (with a subtraction set or a code, moves may run
    /// out before: see ``moves``).
    #[getter]
    fn is_empty(&self) -> bool {
        self.heaps().iter().all(|&n| n == 0)
    }

    /// Each heap's (normal-play) Grundy value: its size, its size mod (limit + 1), or
    /// its value in the heap rule's Grundy sequence.
    #[pyo3(signature = (rules = None))]
    fn grundy<'py>(
        &self,
        py: Python<'py>,
        rules: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let values = with_rules(rules, |r, _| theory::grundy_values(self.heaps(), r))?;
        PyTuple::new(py, values)
    }

    /// XOR of the Grundy values.
    #[pyo3(signature = (rules = None))]
    fn nim_sum(&self, rules: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        with_rules(rules, |r, _| theory::nim_sum(self.heaps(), r))
    }

    /// Outcome.P if the player to move loses against perfect play, else Outcome.N.
    ///
    /// Rules with no closed form (misère play of subtraction sets other than {1..k}
    /// and of take-and-break codes) are solved by searching every position this one
    /// can reach (the box below it, or the multisets of heaps splits lead to);
    /// ValueError says so when that is more than ``max_positions``.
    #[pyo3(signature = (rules = None, max_positions = UInt(DEFAULT_MAX_POSITIONS), *, misere = None))]
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        rules: Option<&Bound<'py, PyAny>>,
        max_positions: UInt,
        misere: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let max_positions = max_positions.0;
        let outcome = with_ending(rules, misere, |r, solvers| {
            py.detach(|| solver::outcome(self.heaps(), r, max_positions, solvers))
        })?;
        py_outcome(py, outcome)
    }

    /// Every move to a P-position, in heap order, then smallest take first (at most
    /// one per heap in Nim and with take limits). ``max_positions`` as for
    /// ``outcome``. ValueError for a heap with more than 2**24 options (a split of a
    /// heap of n has about n / 2); a ``PerfectPlayer`` finds a winning move from any
    /// heap.
    #[pyo3(signature = (rules = None, max_positions = UInt(DEFAULT_MAX_POSITIONS), *, misere = None))]
    fn winning_moves(
        &self,
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        max_positions: UInt,
        misere: Option<bool>,
    ) -> PyResult<Vec<PyMove>> {
        let max_positions = max_positions.0;
        let heaps = self.heaps();
        let moves = with_ending(rules, misere, |r, solvers| {
            py.detach(|| {
                let solver = solvers.get(heaps, r, max_positions)?;
                solver.winning_moves(heaps)
            })
        })?;
        Ok(py_moves(moves))
    }

    /// How many moves the game lasts from here when the winner hurries and the loser
    /// delays, by exhaustive search of every position this one can reach (the box
    /// below it, or the multisets of heaps that splits lead to); ValueError when they
    /// are more than ``max_positions``, or their moves more than 2**31 (about
    /// n**2 / 2 for one heap of n without a take limit: seconds of work).
    #[pyo3(signature = (rules = None, max_positions = UInt(DEFAULT_MAX_POSITIONS), *, misere = None))]
    fn remoteness(
        &self,
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        max_positions: UInt,
        misere: Option<bool>,
    ) -> PyResult<u32> {
        let max_positions = max_positions.0;
        let heaps = self.heaps();
        with_ending(rules, misere, |r, solvers| {
            py.detach(|| solver::remoteness(heaps, r, max_positions, solvers))
        })
    }

    /// Every legal move, heap by heap, smallest take first; with ``limit``, only the
    /// first ``limit`` of them.
    ///
    /// Raises ValueError when there are more than ``MAX_LISTED_MOVES`` and no
    /// ``limit`` says how many to list (``count_moves`` counts them).
    #[pyo3(signature = (rules = None, limit = None))]
    fn moves(
        &self,
        rules: Option<&Bound<'_, PyAny>>,
        limit: Option<UInt>,
    ) -> PyResult<Vec<PyMove>> {
        let limit = limit.map(|v| v.0);
        with_rules(rules, |r, _| {
            let count = self.0.count_moves(r)?;
            let listed = match limit {
                Some(limit) => limit.min(MAX_LISTED_MOVES),
                None if count > u128::from(MAX_LISTED_MOVES) => {
                    return Err(PyValueError::new_err(format!(
                        "the position has {count} legal moves, more than the \
                         {MAX_LISTED_MOVES} that may be listed (pass limit= for the first ones)"
                    )));
                }
                None => MAX_LISTED_MOVES,
            };
            Ok(py_moves(self.0.moves(r)?.take(listed as usize)))
        })
    }

    /// How many legal moves there are (counted, not listed).
    #[pyo3(signature = (rules = None))]
    fn count_moves(&self, rules: Option<&Bound<'_, PyAny>>) -> PyResult<u128> {
        with_rules(rules, |r, _| self.0.count_moves(r))
    }

    /// Whether ``move`` may be played here under ``rules``.
    #[pyo3(signature = (r#move, rules = None))]
    fn is_legal(
        &self,
        #[pyo3(from_py_with = PyMove::of)] r#move: crate::heap::position::Move,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        Ok(self.illegal_reason(r#move, rules)?.is_none())
    }

    /// Why ``move`` may not be played here, or None if it may.
    #[pyo3(signature = (r#move, rules = None))]
    fn illegal_reason(
        &self,
        #[pyo3(from_py_with = PyMove::of)] r#move: crate::heap::position::Move,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        with_rules(rules, |r, _| {
            r.check_heaps(self.heaps().len())?;
            Ok::<_, crate::base::error::Error>(
                check_move(self.heaps(), r#move, r)
                    .err()
                    .map(|e| e.to_string()),
            )
        })
    }

    /// The position after ``move``; raises IllegalMoveError if it is not legal.
    ///
    /// Without ``rules`` only the heap sizes limit the move; pass the rules to enforce
    /// a take limit, a subtraction set or a code too.
    #[pyo3(signature = (r#move, rules = None))]
    fn after(
        &self,
        #[pyo3(from_py_with = PyMove::of)] r#move: crate::heap::position::Move,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ok(PyPosition(with_rules(rules, |r, _| {
            self.0.after(r#move, r)
        })?))
    }

    fn __len__(&self) -> usize {
        self.heaps().len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let heaps = self.heaps();
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(heaps.len() as isize)?;
            let picked = (0..range.slicelength)
                .map(|i| heaps[(range.start + i as isize * range.step) as usize])
                .collect();
            return Ok(Bound::new(py, PyPosition(Position::new(picked)))?.into_any());
        }
        let i: isize = index.extract()?;
        let at = if i < 0 { i + heaps.len() as isize } else { i };
        let heap = usize::try_from(at)
            .ok()
            .and_then(|at| heaps.get(at))
            .ok_or_else(|| PyIndexError::new_err("position index out of range"))?;
        Ok(heap.into_pyobject(py)?.into_any())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, self.heaps())?.try_iter()?.into_any())
    }

    fn __contains__(&self, value: &Bound<'_, PyAny>) -> bool {
        value
            .extract::<u64>()
            .is_ok_and(|value| self.heaps().contains(&value))
    }

    /// The number of heaps of size ``value``.
    fn count(&self, value: &Bound<'_, PyAny>) -> usize {
        value.extract::<u64>().map_or(0, |value| {
            self.heaps().iter().filter(|&&n| n == value).count()
        })
    }

    /// The index of the first heap of size ``value``; ValueError if there is none.
    fn index(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        value
            .extract::<u64>()
            .ok()
            .and_then(|value| self.heaps().iter().position(|&n| n == value))
            .ok_or_else(|| PyValueError::new_err(format!("{value} is not a heap size here")))
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.heaps())
    }

    fn __str__(&self) -> String {
        if self.heaps().is_empty() {
            return "(no heaps)".into();
        }
        let sizes: Vec<String> = self.heaps().iter().map(u64::to_string).collect();
        sizes.join(" ")
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let heaps = PyTuple::new(slf.py(), slf.get().heaps())?;
        Ok((slf.get_type().into_any(), (heaps,)))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for convert::Heaps {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(position) = obj.cast::<PyPosition>() {
            return Ok(convert::Heaps(position.get().heaps().to_vec()));
        }
        convert::uints(&obj, "heaps", "heap").map(convert::Heaps)
    }
}
