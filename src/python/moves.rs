//! `nimkit.Move`: one move, validated once, at construction.
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyTuple};

use super::convert;
use crate::base::error::Error;
use crate::heap::position::Move;
use crate::heap::Parts;

/// Take ``take`` objects from heap number ``heap`` (counted from 0); with ``into``,
/// split what is left into two or three heaps.
///
/// >>> Move(heap=3, take=2)
/// Move(heap=3, take=2)
/// >>> Move(heap=0, take=1, into=(3, 4))   # Kayles: knock out one pin of 8, leave 3 and 4
/// Move(heap=0, take=1, into=(3, 4))
///
/// A split replaces the heap in place: heap ``heap`` becomes ``into[0]``, the other
/// parts follow it, and later heaps shift right. A move that splits may take nothing
/// (Grundy's game); any other move takes at least 1. Moves are immutable, hashable,
/// ordered (by heap, take, then parts) and picklable.
#[pyclass(name = "Move", module = "nimkit", frozen)]
#[derive(Clone, Copy)]
pub struct PyMove(pub Move);

impl PyMove {
    /// The move of a Python argument, with an error naming the argument's type.
    pub fn of(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
        obj.cast::<PyMove>().map(|mv| mv.get().0).map_err(|_| {
            PyTypeError::new_err(format!(
                "move must be a nimkit.Move, not {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })
    }

    fn key(&self) -> (usize, u64, &[u64]) {
        (self.0.heap, self.0.take, self.0.into.sizes())
    }
}

/// Python moves from core moves.
pub fn py_moves(moves: impl IntoIterator<Item = Move>) -> Vec<PyMove> {
    moves.into_iter().map(PyMove).collect()
}

#[pymethods]
impl PyMove {
    #[new]
    #[pyo3(signature = (heap, take, into = None))]
    fn new(
        heap: &Bound<'_, PyAny>,
        take: &Bound<'_, PyAny>,
        into: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let heap = convert::uint(heap, "heap")?;
        let take = convert::uint(take, "take")?;
        // A heap index past usize cannot name a heap of any position in memory.
        let heap = usize::try_from(heap).unwrap_or(usize::MAX);
        let Some(into) = into.filter(|into| !into.is_none()) else {
            if take == 0 {
                return Err(Error::TakeNothing.into());
            }
            return Ok(PyMove(Move::new(heap, take)));
        };
        let into = convert::uints(into, "into", "part")?;
        let parts = Parts::new(&into).ok_or_else(|| {
            PyValueError::new_err(format!(
                "into lists the heaps a split leaves: two or three sizes, not {}",
                into.len()
            ))
        })?;
        if into.contains(&0) {
            return Err(PyValueError::new_err(
                "into lists the heaps a split leaves, which are nonempty: a size of 0 is not a heap",
            ));
        }
        Ok(PyMove(Move::split(heap, take, parts)))
    }

    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str) {
        ("heap", "take", "into")
    }

    /// The heap's index, from 0.
    #[getter]
    fn heap(&self) -> usize {
        self.0.heap
    }

    /// How many objects the move takes.
    #[getter]
    fn take(&self) -> u64 {
        self.0.take
    }

    /// The sizes of the heaps a split leaves, or None for a move that leaves one heap
    /// (or none).
    #[getter]
    fn into<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let parts = self.0.into.sizes();
        (!parts.is_empty())
            .then(|| PyTuple::new(py, parts))
            .transpose()
    }

    fn __repr__(&self) -> String {
        let into = match self.0.into.sizes() {
            [] => String::new(),
            parts => format!(", into=({})", join(parts, ", ")),
        };
        format!("Move(heap={}, take={}{into})", self.0.heap, self.0.take)
    }

    fn __str__(&self) -> String {
        let Move { heap, take, into } = self.0;
        match (into.sizes(), take) {
            ([], _) => format!("take {take} from heap {heap}"),
            (parts, 0) => format!("split heap {heap} into {}", join(parts, " + ")),
            (parts, _) => format!(
                "take {take} from heap {heap} and split the rest into {}",
                join(parts, " + ")
            ),
        }
    }

    fn _repr_html_(&self) -> String {
        format!("<code>{}</code>", self.__str__())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<PyMove>() {
            Ok(other) => {
                let holds = op.matches(self.key().cmp(&other.get().key()));
                PyBool::new(py, holds).to_owned().into_any().unbind()
            }
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.0.hash(&mut hasher);
        hasher.finish()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let mv = slf.get();
        let args = match mv.into(py)? {
            None => (mv.0.heap, mv.0.take).into_pyobject(py)?,
            Some(into) => (mv.0.heap, mv.0.take, into).into_pyobject(py)?,
        };
        Ok((slf.get_type().into_any(), args))
    }
}

fn join(parts: &[u64], separator: &str) -> String {
    parts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}
