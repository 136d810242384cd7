//! `nimkit.TakeAndBreak`: take-and-break codes and their Grundy sequences.
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use std::path::PathBuf;
use std::sync::Arc;

use super::convert::{self, UInt};
use super::progress;
use super::quotient::PyMisereQuotient;
use crate::heap::code::{Method, TakeAndBreak};
use crate::misere::monoid::MAX_PRODUCT;
use crate::misere::{genus, values};
use crate::solve::solver::DEFAULT_MAX_POSITIONS;
use pyo3::types::{PyDict, PyTuple};

/// What `sparse_space` returns: the mask, whether heap parity joins it, the rare heaps.
type SparseSpace<'py> = (u32, bool, Bound<'py, PyArray1<u64>>);

/// How many values `sparse_space` computes at least, unless told.
const DEFAULT_SPARSE_COUNT: usize = 1 << 16;

/// The most values `grundy_sequence` returns at once (16 GiB of uint32).
const MAX_SEQUENCE: usize = 1 << 32;

fn check_count(count: usize) -> PyResult<()> {
    if count > MAX_SEQUENCE {
        return Err(PyValueError::new_err(format!(
            "count is {count}, over the most computed at once, {MAX_SEQUENCE}"
        )));
    }
    Ok(())
}

/// Compute `count` values of `rule` without the GIL, with a tqdm bar when asked.
fn compute(
    py: Python<'_>,
    rule: &TakeAndBreak,
    count: usize,
    progress: bool,
    what: &str,
) -> PyResult<()> {
    progress::run(py, progress, count, what, |report| {
        rule.compute(count, report)?;
        if rule.period().is_some() {
            // The rest of the values follow from the period.
            report(count);
        }
        Ok(())
    })
}

/// The first `count` values in the narrowest unsigned dtype that holds them.
fn narrow_values<'py>(
    py: Python<'py>,
    rule: &TakeAndBreak,
    count: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let top = rule.max_value(count);
    Ok(if top <= u32::from(u8::MAX) {
        rule.values_as::<u8>(count)?.into_pyarray(py).into_any()
    } else if top <= u32::from(u16::MAX) {
        rule.values_as::<u16>(count)?.into_pyarray(py).into_any()
    } else {
        rule.values_as::<u32>(count)?.into_pyarray(py).into_any()
    })
}

/// A take-and-break game given by its code (Winning Ways / CGSuite notation), e.g.
/// ``TakeAndBreak("0.77")`` (Kayles), ``"0.07"`` (Dawson's Kayles), ``"4!.0"``
/// (Grundy's game).
///
/// Digit ``t`` of the code (``d0.d1d2...``) says what taking ``t`` may leave: bit 1
/// nothing, bit 2 one heap, bit 4 two heaps, bit 8 three (hexadecimal); ``d0`` splits
/// without taking; ``!`` asks the heaps left to be pairwise different. Grundy values
/// are computed on demand and cached; once a period is proven (octal periodicity
/// theorem), a heap of any size up to 2**64 - 1 is O(1). Without a proven period,
/// values are computed up to ``naive_limit``.
///
/// >>> kayles = TakeAndBreak("0.77")
/// >>> [kayles.grundy(n) for n in range(1, 11)]
/// [1, 2, 3, 1, 4, 3, 2, 1, 4, 2]
/// >>> kayles.period()
/// (71, 12)
#[pyclass(name = "TakeAndBreak", module = "nimkit", frozen, eq, hash)]
#[derive(PartialEq, Hash)]
pub struct PyTakeAndBreak(Arc<TakeAndBreak>);

impl PyTakeAndBreak {
    /// The rule, shared with the Rules that use it.
    pub fn rule(&self) -> Arc<TakeAndBreak> {
        Arc::clone(&self.0)
    }
}

impl From<Arc<TakeAndBreak>> for PyTakeAndBreak {
    fn from(rule: Arc<TakeAndBreak>) -> Self {
        PyTakeAndBreak(rule)
    }
}

#[pymethods]
impl PyTakeAndBreak {
    #[new]
    fn new(code: &str) -> PyResult<Self> {
        Ok(PyTakeAndBreak(TakeAndBreak::shared(code)?))
    }

    /// The code in canonical form, e.g. ``"0.77"`` or ``"4!.0"``.
    #[getter]
    fn code(&self) -> String {
        self.0.code()
    }

    /// The largest number of objects one move takes.
    #[getter]
    fn max_take(&self) -> u64 {
        self.0.max_take()
    }

    /// Whether some move splits a heap into two or three.
    #[getter]
    fn splits(&self) -> bool {
        self.0.splits()
    }

