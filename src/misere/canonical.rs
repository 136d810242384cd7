//! Misère canonical forms of impartial games (Conway, *On Numbers and Games*,
//! ch. 12; Siegel, arXiv 2012.08554 §2): two games are equal in misère play when
//! they have the same outcome beside every game, and each game equals exactly one
//! game in simplest form, so simplest forms numbered once (`Id`s) key games by
//! their misère value, as nimbers do in normal play.
//!
//! The Grundy–Smith rule: if every option of G that is not an option of H has an
//! option equal to H, H's options are among G's, and (the proviso) H has an option
//! or G is a first-player win, then G = H. By Conway's theorem a game whose options
//! are in simplest form is in simplest form unless an option of an option equals it,
//! and that option of an option, being in simplest form already, is the simplest
//! form sought; so `game` tries each option of each option.
use rustc_hash::FxHashMap;

use crate::base::alloc;
use crate::base::error::Result;

/// A game in simplest form, by its number in `Forms`.
pub type Id = u32;

/// The game with no option.
pub const ZERO: Id = 0;
/// *, the game whose one option is 0.
pub const STAR: Id = 1;

/// The games in simplest form met so far, numbered as met, and the sums asked of
/// them.
#[derive(Debug)]
pub struct Forms {
    /// Each game's options, sorted.
    options: Vec<Box<[Id]>>,
    /// Whether the player to move wins each game in misère play.
    wins: Vec<bool>,
    /// Each game's birthday: the longest play from it.
    height: Vec<u32>,
    ids: FxHashMap<Box<[Id]>, Id>,
    sums: FxHashMap<(Id, Id), Id>,
}

impl Default for Forms {
    fn default() -> Self {
        let mut forms = Forms {
            options: Vec::new(),
            wins: Vec::new(),
            height: Vec::new(),
            ids: FxHashMap::default(),
            sums: FxHashMap::default(),
        };
        let zero = forms.intern(Vec::new()).expect("two games fit");
        let star = forms.intern(vec![zero]).expect("two games fit");
        debug_assert_eq!((zero, star), (ZERO, STAR));
        forms
    }
}

impl Forms {
    /// How many games in simplest form are numbered.
    pub fn len(&self) -> usize {
        self.options.len()
    }

    /// Always false: 0 and * are numbered from the start.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The options of `g`, in simplest form.
    pub fn options(&self, g: Id) -> &[Id] {
        &self.options[g as usize]
    }

    /// Whether the player to move wins `g` in misère play.
    pub fn wins(&self, g: Id) -> bool {
        self.wins[g as usize]
    }

    /// The longest play from `g`.
    pub fn height(&self, g: Id) -> u32 {
        self.height[g as usize]
    }

    /// The simplest form of the game whose options are `options` (each in simplest
    /// form, in any order, repeats allowed).
    pub fn game(&mut self, mut options: Vec<Id>) -> Result<Id> {
        options.sort_unstable();
        options.dedup();
        for &a in &options {
            for &b in self.options(a) {
                if self.equals(b, &options) {
                    return Ok(b);
                }
            }
        }
        self.intern(options)
    }

    /// The simplest form of `a + b`. Recursive, as deep as the two heights together:
    /// callers keep them small.
    pub fn sum(&mut self, a: Id, b: Id) -> Result<Id> {
        let (a, b) = (a.min(b), a.max(b));
        if a == ZERO {
            return Ok(b);
        }
        if let Some(&s) = self.sums.get(&(a, b)) {
            return Ok(s);
        }
        let mut options = alloc::with_capacity(self.options(a).len() + self.options(b).len())?;
        for i in 0..self.options(a).len() {
            let option = self.options(a)[i];
            options.push(self.sum(option, b)?);
        }
        for i in 0..self.options(b).len() {
            let option = self.options(b)[i];
            options.push(self.sum(a, option)?);
        }
        let s = self.game(options)?;
        if self.sums.try_reserve(1).is_err() {
            return Err(alloc::too_large::<Id>(self.sums.len() + 1));
        }
        self.sums.insert((a, b), s);
        Ok(s)
    }

    /// Whether the game `h` (in simplest form) equals the game whose options are
    /// `options` (sorted, in simplest form), by the Grundy–Smith rule.
    fn equals(&self, h: Id, options: &[Id]) -> bool {
        let kept = self.options(h);
        let among = kept.iter().all(|k| options.binary_search(k).is_ok());
        let rest_reverse = options
            .iter()
            .all(|&g| kept.binary_search(&g).is_ok() || self.options(g).binary_search(&h).is_ok());
        let proviso = !kept.is_empty() || options.iter().any(|&g| !self.wins(g));
        among && rest_reverse && proviso
    }

