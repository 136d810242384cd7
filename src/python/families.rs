//! The native families' constructors: one line each. `native_game(family, args)`
//! makes a game of any of them from the arguments its Python class passes; the class
//! (`python/nimkit/`) adds the docstring, the display and the typed signature, and
//! the protocol (`NativeGame`: options, values, outcomes, equality, hashing) is the
//! same for every family.
use std::sync::Arc;

use numpy::PyReadonlyArray2;
use pyo3::conversion::FromPyObjectOwned;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert::{self, UInt};
use super::games::{defined_game, PyNativeGame};
use super::rules::PyRules;
use crate::base::error::Error;
use crate::games::arc_kayles::ArcKaylesRule;
use crate::games::board::on_graph::{self, OnGraph};
use crate::games::coins::{Coins, Rule};
use crate::games::corners::{Board, Corners};
use crate::games::cram::Cram;
use crate::games::hackenbush::Hackenbush;
use crate::games::heaps::HeapsGame;
use crate::games::moore::Moore;
use crate::games::node_kayles::NodeKaylesRule;
use crate::games::sprouts::{notation, Sprouts};
use crate::games::staircase::Staircase;
use crate::games::sum::SumGame;
use crate::games::wythoff::Wythoff;
use crate::games::{At, Game, GameRef};

/// A family's game at a position, as the protocol holds it.
fn at<G: Game>(game: G, position: G::Position) -> GameRef {
    Arc::new(At::new(Arc::new(game), position))
}

/// `native_game` and the list of families from one line per family:
/// `"name" => |py, argument: Type, ...| body` (the body gives the `GameRef`).
macro_rules! native_families {
    ($($family:literal => |$py:ident $(, $arg:ident : $ty:ty)*| $body:expr;)*) => {
        /// The families `native_game` makes, by name.
        pub const NATIVE_FAMILIES: &[&str] = &[$($family),*];

        /// A game of the native family `family` from its constructor's arguments (a
        /// tuple: no varargs to pack on each call).
        #[pyfunction]
        pub fn native_game(
            py: Python<'_>,
            family: &str,
            args: &Bound<'_, PyTuple>,
        ) -> PyResult<PyNativeGame> {
            let game: GameRef = match family {
                $($family => {
                    let mut given = Arguments { family, args, next: 0 };
                    $(let $arg: $ty = given.take(stringify!($arg))?;)*
                    given.finish()?;
                    let $py = py;
                    $body
                })*
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "no native family {family:?}; the families are {}",
                        NATIVE_FAMILIES.join(", ")
                    )))
                }
            };
            Ok(PyNativeGame(game))
        }
    };
}

native_families! {
    // The most asked first: the match tries the names in this order.
    "heaps" => |_py, heaps: Bound<'_, PyAny>, rules: Bound<'_, PyRules>| {
        let heaps = convert::heaps(&heaps)?;
        let rules = rules.get().rules().clone();
        rules.check_position(&heaps)?;
        at(HeapsGame::new(rules)?, heaps)
    };
    "sum" => |_py, parts: Vec<PyRef<'_, PyNativeGame>>| {
        Arc::new(SumGame::of(parts.iter().map(|p| Arc::clone(&p.0))))
    };
    "wythoff" => |_py, a: UInt, b: UInt| at(Wythoff::default(), (a.0, b.0));
    "staircase" => |_py, coins: Bound<'_, PyAny>| {
        let coins = convert::uints(&coins, "coins", "step")?;
        Staircase::check(&coins)?;
        at(Staircase::default(), coins)
    };
    "moore" => |_py, heaps: Bound<'_, PyAny>, k: UInt| at(Moore::new(k.0)?, convert::heaps(&heaps)?);
    "coins" => |_py, rule: String, coins: Bound<'_, PyAny>| {
        at(Coins::new(Rule::named(&rule)?), bits(&convert::uints(&coins, "coins", "coin")?)?)
    };
    "corners" => |_py, rows: Vec<Bound<'_, PyAny>>| at(Corners::default(), board(&rows)?);
    "hackenbush" => |py, nodes: UInt<usize>, edges: PyReadonlyArray2<'_, u64>, ground: Vec<UInt<u32>>, names: Py<PyAny>| {
        hackenbush(py, nodes.0, &edges, &ground, names)?
    };
    "node_kayles" => |_py, vertices: UInt<usize>, edges: Vec<(UInt, UInt)>, grid: Option<(UInt<usize>, UInt<usize>)>, left: Vec<UInt>, names: Py<PyAny>| {
        on_graph(graph::<NodeKaylesRule>(vertices, &edges, grid)?.tagged(Arc::new(names)), &left)?
    };
    "arc_kayles" => |_py, vertices: UInt<usize>, edges: Vec<(UInt, UInt)>, grid: Option<(UInt<usize>, UInt<usize>)>, left: Vec<UInt>, names: Py<PyAny>| {
        on_graph(graph::<ArcKaylesRule>(vertices, &edges, grid)?.tagged(Arc::new(names)), &left)?
    };
    "cram" => |_py, rows: UInt<usize>, cols: UInt<usize>, empty: Option<Vec<UInt>>| {
        let board = Cram::board(rows.0, cols.0)?;
        match empty {
            Some(empty) => on_graph(board, &empty)?,
            // Every cell: the board's size is checked before any list of its cells is made.
            None => {
                let all = board.engine().all();
                at(board, all)
            }
        }
    };
    "sprouts" => |_py, spots: Option<UInt>, text: Option<String>| {
        let code = match (spots, text) {
            (Some(spots), None) => notation::start(spots.0).map_err(Error::from)?,
            (None, Some(text)) => notation::parse(&text).map_err(Error::from)?,
            _ => return Err(PyTypeError::new_err("Sprouts takes a number of spots or a position's text")),
        };
        at(Sprouts::default(), code)
    };
    "defined" => |py, state: Bound<'_, PyAny>, options: Option<Py<PyAny>>| {
        defined_game(py, &state, options)?.0
    };
}

