//! Finite commutative monoids, element 0 the identity. Misère quotients are given by
//! their whole multiplication table (they stay small: a table is the simplest and
//! fastest form); the candidates the solver tries are direct products of such
//! monoids, kept as their factors (`Product`), which can be much larger: only their
//! reduction gets a table.
use crate::base::alloc;
use crate::base::error::{Error, Result};
use crate::base::interrupt::Poll;

/// The most elements of a monoid with a table (it has this many squared entries, 4
/// GiB at the most; the memory is reserved fallibly).
pub const MAX_ELEMENTS: usize = 1 << 15;
/// The most elements of a direct product kept as its factors (a number for each).
pub const MAX_PRODUCT: usize = 1 << 28;

/// What the walks and the reduction need of a monoid.
pub trait Multiply {
    fn size(&self) -> usize;
    fn product(&self, a: u32, b: u32) -> u32;
}

impl Multiply for Monoid {
    fn size(&self) -> usize {
        Monoid::size(self)
    }

    #[inline]
    fn product(&self, a: u32, b: u32) -> u32 {
        Monoid::product(self, a, b)
    }
}

/// A direct product of monoids as its factors, restricted to what some generators
/// generate, numbered breadth first from the identity by them (as
/// `Monoid::generated` numbers). An element of the whole product is written in
/// mixed radix, the first factor most significant.
pub struct Product {
    factors: Vec<Monoid>,
    /// The generated elements, by number.
    order: Vec<u32>,
    /// Each element's number, `u32::MAX` outside.
    number: Vec<u32>,
}

impl Product {
    /// The submonoid of `factors[0] x factors[1] x ...` that `gens` (in mixed radix)
    /// generate, refused past `limit` elements of the whole product.
    pub fn generated(
        factors: Vec<Monoid>,
        gens: &[u32],
        limit: usize,
        poll: &mut Poll,
    ) -> Result<Self> {
        let size = product_size(&factors, limit)?;
        let mut product = Product {
            factors,
            order: vec![0],
            number: alloc::filled(size, u32::MAX)?,
        };
        product.number[0] = 0;
        let mut next = 0;
        while next < product.order.len() {
            let x = product.order[next];
            next += 1;
            for &g in gens {
                poll.tick()?;
                let y = product.whole_product(x, g);
                if product.number[y as usize] == u32::MAX {
                    product.number[y as usize] = product.order.len() as u32;
                    alloc::grow(&mut product.order)?;
                    product.order.push(y);
                }
            }
        }
        Ok(product)
    }

    /// The number of an element of the whole product (one generated).
    pub fn number(&self, x: u32) -> u32 {
        self.number[x as usize]
    }

    fn whole_product(&self, a: u32, b: u32) -> u32 {
        let (mut a, mut b) = (a as usize, b as usize);
        let (mut out, mut scale) = (0, 1);
        for f in self.factors.iter().rev() {
            out += f.product((a % f.size) as u32, (b % f.size) as u32) as usize * scale;
            scale *= f.size;
            a /= f.size;
            b /= f.size;
        }
        out as u32
    }
}

/// The order of the direct product of `factors`, refused past `limit` (at most
/// `MAX_PRODUCT`).
pub fn product_size(factors: &[Monoid], limit: usize) -> Result<usize> {
    let limit = limit.min(MAX_PRODUCT);
    let size = factors
        .iter()
        .try_fold(1usize, |n, f| n.checked_mul(f.size))
        .unwrap_or(usize::MAX);
    if size > limit {
        return Err(Error::QuotientTooLarge {
            heap: 0,
            size,
            limit,
        });
    }
    Ok(size)
}

impl Multiply for Product {
    fn size(&self) -> usize {
        self.order.len()
    }

