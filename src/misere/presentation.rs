//! A presentation of a quotient by generators and relations, for display.
//!
//! Generators are the elements of the heaps that the smaller heaps do not generate,
//! named a, b, c, ... in heap order. Each element's normal form is its least word
//! (fewest letters, then lexicographic, as exponent vectors) reaching it; the words
//! that are not normal forms but whose every proper factor is one give the
//! relations `word = normal form`, a complete rewriting system (normal forms of a
//! term order form a down-set, so these relations rewrite any word to its normal
//! form).
use std::collections::VecDeque;

use super::quotient::MisereQuotient;

/// Exponent vectors over the generators.
pub type Word = Vec<u32>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    /// The heap each generator comes from, with its element.
    pub generators: Vec<(usize, u32)>,
    /// Each element's normal form.
    pub normal: Vec<Word>,
    /// `(word, normal form)` pairs.
    pub relations: Vec<(Word, Word)>,
}

impl Presentation {
    pub fn of(q: &MisereQuotient) -> Self {
        let mut generators: Vec<(usize, u32)> = Vec::new();
        let mut reached = vec![false; q.order()];
        reached[0] = true;
        for (heap, &x) in q.heap.iter().enumerate() {
            if !reached[x as usize] {
                generators.push((heap, x));
                reached = closure(q, &generators);
            }
        }
        let k = generators.len();
        // Breadth first by letters, each level's words in lexicographic order.
        let mut normal: Vec<Option<Word>> = vec![None; q.order()];
        normal[0] = Some(vec![0; k]);
        let mut level = vec![(vec![0u32; k], 0u32)];
        let mut non_normal: Vec<(Word, u32)> = Vec::new();
        while !level.is_empty() {
            let mut next: Vec<(Word, u32)> = Vec::new();
            for (word, x) in &level {
                for (i, &(_, g)) in generators.iter().enumerate() {
                    let mut w = word.clone();
                    w[i] += 1;
                    next.push((w, q.monoid.product(*x, g)));
                }
            }
            next.sort();
            next.dedup();
            let mut kept = Vec::new();
            for (w, x) in next {
                if normal[x as usize].is_none() {
                    normal[x as usize] = Some(w.clone());
                    kept.push((w, x));
                } else {
                    non_normal.push((w, x));
                }
            }
            level = kept;
        }
        let normal: Vec<Word> = normal.into_iter().map(|w| w.unwrap_or_default()).collect();
        let is_normal = |w: &Word, x: u32| normal[x as usize] == *w;
        let relations = non_normal
            .into_iter()
            .filter(|(w, _)| {
                // Every factor with one letter fewer is a normal form.
                (0..k).filter(|&i| w[i] > 0).all(|i| {
                    let mut f = w.clone();
                    f[i] -= 1;
                    let x = element(q, &generators, &f);
                    is_normal(&f, x)
                })
            })
            .map(|(w, x)| (w, normal[x as usize].clone()))
            .collect();
        Presentation {
            generators,
            normal,
            relations,
        }
    }

    /// A word in letters: `a^2 b`, or `1` for the empty word.
    pub fn text(&self, word: &[u32]) -> String {
        let parts: Vec<String> = word
            .iter()
            .enumerate()
            .filter(|(_, &e)| e > 0)
            .map(|(i, &e)| {
                let letter = letter(i);
                if e == 1 {
                    letter
                } else {
                    format!("{letter}^{e}")
                }
            })
            .collect();
        if parts.is_empty() {
            "1".into()
        } else {
            parts.join(" ")
        }
    }
}

/// `a` .. `z`, then `g26`, `g27`, ...
fn letter(i: usize) -> String {
    match u8::try_from(i) {
        Ok(i) if i < 26 => char::from(b'a' + i).to_string(),
        _ => format!("g{i}"),
    }
}

fn element(q: &MisereQuotient, generators: &[(usize, u32)], word: &[u32]) -> u32 {
    word.iter().zip(generators).fold(0, |x, (&e, &(_, g))| {
        (0..e).fold(x, |x, _| q.monoid.product(x, g))
    })
}

/// Which elements the generators reach.
fn closure(q: &MisereQuotient, generators: &[(usize, u32)]) -> Vec<bool> {
    let mut reached = vec![false; q.order()];
    reached[0] = true;
    let mut queue = VecDeque::from([0u32]);
    while let Some(x) = queue.pop_front() {
        for &(_, g) in generators {
            let y = q.monoid.product(x, g);
            if !reached[y as usize] {
                reached[y as usize] = true;
                queue.push_back(y);
            }
        }
    }
    reached
}