    /// The number of the game with `options` (sorted, none reversible).
    fn intern(&mut self, options: Vec<Id>) -> Result<Id> {
        if let Some(&id) = self.ids.get(&options[..]) {
            return Ok(id);
        }
        let id =
            Id::try_from(self.options.len()).map_err(|_| alloc::too_large::<Id>(usize::MAX))?;
        // No option at all wins misère play; otherwise a move to a loss does.
        let wins = options.is_empty() || options.iter().any(|&g| !self.wins(g));
        let height = options
            .iter()
            .map(|&g| self.height(g) + 1)
            .max()
            .unwrap_or(0);
        let options: Box<[Id]> = options.into();
        alloc::grow(&mut self.options)?;
        alloc::grow(&mut self.wins)?;
        alloc::grow(&mut self.height)?;
        if self.ids.try_reserve(1).is_err() {
            return Err(alloc::too_large::<Id>(self.ids.len() + 1));
        }
        self.options.push(options.clone());
        self.wins.push(wins);
        self.height.push(height);
        self.ids.insert(options, id);
        Ok(id)
    }

    /// The bytes the forms hold, roughly.
    pub fn bytes(&self) -> usize {
        let options: usize = self.options.iter().map(|o| o.len() * 8 + 16).sum();
        options + self.options.len() * 48 + self.sums.len() * 24
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game as a plain tree, for a misère outcome searched without forms.
    #[derive(Clone, Debug)]
    struct Tree(Vec<Tree>);

    fn tree(forms: &Forms, g: Id) -> Tree {
        Tree(forms.options(g).iter().map(|&o| tree(forms, o)).collect())
    }

    /// The misère outcome of a sum of plain trees, by brute force.
    fn wins_plain(parts: &[Tree]) -> bool {
        let mut any_move = false;
        for (i, part) in parts.iter().enumerate() {
            for option in &part.0 {
                any_move = true;
                let mut next = parts.to_vec();
                next[i] = option.clone();
                if !wins_plain(&next) {
                    return true;
                }
            }
        }
        !any_move
    }

    /// The games born by day `days`, in simplest form.
    fn born_by(forms: &mut Forms, days: u32) -> Vec<Id> {
        let mut born = vec![ZERO];
        for _ in 0..days {
            let mut next = Vec::new();
            for subset in 0u64..1 << born.len() {
                let options = (0..born.len()).filter(|i| subset >> i & 1 == 1);
                let options = options.map(|i| born[i]).collect();
                next.push(forms.game(options).unwrap());
            }
            next.sort_unstable();
            next.dedup();
            born = next;
        }
        born
    }

    /// Conway (ONAG, ch. 12) and Siegel (arXiv 2012.08554, table 1): 1, 2, 3, 5 and
    /// 22 games are born by days 0 to 4 in misère play.
    #[test]
    fn the_published_counts_of_games_born_by_each_day() {
        let counts: Vec<usize> = (0..5)
            .map(|d| born_by(&mut Forms::default(), d).len())
            .collect();
        assert_eq!(counts, [1, 2, 3, 5, 22]);
    }

    /// {*} = 0 (the proviso met: * is a loss for the player to move), {0, *} = *2
    /// stays, and * + * = 0.
    #[test]
    fn small_games_simplify_as_the_theory_says() {
        let mut forms = Forms::default();
        assert_eq!(forms.game(vec![STAR]).unwrap(), ZERO);
        assert_eq!(forms.game(vec![ZERO]).unwrap(), STAR);
        let star2 = forms.game(vec![ZERO, STAR]).unwrap();
        assert!(star2 > STAR);
        assert_eq!(forms.sum(STAR, STAR).unwrap(), ZERO);
        // {*2} has the option *2 whose option * is not {*2}: no simplification.
        let g = forms.game(vec![star2]).unwrap();
        assert_eq!(forms.options(g), [star2]);
    }

    /// A game has the outcome of its simplest form beside every game born by day 3, and the outcome of a sum is that of its simplest form: both by brute
    /// force over plain trees.
    #[test]
    fn equal_forms_are_equal_games_by_brute_force() {
        let mut forms = Forms::default();
        let day3 = born_by(&mut forms, 3);
        let day4 = born_by(&mut forms, 4);
        let mut byday3 = Vec::new();
        // Every game on day-3 options, kept as its plain tree with its form.
        for subset in 0u64..1 << day3.len() {
            let options: Vec<Id> = (0..day3.len())
                .filter(|i| subset >> i & 1 == 1)
                .map(|i| day3[i])
                .collect();
            let plain = Tree(options.iter().map(|&o| tree(&forms, o)).collect());
            byday3.push((forms.game(options).unwrap(), plain));
        }
        let others: Vec<Tree> = day3.iter().map(|&x| tree(&forms, x)).collect();
        for (g, plain) in &byday3 {
            let form = tree(&forms, *g);
            for x in &others {
                let by_plain = wins_plain(&[plain.clone(), x.clone()]);
                assert_eq!(by_plain, wins_plain(&[form.clone(), x.clone()]), "{g}");
            }
        }
        for &a in &day4 {
            for &b in &day3 {
                let s = forms.sum(a, b).unwrap();
                let plain = [tree(&forms, a), tree(&forms, b)];
                assert_eq!(forms.wins(s), wins_plain(&plain), "{a} + {b}");
            }
        }
    }
}
