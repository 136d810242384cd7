//! The tables a search learned, as a checkpoint holds them.
use crate::base::alloc;
use crate::base::error::{Error, Result};

/// A table of what the normal-play searches learned, as a checkpoint holds it: the
/// keys' words one after another (`lengths[i]` words for key i), and their values.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Saved {
    pub lengths: Vec<u16>,
    pub words: Vec<u64>,
    pub values: Vec<u32>,
}

impl Saved {
    /// The `len` entries of a table.
    pub fn of<'k>(entries: impl Iterator<Item = (&'k [u64], u32)>, len: usize) -> Result<Self> {
        let mut saved = Saved {
            lengths: alloc::with_capacity(len)?,
            words: Vec::new(),
            values: alloc::with_capacity(len)?,
        };
        for (key, value) in entries {
            alloc::grow_by(&mut saved.words, key.len())?;
            saved.words.extend_from_slice(key);
            saved.lengths.push(key.len() as u16);
            saved.values.push(value);
        }
        Ok(saved)
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether the three arrays agree (else the error to give).
    pub fn check(&self) -> Result<()> {
        let words: usize = self.lengths.iter().map(|&n| usize::from(n)).sum();
        if self.lengths.len() != self.values.len() || words != self.words.len() {
            return Err(Error::Checkpoint(format!(
                "{} key lengths, {} values and {} words (the lengths add up to {words})",
                self.lengths.len(),
                self.values.len(),
                self.words.len()
            )));
        }
        Ok(())
    }

    /// Each key's words and its value.
    pub fn entries(&self) -> impl Iterator<Item = (&[u64], u32)> + '_ {
        let mut at = 0;
        self.lengths.iter().zip(&self.values).map(move |(&n, &v)| {
            let key = &self.words[at..at + usize::from(n)];
            at += usize::from(n);
            (key, v)
        })
    }

    /// Refuse a saved `value` that no component with `moves` moves can have (a value
    /// is at most the number of options): a checkpoint is not believed blindly.
    pub fn plausible(value: u32, moves: u64) -> Result<()> {
        if u64::from(value) > moves {
            return Err(Error::Checkpoint(format!(
                "a component with {moves} moves saved with the value {value} (at most {moves})"
            )));
        }
        Ok(())
    }

    pub fn wrong_width(found: usize, wanted: usize) -> Error {
        Error::Checkpoint(format!(
            "a key of {found} words where this board's have {wanted}"
        ))
    }
}