    /// How many values (heaps ``0 .. known - 1``) are computed and cached, not counting
    /// those a proven period gives.
    #[getter]
    fn known(&self) -> usize {
        self.0.known()
    }

    /// The largest heap whose value is computed without a proven period.
    #[getter]
    fn naive_limit(&self) -> u64 {
        self.0.naive_limit()
    }

    /// The Grundy value of a heap of ``n`` objects (computed up to ``naive_limit``
    /// without a proven period; see ``grundy_sequence`` and ``period`` to go further).
    fn grundy(&self, py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<u32> {
        let n = convert::uint(n, "n")?;
        let rule = &self.0;
        Ok(py.detach(|| rule.ensure(n).map(|()| rule.grundy(n)))?)
    }

    /// The Grundy values of heaps ``0 .. count - 1``, in the narrowest unsigned dtype
    /// that holds them. Computed as far as asked (the sparse-space method where it
    /// applies), stopping early once a period is proven; cached in the rule. With
    /// ``progress``, a tqdm bar (the ``progress`` extra); Ctrl-C stops it, keeping
    /// what was computed.
    ///
    /// With ``checkpoint`` (a directory), a long run survives a restart: the values
    /// are computed into a memory-mapped file there (``keep_values_in``), their
    /// SHA-256 written about every ``every`` seconds, atomically, and a run with the
    /// same directory resumes from them (see ``nimkit.sequence_checkpoint``). The values are
    /// then returned as that file, memory-mapped read-only (in the narrowest dtype,
    /// as computed): a run past memory returns without a copy.
    ///
    /// >>> TakeAndBreak("0.77").grundy_sequence(8)
    /// array([0, 1, 2, 3, 1, 4, 3, 2], dtype=uint8)
    #[pyo3(signature = (count, progress = false, checkpoint = None, every = 180.0))]
    fn grundy_sequence<'py>(
        slf: &Bound<'py, Self>,
        count: UInt<usize>,
        progress: bool,
        checkpoint: Option<&Bound<'py, PyAny>>,
        every: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let count = count.0;
        check_count(count)?;
        if let Some(directory) = checkpoint {
            let module = py.import("nimkit.sequence_checkpoint")?;
            module
                .getattr("run")?
                .call1((slf, count, progress, directory, every))?;
            return module.getattr("values")?.call1((directory, count));
        }
        let rule = &slf.borrow().0;
        compute(
            py,
            rule,
            count,
            progress && checkpoint.is_none(),
            "Grundy values",
        )?;
        narrow_values(py, rule, count)
    }

    /// Take ``values`` (uint32) as the Grundy values of heaps ``0 .. len(values) - 1``
    /// when fewer are known, so that a computation resumes from them (``nimkit
    /// .checkpoint`` does, once their SHA-256 is checked). ValueError when the first
    /// ones (up to 1000) differ from the definition.
    fn resume(&self, py: Python<'_>, values: PyReadonlyArray1<'_, u32>) -> PyResult<()> {
        let values = values.as_slice()?;
        let rule = &self.0;
        Ok(py.detach(|| rule.resume(values))?)
    }

    /// Compute the values of heaps ``0 .. count - 1`` without returning them (they
    /// stay in the rule, or in its file: see ``keep_values_in``); how many are
    /// computed (``known``). ``progress`` and Ctrl-C as for ``grundy_sequence``.
    ///
    /// >>> TakeAndBreak("0.6").compute(1000)
    /// 1000
    #[pyo3(signature = (count, progress = false))]
    fn compute(&self, py: Python<'_>, count: UInt<usize>, progress: bool) -> PyResult<usize> {
        check_count(count.0)?;
        compute(py, &self.0, count.0, progress, "Grundy values")?;
        Ok(self.0.known())
    }