/// A graph of `vertices` and `edges`, or, when the caller found it to be the cells of a
/// `grid` (rows, columns) joined side by side, that board (its shapes then keyed up to
/// the square's symmetries).
fn graph<R: on_graph::Rule>(
    vertices: UInt<usize>,
    edges: &[(UInt, UInt)],
    grid: Option<(UInt<usize>, UInt<usize>)>,
) -> PyResult<OnGraph<R>> {
    Ok(match grid {
        Some((rows, cols)) => OnGraph::board(rows.0, cols.0)?,
        None => {
            let pairs: Vec<(u64, u64)> = edges.iter().map(|(u, v)| (u.0, v.0)).collect();
            OnGraph::new(vertices.0, &pairs)?
        }
    })
}

/// A game on a graph at the set of `vertices`.
fn on_graph<R: on_graph::Rule>(game: OnGraph<R>, vertices: &[UInt]) -> PyResult<GameRef> {
    let set = game.engine().set_of(vertices.iter().map(|v| v.0))?;
    Ok(at(game, set))
}

/// The positional arguments of one family's constructor, taken in order.
struct Arguments<'a, 'py> {
    family: &'a str,
    args: &'a Bound<'py, PyTuple>,
    next: usize,
}

impl<'py> Arguments<'_, 'py> {
    /// The next argument as a `T`; a TypeError names the argument, as pyo3 does.
    fn take<T: FromPyObjectOwned<'py>>(&mut self, name: &str) -> PyResult<T> {
        let item = self.args.get_borrowed_item(self.next).map_err(|_| {
            PyTypeError::new_err(format!(
                "the {} family needs an argument {name:?}",
                self.family
            ))
        })?;
        self.next += 1;
        item.extract::<T>().map_err(|err| {
            let err: PyErr = err.into();
            if err.is_instance_of::<PyTypeError>(item.py()) {
                PyTypeError::new_err(format!("argument '{name}': {}", err.value(item.py())))
            } else {
                err
            }
        })
    }

    fn finish(&self) -> PyResult<()> {
        if self.next == self.args.len() {
            return Ok(());
        }
        Err(PyTypeError::new_err(format!(
            "the {} family takes {} arguments, not {}",
            self.family,
            self.next,
            self.args.len()
        )))
    }
}

/// Coins as booleans: 1 is heads, 0 tails, anything else refused.
fn bits(row: &[u64]) -> PyResult<Vec<bool>> {
    row.iter()
        .map(|&c| match c {
            0 | 1 => Ok(c == 1),
            _ => Err(PyValueError::new_err(format!(
                "a coin is 1 (heads) or 0 (tails), not {c}"
            ))),
        })
        .collect()
}

/// A Turning Corners board from rows of coins, refused unless the rows are of one
/// length.
fn board(rows: &[Bound<'_, PyAny>]) -> PyResult<Board> {
    let mut cols = None;
    let mut cells = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let row = bits(&convert::uints(row, "row", "coin")?)?;
        if *cols.get_or_insert(row.len()) != row.len() {
            return Err(PyValueError::new_err(format!(
                "row {i} has {} coins, row 0 has {}: a board's rows are of one length",
                row.len(),
                cols.unwrap_or(0)
            )));
        }
        cells.extend(row);
    }
    Ok(Board {
        cols: cols.unwrap_or(0),
        cells,
    })
}

/// Green Hackenbush on a graph of `nodes` nodes and `edges` (`(u, v)` rows), the
/// nodes of `ground` on the ground; `names` (the edges as the caller names them) is
/// kept with the graph.
fn hackenbush(
    py: Python<'_>,
    nodes: usize,
    edges: &PyReadonlyArray2<'_, u64>,
    ground: &[UInt<u32>],
    names: Py<PyAny>,
) -> PyResult<GameRef> {
    let edges = edges.as_array();
    if edges.ncols() != 2 {
        return Err(PyValueError::new_err("edges are pairs (u, v)"));
    }
    let mut pairs = crate::base::alloc::with_capacity(edges.nrows())?;
    for row in edges.rows() {
        let node = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        pairs.push((node(row[0]), node(row[1])));
    }
    let ground: Vec<u32> = ground.iter().map(|g| g.0).collect();
    let (game, start) = py.detach(|| {
        let game = Hackenbush::new(nodes, pairs, &ground)?;
        let start = game.start()?;
        Ok::<_, Error>((game, start))
    })?;
    Ok(at(game.tagged(Arc::new(names)), start))
}
