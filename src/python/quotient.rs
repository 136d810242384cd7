//! `nimkit.MisereQuotient`: a take-and-break game's misère quotient.
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::convert;
use super::convert::py_outcome;
use super::progress;
use std::sync::Arc;

use crate::base::outcome::Outcome;
use crate::heap::code::TakeAndBreak;
use crate::misere::presentation::Presentation;
use crate::misere::{self, MisereQuotient};

/// The misère quotient of a take-and-break game's heaps up to ``max_heap``
/// (Plambeck and Siegel): a finite commutative monoid, its P-portion, and each
/// heap's element. A position is a misère P-position exactly when the product of
/// its heaps' elements is in the P-portion. Once the heap-to-element map is proven
/// periodic (``is_stable``), that holds for heaps of any size.
///
/// Made by ``TakeAndBreak.misere_quotient``. Elements are numbered from 0 (the
/// identity, the empty position).
///
/// >>> q = TakeAndBreak("0.75").misere_quotient(max_heap=40)
/// >>> q.order, len(q.p_portion), q.is_stable
/// (8, 2, True)
#[pyclass(name = "MisereQuotient", module = "nimkit", frozen)]
pub struct PyMisereQuotient {
    code: String,
    quotient: MisereQuotient,
}

impl PyMisereQuotient {
    /// The quotient of `rule`'s heaps up to `max_heap` (candidates of at most
    /// `max_elements`), without the GIL, with a tqdm bar when asked.
    pub fn compute(
        py: Python<'_>,
        rule: Arc<TakeAndBreak>,
        max_heap: usize,
        max_elements: usize,
        progress: bool,
    ) -> PyResult<Self> {
        let code = rule.code();
        let quotient = progress::run(py, progress, max_heap, "heaps", |report| {
            misere::quotient_up_to(&rule, max_heap, max_elements, report)
        })?;
        Ok(PyMisereQuotient { code, quotient })
    }
}

#[pymethods]
impl PyMisereQuotient {
    /// The game's code.
    #[getter]
    fn code(&self) -> String {
        self.code.clone()
    }

    /// The number of elements (always even for impartial games).
    #[getter]
    fn order(&self) -> usize {
        self.quotient.order()
    }

    /// The elements whose positions are misère P-positions.
    #[getter]
    fn p_portion(&self) -> Vec<u32> {
        self.quotient.p_portion()
    }

    /// The largest heap computed.
    #[getter]
    fn max_heap(&self) -> usize {
        self.quotient.max_heap()
    }

    /// ``(preperiod, period)`` of the heap-to-element map once proven, else None.
    #[getter]
    fn period(&self) -> Option<(usize, usize)> {
        self.quotient.period
    }

    /// Whether the quotient is proven for heaps of every size.
    #[getter]
    fn is_stable(&self) -> bool {
        self.quotient.period.is_some()
    }

    /// The heaps at which the quotient grew (a new generator).
    #[getter]
    fn changes(&self) -> Vec<usize> {
        self.quotient.changes.clone()
    }

    /// The multiplication table: ``table[a, b]`` is the element ``a b``.
    #[getter]
    fn table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let order = self.quotient.order();
        let flat: Vec<u32> = (0..order as u32)
            .flat_map(|a| self.quotient.monoid.row(a).to_vec())
            .collect();
        flat.into_pyarray(py).reshape([order, order])
    }

    /// Each heap's element, heaps ``0 .. max_heap``.
    #[getter]
    fn heap_elements<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.quotient.heap.clone().into_pyarray(py)
    }

    /// The element of a heap of ``n`` (any size once ``is_stable``).
    fn heap_element(&self, n: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.quotient.element(convert::uint(n, "n")?)?)
    }

    /// The element of a position: the product of its heaps' elements.
    fn element(&self, heaps: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.quotient.element_of(&convert::heaps(heaps)?)?)
    }

    /// ``Outcome.P`` when the position is a misère P-position, else ``Outcome.N``.
    ///
    /// >>> TakeAndBreak("0.77").misere_quotient(max_heap=200).outcome([12, 400, 10**9])
    /// Outcome.N
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        heaps: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let heaps = convert::heaps(heaps)?;
        let lost = py.detach(|| self.quotient.is_p(&heaps))?;
        py_outcome(py, if lost { Outcome::P } else { Outcome::N })
    }

    /// The generators: ``(name, heap)`` pairs, ``"a"`` the element of the first heap
    /// that the smaller heaps do not generate, then ``"b"``, ...
    ///
    /// >>> TakeAndBreak("0.75").misere_quotient().generators
    /// [('a', 1), ('b', 2), ('c', 5)]
    #[getter]
    fn generators(&self) -> Vec<(String, usize)> {
        let p = Presentation::of(&self.quotient);
        let mut unit = vec![0; p.generators.len()];
        p.generators
            .iter()
            .enumerate()
            .map(|(i, &(heap, _))| {
                unit[i] = 1;
                let name = p.text(&unit);
                unit[i] = 0;
                (name, heap)
            })
            .collect()
    }

    /// Relations ``"word = normal form"`` that, with the generators, present the
    /// quotient: they rewrite any word to the normal form of its element (its least
    /// word, fewest letters first).
    ///
    /// >>> "a^2 = 1" in TakeAndBreak("0.75").misere_quotient().relations
    /// True
    #[getter]
    fn relations(&self) -> Vec<String> {
        let p = Presentation::of(&self.quotient);
        p.relations
            .iter()
            .map(|(lhs, rhs)| format!("{} = {}", p.text(lhs), p.text(rhs)))
            .collect()
    }

    /// The normal form of element ``x`` as a word in the generators (``"1"``: the
    /// identity).
    fn word(&self, x: usize) -> PyResult<String> {
        let p = Presentation::of(&self.quotient);
        let normal = p.normal.get(x).ok_or_else(|| {
            PyValueError::new_err(format!(
                "x is {x}, but the elements are 0 .. {}",
                self.quotient.order() - 1
            ))
        })?;
        Ok(p.text(normal))
    }

    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let html = slf.py().import("nimkit.misere")?.getattr("html")?;
        html.call1((slf,))?.extract()
    }

    fn __repr__(&self) -> String {
        let period = match self.quotient.period {
            Some((pre, p)) => format!("period=({pre}, {p})"),
            None => "not stable".to_string(),
        };
        format!(
            "<MisereQuotient of {}: order {}, {} P-elements, heaps 0..{}, {}>",
            self.code,
            self.quotient.order(),
            self.quotient.p_portion().len(),
            self.quotient.max_heap(),
            period
        )
    }
}