    fn product(&self, a: u32, b: u32) -> u32 {
        let whole = self.whole_product(self.order[a as usize], self.order[b as usize]);
        self.number[whole as usize]
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monoid {
    size: usize,
    /// `table[a * size + b] = a b`.
    table: Vec<u32>,
}

impl Monoid {
    /// The one-element monoid.
    pub fn trivial() -> Self {
        Monoid {
            size: 1,
            table: vec![0],
        }
    }

    /// `1, x, ..., x^(index + period - 1)` with `x^(index + period) = x^index`.
    pub fn cyclic(index: usize, period: usize) -> Result<Self> {
        let size = index + period.max(1);
        let reduce = |k: usize| {
            if k < size {
                k
            } else {
                index + (k - index) % period.max(1)
            }
        };
        let mut table = table_of(size)?;
        for a in 0..size {
            table.extend((0..size).map(|b| reduce(a + b) as u32));
        }
        Ok(Monoid { size, table })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    #[inline]
    pub fn product(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.size + b as usize]
    }

    /// The row of products `a b` for every `b`.
    #[inline]
    pub fn row(&self, a: u32) -> &[u32] {
        &self.table[a as usize * self.size..(a as usize + 1) * self.size]
    }

    /// The least `i` with `x^i = x^j` for some `j > i`.
    pub fn index_of(&self, x: u32) -> usize {
        let mut powers = vec![0u32];
        loop {
            let next = self.product(*powers.last().expect("never empty"), x);
            if let Some(i) = powers.iter().position(|&p| p == next) {
                return i;
            }
            powers.push(next);
        }
    }

    /// The submonoid generated by `gens`, renumbered in the order it is reached
    /// (breadth first from the identity): the new monoid and, for each old element,
    /// its new number or `None` outside the submonoid.
    pub fn generated(&self, gens: &[u32]) -> Result<(Monoid, Vec<Option<u32>>)> {
        let mut number = alloc::filled(self.size, None)?;
        let mut order = vec![0u32];
        number[0] = Some(0);
        let mut next = 0;
        while next < order.len() {
            let x = order[next];
            next += 1;
            for &g in gens {
                let y = self.product(x, g);
                if number[y as usize].is_none() {
                    number[y as usize] = Some(order.len() as u32);
                    order.push(y);
                }
            }
        }
        Ok((renumbered(self, &order, |x| number[x as usize])?, number))
    }
}

/// The monoid on `order` of `monoid`'s elements (closed under products), `number`
/// giving each element's place in it.
fn renumbered(
    monoid: &impl Multiply,
    order: &[u32],
    number: impl Fn(u32) -> Option<u32>,
) -> Result<Monoid> {
    let size = order.len();
    let mut table = table_of(size)?;
    for &a in order {
        table.extend(
            order.iter().map(|&b| {
                number(monoid.product(a, b)).expect("a submonoid is closed under products")
            }),
        );
    }
    Ok(Monoid { size, table })
}

/// The quotient of `monoid` by the coarsest congruence that keeps `p` whole: `x ~ y`
/// when `x z` and `y z` are both in `p` or both out of it, for every `z`. The monoid
/// must be generated by `gens` (the congruence is found from their actions, by
/// Moore's refinement). Returns the quotient, each element's class, and the classes
/// in `p`.
pub fn reduced(
    monoid: &impl Multiply,
    p: &[bool],
    gens: &[u32],
    poll: &mut Poll,
) -> Result<(Monoid, Vec<u32>, Vec<bool>)> {
    let size = monoid.size();
    let width = gens.len() + 1;
    // Each element's action on the generators, computed once.
    let mut action = alloc::with_capacity(size * gens.len())?;
    for x in 0..size as u32 {
        poll.tick()?;
        action.extend(gens.iter().map(|&g| monoid.product(x, g)));
    }
    let mut class = alloc::with_capacity(size)?;
    class.extend(p.iter().map(|&x| u32::from(x)));
    let mut count = 0;
    let mut signature = alloc::with_capacity(size * width)?;
    loop {
        signature.clear();
        for x in 0..size {
            poll.tick()?;
            signature.push(class[x]);
            let acts = &action[x * gens.len()..(x + 1) * gens.len()];
            signature.extend(acts.iter().map(|&y| class[y as usize]));
        }
        let mut seen = std::collections::HashMap::new();
        let mut fresh = alloc::with_capacity(size)?;
        // Number classes by first appearance, so that the identity's is 0.
        for x in 0..size {
            let key = &signature[x * width..(x + 1) * width];
            seen.try_reserve(1)
                .map_err(|_| alloc::too_large::<(&[u32], u32)>(seen.len() + 1))?;
            let len = seen.len() as u32;
            fresh.push(*seen.entry(key).or_insert(len));
        }
        let new_count = seen.len();
        class = fresh;
        // Classes only split: past the table's limit the quotient cannot have one.
        too_large_for_table(new_count)?;
        if new_count == count {
            break;
        }
        count = new_count;
    }
    let mut reps = vec![0u32; count];
    for x in (0..size).rev() {
        reps[class[x] as usize] = x as u32;
    }
    let quotient = renumbered(monoid, &reps, |x| Some(class[x as usize]))?;
    let in_p = reps.iter().map(|&r| p[r as usize]).collect();
    Ok((quotient, class, in_p))
}

/// Room for a table of `size` squared entries, refused past `MAX_ELEMENTS`.
fn table_of(size: usize) -> Result<Vec<u32>> {
    too_large_for_table(size)?;
    alloc::with_capacity(size * size)
}

fn too_large_for_table(size: usize) -> Result<()> {
    if size > MAX_ELEMENTS {
        return Err(Error::QuotientTooLarge {
            heap: 0,
            size,
            limit: MAX_ELEMENTS,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_past_the_limit_are_refused() {
        let c = Monoid::cyclic(2, 2).unwrap();
        let factors = vec![c.clone(), c.clone(), c];
        assert_eq!(product_size(&factors, 64).unwrap(), 64);
        let err = product_size(&factors, 63).unwrap_err();
        assert!(err
            .to_string()
            .contains("a candidate had at least 64 elements, more than the 63"));
        let many = vec![Monoid::cyclic(1 << 10, 1 << 10).unwrap(); 7];
        assert!(product_size(&many, usize::MAX).is_err());
    }

    #[test]
    fn cyclic_powers_wrap_to_the_index() {
        let c = Monoid::cyclic(2, 2).unwrap();
        assert_eq!(c.size(), 4);
        assert_eq!(c.product(3, 1), 2);
        assert_eq!(c.product(3, 3), 2);
        assert_eq!(c.index_of(1), 2);
    }

    #[test]
    fn reduction_merges_what_p_cannot_tell_apart() {
        // x^4 = x^2 with only x in P: x^2 and x^3 never reach P, 1 does (times x).
        let c = Monoid::cyclic(2, 2).unwrap();
        let p = [false, true, false, false];
        let (q, class, _) = reduced(&c, &p, &[1], &mut Poll::default()).unwrap();
        for a in 0..4u32 {
            for b in 0..4u32 {
                let same =
                    (0..4u32).all(|z| p[c.product(a, z) as usize] == p[c.product(b, z) as usize]);
                assert_eq!(same, class[a as usize] == class[b as usize], "{a} {b}");
            }
        }
        assert_eq!(q.size(), 3);
    }
}