    /// Keep this code's values in the file ``path`` (little-endian, heap 0 first;
    /// its extension ``.u8``, ``.u16`` or ``.u32`` names the dtype), memory-mapped,
    /// rather than in memory: computations write there, and values past memory go to
    /// the disk through the page cache. Values are kept in the narrowest dtype that
    /// holds them all, as in memory: once one is too large for the file's, they
    /// move to a new file named by the wider dtype next to it (``values_file``; the
    /// narrower file is left as it was). The file's first ``count`` values are taken
    /// as this code's (the first 1000 are checked against the definition: ValueError
    /// naming the first that differs; check the rest yourself, as
    /// ``nimkit.sequence_checkpoint`` does by SHA-256), what it holds past them is dropped,
    /// and the values known past them are written there. Nothing changes when the
    /// values are in that file already. OSError when the file cannot be used,
    /// ValueError for another extension. Every ``TakeAndBreak`` of this code in the
    /// process shares the file; it must not be shortened by another program while
    /// they use it.
    ///
    /// >>> import tempfile, pathlib
    /// >>> with tempfile.TemporaryDirectory() as d:
    /// ...     rule = TakeAndBreak("0.6")  # its values pass 255 at heap 10344
    /// ...     rule.keep_values_in(pathlib.Path(d) / "values.u8")
    /// ...     _ = rule.compute(12000)
    /// ...     rule.values_file.name, sorted(p.name for p in pathlib.Path(d).iterdir())
    /// ('values.u16', ['values.u16', 'values.u8'])
    #[pyo3(signature = (path, count = UInt(0)), text_signature = "($self, path, count=0)")]
    fn keep_values_in(&self, py: Python<'_>, path: PathBuf, count: UInt<usize>) -> PyResult<()> {
        let rule = &self.0;
        Ok(py.detach(|| rule.keep_in_file(&path, count.0))?)
    }

    /// The file the values are kept in (``keep_values_in``), or None when they are in
    /// memory.
    #[getter]
    fn values_file(&self) -> Option<PathBuf> {
        self.0.values_file()
    }

    /// Write the values of heaps ``start .. stop - 1`` kept in a file to the disk
    /// (``fsync``); nothing for values in memory.
    fn flush_values(&self, py: Python<'_>, start: UInt<usize>, stop: UInt<usize>) -> PyResult<()> {
        let rule = &self.0;
        Ok(py.detach(|| rule.flush_values(start.0, stop.0))?)
    }

    /// ``(preperiod, period)`` once proven by the values of heaps up to ``max_heap``
    /// (default: ``naive_limit``), computing them as needed, else None.
    /// ``G(n + period) == G(n)`` for every ``n >= preperiod``; the preperiod counts
    /// heap 0. Codes with ``!`` prove no period. ``progress`` as for
    /// ``grundy_sequence``.
    #[pyo3(signature = (max_heap = None, progress = false))]
    fn period(
        &self,
        py: Python<'_>,
        max_heap: Option<UInt>,
        progress: bool,
    ) -> PyResult<Option<(usize, usize)>> {
        let max_heap = max_heap.map(|v| v.0);
        let rule = &self.0;
        if !rule.period_provable() {
            return Ok(None);
        }
        let top = max_heap.unwrap_or(rule.naive_limit());
        if top >= MAX_SEQUENCE as u64 {
            return Err(PyValueError::new_err(format!(
                "max_heap is {top}, over the most computed at once, {}",
                MAX_SEQUENCE - 1
            )));
        }
        let count = top as usize + 1;
        compute(py, rule, count, progress, "values to prove a period")?;
        Ok(rule.period())
    }

    /// The sparse space of the values computed, after computing at least ``count``
    /// of them (default: 65536; Ctrl-C stops it): ``(mask, heap_parity,
    /// rare_heaps)``. A value ``v`` of heap ``n`` is rare when ``popcount(v &
    /// mask)`` (plus the parity of ``n`` when ``heap_parity``; see the README) is
    /// even; ``rare_heaps`` lists the heaps from 1 on with a rare value, among every
    /// value computed so far (``grundy_sequence`` computes further). None for codes
    /// computed by the definition alone (no split, or splits into three heaps).
    ///
    /// >>> mask, heap_parity, rare = TakeAndBreak("0.16").sparse_space(20_000)
    /// >>> hex(mask), len(rare)
    /// ('0x1e', 52)
    #[pyo3(
        signature = (count = UInt(DEFAULT_SPARSE_COUNT)),
        text_signature = "($self, count=65536)"
    )]
    fn sparse_space<'py>(
        &self,
        py: Python<'py>,
        count: UInt<usize>,
    ) -> PyResult<Option<SparseSpace<'py>>> {
        let count = count.0;
        check_count(count)?;
        if !self.0.uses_sparse_space() {
            return Ok(None);
        }
        compute(py, &self.0, count, false, "Grundy values")?;
        let Some((mask, parity, rare)) = self.0.sparse_space() else {
            return Ok(None);
        };
        let rare: Vec<u64> = rare.into_iter().map(|h| h as u64).collect();
        Ok(Some((mask, parity, rare.into_pyarray(py))))
    }

    /// The statistics researchers publish for the Grundy values of heaps
    /// ``0 .. count - 1`` (as in Czajka's tables of unsolved octal games): a dict of
    /// ``count``, ``largest`` (the largest value), ``largest_at`` (the first heap with
    /// it), and for codes with a sparse space ``mask`` (the mask with the fewest rare
    /// heaps), ``heap_parity`` (whether heap parity joins it), ``rare`` (how many heaps
    /// are rare, heap 0 included) and ``last_rare`` (the last rare heap); None for
    /// those four otherwise. Computes the values first (``progress``: a tqdm bar).
    ///
    /// >>> stats = TakeAndBreak("0.6").statistics(2**14)
    /// >>> stats["largest"], stats["largest_at"], hex(stats["mask"]), stats["rare"]
    /// (266, 13539, '0x1ee', 1577)
    #[pyo3(signature = (count, progress = false))]
    fn statistics<'py>(
        &self,
        py: Python<'py>,
        count: UInt<usize>,
        progress: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let count = count.0;
        check_count(count)?;
        compute(py, &self.0, count, progress, "Grundy values")?;
        let rule = &self.0;
        let stats = py.detach(|| rule.statistics(count))?;
        let (mask, heap_parity, rare, last_rare) = match stats.sparse {
            Some((mask, parity, rare, last)) => (Some(mask), Some(parity), Some(rare), last),
            None => (None, None, None, None),
        };
        let dict = PyDict::new(py);
        dict.set_item("count", stats.count)?;
        dict.set_item("largest", stats.largest)?;
        dict.set_item("largest_at", stats.largest_at)?;
        dict.set_item("mask", mask)?;
        dict.set_item("heap_parity", heap_parity)?;
        dict.set_item("rare", rare)?;
        dict.set_item("last_rare", last_rare)?;
        Ok(dict)
    }

    /// What proves the period: a ``nimkit.PeriodCertificate`` (see
    /// ``nimkit.verify_certificate``). ValueError when no period is proven up to
    /// ``max_heap``.
    #[pyo3(signature = (max_heap = None, progress = false))]
    fn certificate<'py>(
        slf: &Bound<'py, Self>,
        max_heap: Option<UInt>,
        progress: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let max_heap = max_heap.map(|v| v.0);
        let make = slf
            .py()
            .import("nimkit.certificate")?
            .getattr("certificate")?;
        make.call1((slf, max_heap, progress))
    }

    /// The first ``count`` values computed again from nothing, by ``method``
    /// (``"naive"``: the definition; ``"auto"``: the sparse-space method where it
    /// applies), never from a period: the second computation a certificate's check
    /// runs.
    #[pyo3(signature = (count, method, progress = false))]
    fn recompute<'py>(
        &self,
        py: Python<'py>,
        count: UInt<usize>,
        method: &str,
        progress: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let count = count.0;
        let method = match method {
            "naive" => Method::Naive,
            "auto" => Method::Auto,
            other => {
                return Err(PyValueError::new_err(format!(
                    "method is \"naive\" or \"auto\", not {other:?}"
                )))
            }
        };
        check_count(count)?;
        let fresh = self.0.fresh(method);
        compute(py, &fresh, count, progress, "values, again")?;
        narrow_values(py, &fresh, count)
    }

    /// Whether ``values`` (this code's first values) prove ``(preperiod, period)``
    /// by the periodicity theorem, checked from its statement alone.
    fn proves(
        &self,
        py: Python<'_>,
        values: PyReadonlyArray1<'_, u32>,
        preperiod: UInt<usize>,
        period: UInt<usize>,
    ) -> PyResult<bool> {
        let preperiod = preperiod.0;
        let period = period.0;
        let values = values.as_slice()?;
        Ok(py.detach(|| self.0.proves(values, preperiod, period)))
    }

    /// How many values the periodicity theorem needs to prove ``(preperiod,
    /// period)`` for this code (``2 * (max(preperiod, 1) + period) + max_take``, with
    /// 3 for 2 when moves leave three heaps), or None when it proves nothing (``!``).
    fn values_to_prove(
        &self,
        preperiod: UInt<usize>,
        period: UInt<usize>,
    ) -> PyResult<Option<usize>> {
        Ok(self.0.values_to_prove(preperiod.0, period.0)?)
    }

    /// The misère quotient of the heaps up to ``max_heap``, computed heap by heap
    /// (Siegel's MisereSolver method, every step checked over all positions), stopping
    /// early once the heap-to-element map is proven periodic: then it answers for
    /// heaps of any size. The candidates it tries are kept as direct products and
    /// only their reductions get a multiplication table, so the bound is memory:
    /// MemoryError when a candidate's elements do not fit, ValueError past
    /// ``max_elements`` of them (at most 2**28) or a reduction past 2**15 (it may be
    /// infinite; the message says how far it got; ``0.35`` grows past 4000 elements
    /// by heap 60; a smaller ``max_elements`` gives up sooner). ``progress``: a tqdm
    /// bar; Ctrl-C stops it. The rule keeps its computation (the one that got furthest, up
    /// to heap 1000; every TakeAndBreak of one code shares the rule while one is
    /// held): asked again, for fewer heaps or for more, the quotient is read off it or
    /// resumed from it, also after Ctrl-C.
    ///
    /// >>> q = TakeAndBreak("0.77").misere_quotient(max_heap=200)
    /// >>> q.order, len(q.p_portion), q.period
    /// (40, 9, (71, 12))
    #[pyo3(
        signature = (max_heap = UInt(300), progress = false, max_elements = UInt(MAX_PRODUCT)),
        text_signature = "($self, max_heap=300, progress=False, max_elements=268435456)"
    )]
    fn misere_quotient(
        &self,
        py: Python<'_>,
        max_heap: UInt<usize>,
        progress: bool,
        max_elements: UInt<usize>,
    ) -> PyResult<PyMisereQuotient> {
        PyMisereQuotient::compute(py, self.rule(), max_heap.0, max_elements.0, progress)
    }

    /// The misère Grundy values (CGSuite's ``MisereNimValue``) of heaps ``0 .. count
    /// - 1``: 1 for a heap with no move, else the mex of its options' values, an
    /// option (a sum of heaps) valued as a game of its own. By one exact search over
    /// every multiset of heaps below the largest (one byte each), on every core,
    /// refused past ``max_positions`` of them: Kayles to heap 99 holds p(100), about
    /// 1.9*10**8, and takes about 100 s on two cores. ``progress`` shows a bar of the
    /// heaps whose values are known; Ctrl-C stops it.
    ///
    /// >>> TakeAndBreak("0.77").misere_grundy_sequence(8).tolist()
    /// [1, 0, 2, 3, 0, 1, 3, 2]
    #[pyo3(signature = (count, max_positions = UInt(values::DEFAULT_MAX_POSITIONS), progress = false))]
    fn misere_grundy_sequence<'py>(
        &self,
        py: Python<'py>,
        count: UInt,
        max_positions: UInt,
        progress: bool,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let (count, max_positions) = (count.0, max_positions.0);
        let bar = usize::try_from(count).unwrap_or(usize::MAX);
        let values = progress::run(py, progress, bar, "misère values", |report| {
            values::of_heaps(&self.0, count, max_positions, report)
        })?;
        Ok(values.into_pyarray(py))
    }

    /// Conway's genus of a heap of ``n``: a ``nimkit.Genus`` ``(base, sup)``, the
    /// normal-play value and the misère values of the heap plus 0, 1, 2, ... copies of
    /// ``*2`` (the last two repeat forever); ``str`` gives Conway's notation. By one
    /// exact search over every position the heap reaches, refused past
    /// ``max_positions`` positions and past 2**27 moves weighed (about 40 s; Kayles
    /// reaches heap 68).
    ///
    /// >>> str(TakeAndBreak("0.77").genus(2))
    /// '2^20'
    #[pyo3(signature = (n, max_positions = UInt(DEFAULT_MAX_POSITIONS)))]
    fn genus<'py>(
        &self,
        py: Python<'py>,
        n: &Bound<'_, PyAny>,
        max_positions: UInt,
    ) -> PyResult<Bound<'py, PyAny>> {
        let max_positions = max_positions.0;
        let n = convert::uint(n, "n")?;
        let mut genera =
            py.detach(|| genus::of_heaps(&self.0, &[n], max_positions, &mut |_| {}))?;
        let genus = genera.pop().expect("one heap asked");
        let sup = PyTuple::new(py, genus.sup)?;
        py.import("nimkit.misere")?
            .getattr("Genus")?
            .call1((genus.base, sup))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.code(),)))
    }

    fn __repr__(&self) -> String {
        format!("TakeAndBreak({:?})", self.0.code())
    }
}

/// What `octal_equivalences` gives for one class: the representative, each member
/// with its offset, and the representative's preperiod, period and values when the
/// class is trivial.
type Class = (
    String,
    Vec<(String, usize)>,
    Option<(usize, usize, Vec<u32>)>,
);

/// The octal codes with up to `digits` digits after the point in classes of equal
/// Grundy sequences up to a shift (`nimkit.octal_equivalences` wraps this).
#[pyfunction]
pub fn octal_classes(
    py: Python<'_>,
    digits: UInt<usize>,
    heaps: UInt<usize>,
) -> PyResult<Vec<Class>> {
    let classes = py.detach(|| crate::heap::code::octal_equivalences(digits.0, heaps.0))?;
    Ok(classes
        .into_iter()
        .map(|class| (class.representative, class.members, class.period))
        .collect())
}
