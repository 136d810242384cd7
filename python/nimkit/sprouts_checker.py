"""A checker of Sprouts certificates that shares nothing with the search that made
them.

``Sprouts(6).grundy(certificate="s.json")`` writes, with the value, every fact the
search proved on the way: for each land it met (in the string notation), its value,
or values it showed the land has not. ``verify`` checks such a file with code of its
own (the standard library only): its own reading of the notation into a plain
drawing (regions of boundaries of numbered spots, each spot with its curve ends),
its own moves made on the drawing as the test suite's brute force makes them, its
own split into lands and its own canonical form of a land. Every fact is checked
from the facts about the lands of its options, the root's value from its lands'.
Lands of at most ``SMALL`` lives are valued here by brute force.

What the checker does to a drawing after a move, beside relabelling it, changes no
option a player has (Lemoine and Viennot, arXiv 1008.2320, section 3, state them):
dead spots are dropped; a spot of one life met twice in a row on a boundary (the
walk turns round dead curves only between) is met once there, a curve to either
place being the same move; a region of fewer than two lives, where no move can be
made, is dropped; and regions that share no spot are independent lands, whose
values are XORed (Sprague-Grundy). A land is one game however it is written: its
boundaries rotated, its boundaries and regions in any order, a region's boundaries
all reversed together (its mirror image: each region's moves are its own), its
spots renumbered; the canonical form is the least writing of all these.

>>> import json, pathlib, tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d, "sprouts.json")
...     value = nk.Sprouts(3).grundy(certificate=path)
...     checked = nk.verify(path)
...     data = json.loads(path.read_text())
...     data["facts"][-1][1] = 2    # the three spots' own value, forged
...     _ = path.write_text(json.dumps(data))
...     try:
...         nk.verify(path)
...     except nk.CertificateError as e:
...         print(e)
Certificate error: fact 80 (land 0*3): its options leave it the value 1, not 2 alone
>>> print(checked)
verified: sprouts at 0*3 has Grundy value 1
81 facts checked, each from the rules; lands of at most 4 lives valued by brute force
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any

from ._facts import CertificateError, judge, mex, nat, possible, spread, stated

FORMAT = "nimkit sprouts certificate"
VERSION = 1

#: Lands of at most this many lives are valued by brute force.
SMALL = 4

#: The most lives of a land read (forty spots), and the most ways of dividing a
#: region's boundaries between a curve's two sides: what the search holds too.
MOST_LIVES = 120
MOST_DIVISIONS = 1 << 16

Boundary = tuple[int, ...]
Region = tuple[Boundary, ...]
#: A drawing: its regions, and the curve ends at each spot (``curves[s]``, 0 to 3).
Plain = tuple[tuple[Region, ...], tuple[int, ...]]
#: A land's canonical form.
Key = tuple[tuple[Any, ...], tuple[int, ...]]


@dataclass(frozen=True)
class SproutsVerified:
    """What a Sprouts certificate was checked to prove."""

    #: The position, in the notation.
    position: str
    value: int
    #: Facts checked.
    facts: int

    def __str__(self) -> str:
        return (
            f"verified: sprouts at {self.position} has Grundy value {self.value}\n"
            f"{self.facts} facts checked, each from the rules; lands of at most {SMALL} "
            "lives valued by brute force"
        )


def verify_data(data: dict[str, Any], processes: int = 1) -> SproutsVerified:
    """Check a Sprouts certificate read from its file (``nimkit.verify``), its facts
    shared out among ``processes`` processes."""
    if data.get("version") != VERSION:
        raise CertificateError(f"version {data.get('version')!r}, where {VERSION} is read")
    text, claimed, entries = data.get("position"), data.get("value"), data.get("facts")
    if not isinstance(text, str):
        raise CertificateError(f"the position {text!r} is not a string")
    if not nat(claimed):
        raise CertificateError(f"value {claimed!r} is not a Grundy value")
    if not isinstance(entries, list):
        raise CertificateError("'facts' is not a list")
    checker = _Checker()
    for i, entry in enumerate(entries):
        checker.state(i, entry)
    checker.items = list(checker.facts)
    spread(checker, processes)
    value = 0
    for key, land in checker.lands(_read(text, "the position")):
        found = checker.exact(key, land)
        if found is None:
            raise CertificateError(f"the position's land {_written(land)} has no proven value")
        value ^= found
    if value != claimed:
        raise CertificateError(f"the position's value is {value}, not {claimed} as claimed")
    return SproutsVerified(text, value, len(checker.facts))


class _Checker:
    """The facts by the canonical forms of their lands, checked one by one."""

    def __init__(self) -> None:
        # key: (the fact's number, its land, its value or None, the values it lacks,
        # its text)
        self.facts: dict[Key, tuple[int, Plain, int | None, frozenset[int], str]] = {}
        self._small: dict[Key, int] = {}
        #: The facts' keys, once all are stated (``_facts.spread`` checks them).
        self.items: list[Key] = []

    def state(self, i: int, entry: Any) -> None:
        """Enter fact ``i`` (``[land, value or null, [values it has not]]``)."""
        text, value, nots = stated(i, entry, "land")
        lands = self.lands(_read(text, f"fact {i}"))
        if len(lands) != 1:
            raise CertificateError(f"fact {i}: {text!r} is {len(lands)} lands, not one")
        key, land = lands[0]
        if key in self.facts:
            # The search may write one land two ways (its canonical form gives up on
            # ties past a bound): both facts hold of the land.
            at, _, old, lacks, first = self.facts[key]
            if old is not None and value is not None and old != value:
                raise CertificateError(f"facts {at} and {i} state two values of one land")
            value = old if value is None else value
            self.facts[key] = (at, land, value, lacks | nots, first)
        else:
            self.facts[key] = (i, land, value, nots, text)

    def lands(self, drawing: Plain) -> list[tuple[Key, Plain]]:
        """The lands of a drawing, each with its canonical form, settled."""
        return [(_key(land), land) for land in _settled(drawing)]

    def exact(self, key: Key, land: Plain) -> int | None:
        """The value of a land, if proven: by brute force, or by a fact."""
        if _lives(land) <= SMALL:
            return self._brute(key, land)
        fact = self.facts.get(key)
        return None if fact is None else fact[2]

    def _brute(self, key: Key, land: Plain) -> int:
        found = self._small.get(key)
        if found is None:
            seen = {
                _xor(self._brute(k, part) for k, part in self.lands(option))
                for option in options(land)
            }
            found = self._small[key] = mex(seen)
        return found

    def check_item(self, key: Key) -> None:
        at, land, value, nots, text = self.facts[key]
        name = f"fact {at} (land {text})"
        if _lives(land) <= SMALL:
            known = self._brute(key, land)
            if value not in (None, known) or known in nots:
                raise CertificateError(f"{name} contradicts its value {known}")
            return
        summed: dict[tuple[Key, ...], tuple[int, list[Key]]] = {}
        for option in options(land):
            odd: dict[Key, Plain] = {}
            for k, part in self.lands(option):
                if k in odd:
                    del odd[k]  # G + G = 0
                else:
                    odd[k] = part
            known, unknown = 0, []
            for k, part in odd.items():
                v = self.exact(k, part)
                if v is None:
                    unknown.append(k)
                else:
                    known ^= v
            summed[tuple(sorted(odd))] = (known, unknown)
        judge(name, value, nots, possible(list(summed.values()), self._nots))

    def _nots(self, key: Key) -> frozenset[int] | None:
        fact = self.facts.get(key)
        return None if fact is None else fact[3]

    def found(self) -> None:
        return None


def _xor(values: Iterator[int]) -> int:
    out = 0
    for v in values:
        out ^= v
    return out


# The notation: spots by the curves they have (0, 1, 2), a spot of one life met in
# two places as a letter (lowercase within a region, uppercase within a land, past
# the alphabet m(k) and n(k)), boundaries between '.', regions '|', lands '+', 0*k
# for k spots alone, an optional '!' at the end.
_MARK = re.compile(r"[012a-lA-Y]|[mn]\(\d{1,3}\)")


def _read(text: Any, what: str) -> Plain:
    """The drawing a position's text writes (its lands together, unsettled)."""
    if not isinstance(text, str) or len(text) > 100_000:
        raise CertificateError(f"{what}: {str(text)[:60]!r} is not a Sprouts position")
    body = text.removesuffix("!")
    regions: list[Region] = []
    curves: list[int] = []
    for land in body.split("+") if body else []:
        upper: dict[str, int] = {}
        for region in land.split("|"):
            lower: dict[str, int] = {}
            boundaries: list[Boundary] = []
            for boundary in region.split("."):
                alone = re.fullmatch(r"0\*(\d{1,3})", boundary)
                if alone:
                    for _ in range(int(alone.group(1))):
                        boundaries.append((len(curves),))
                        curves.append(0)
                    continue
                marks = _MARK.findall(boundary)
                if not marks or "".join(marks) != boundary:
                    raise CertificateError(f"{what}: {boundary!r} in {text!r} is no boundary")
                if "0" in marks and len(marks) > 1:
                    raise CertificateError(
                        f"{what}: a spot with no curve is a boundary of its own ({text!r})"
                    )
                spots = []
                for mark in marks:
                    if mark in "012":
                        spots.append(len(curves))
                        curves.append(int(mark))
                        continue
                    names = upper if mark[0].isupper() or mark[0] == "n" else lower
                    if mark not in names:
                        names[mark] = len(curves)
                        curves.append(-1)  # a letter: met once so far
                    else:
                        curves[names[mark]] = 2 if curves[names[mark]] == -1 else 3
                    spots.append(names[mark])
                boundaries.append(tuple(spots))
            if any(curves[s] != 2 for s in lower.values()):
                raise CertificateError(f"{what}: a lowercase letter not met twice ({text!r})")
            regions.append(tuple(boundaries))
        if any(curves[s] != 2 for s in upper.values()):
            raise CertificateError(f"{what}: an uppercase letter not met twice ({text!r})")
    drawing = (tuple(regions), tuple(curves))
    for settled in _settled(drawing):
        if _lives(settled) > MOST_LIVES:
            raise CertificateError(f"{what}: a land of more than {MOST_LIVES} lives")
        if any(len(region) > 17 for region in settled[0]):
            raise CertificateError(
                f"{what}: a region of more than 17 boundaries, more than {MOST_DIVISIONS} "
                "ways of dividing them"
            )
    return drawing


def _written(land: Plain) -> str:
    """A land as text, each spot by its curves, letters named by first appearance."""
    regions, curves = land
    met: dict[int, int] = {}
    for s in (s for region in regions for b in region for s in b):
        met[s] = met.get(s, 0) + 1
    names: dict[int, str] = {}

    def mark(s: int) -> str:
        if met[s] == 1:
            return str(curves[s])
        if s not in names:
            k = len(names)
            names[s] = chr(ord("A") + k) if k < 25 else f"n({k + 1})"
        return names[s]

    def boundaries(region: Region) -> str:
        alone = sum(1 for b in region if len(b) == 1 and curves[b[0]] == 0)
        rest = [b for b in region if not (len(b) == 1 and curves[b[0]] == 0)]
        run = [] if not alone else ["0" if alone == 1 else f"0*{alone}"]
        return ".".join(run + ["".join(mark(s) for s in b) for b in rest])

    return "|".join(boundaries(region) for region in regions)


def _lives(land: Plain) -> int:
    regions, curves = land
    return sum(3 - curves[s] for s in {s for region in regions for b in region for s in b})


def _settled(drawing: Plain) -> list[Plain]:
    """The lands of a drawing, simplified as the module's docstring says."""
    regions, curves = drawing
    kept: list[list[Boundary]] = []
    for region in regions:
        boundaries = []
        for b in region:
            spots = [s for s in b if curves[s] < 3]
            i = 0
            while len(spots) > 1 and i < len(spots):
                nxt = (i + 1) % len(spots)
                if spots[i] == spots[nxt] and curves[spots[i]] == 2:
                    del spots[nxt]
                    i = max(i - 1, 0)
                else:
                    i += 1
            if spots:
                boundaries.append(tuple(spots))
        kept.append(boundaries)
    while True:
        alive = [r for r in kept if sum(3 - curves[s] for s in {s for b in r for s in b}) >= 2]
        if len(alive) == len(kept):
            break
        kept = alive
    # Regions that share a spot are one land.
    owner: dict[int, int] = {}
    parent = list(range(len(kept)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r, bounds in enumerate(kept):
        for s in {s for b in bounds for s in b}:
            if s in owner:
                parent[root(owner[s])] = root(r)
            else:
                owner[s] = r
    groups: dict[int, list[Region]] = {}
    for r, bounds in enumerate(kept):
        groups.setdefault(root(r), []).append(tuple(bounds))
    return [(tuple(group), curves) for group in groups.values()]


def _key(land: Plain) -> Key:
    """A land's canonical form: the least of its writings (rotations of boundaries,
    orders of boundaries and regions, mirror images of regions; letters named in
    order of appearance), compared first with the letters told apart only by where
    their other place is, then in full."""
    plain = tidy(land)  # the same land met again, numbered the same: one search
    found = _KEYS.get(plain)
    if found is None:
        if len(_KEYS) >= _MOST_KEYS:
            _KEYS.clear()
        found = _KEYS[plain] = _least_key(plain)
    return found


#: The keys of lands met lately, by their tidied drawings.
_KEYS: dict[Plain, Key] = {}
_MOST_KEYS = 1 << 16


def _least_key(land: Plain) -> Key:
    regions, curves = land
    # A letter's token, what every writing of the land agrees on: 3 if its other
    # place is in another region, 4 on another boundary of the region, and on the
    # same boundary 5 plus the shorter way round from one place to the other (fewer
    # ties between writings to search: the Sprouts guide).
    places: dict[int, list[tuple[int, int, int]]] = {}
    for r, region in enumerate(regions):
        for b, boundary in enumerate(region):
            for i, s in enumerate(boundary):
                places.setdefault(s, []).append((r, b, i))
    tokens = {}
    for s, where in places.items():
        if len(where) == 1:
            tokens[s] = curves[s]
        else:
            (r1, b1, i1), (r2, b2, i2) = where
            if r1 != r2 or b1 != b2:
                tokens[s] = 3 if r1 != r2 else 4
            else:
                d = (i2 - i1) % len(regions[r1][b1])
                tokens[s] = 5 + min(d, len(regions[r1][b1]) - d)
    token = tokens.__getitem__

    # Each region's least form with letters alike, and the writings that give it: for
    # each mirror image that does, its boundaries in that order, each with the
    # rotations that give its form.
    shaped = []
    for region in regions:
        best: tuple[Any, ...] | None = None
        ways: list[list[tuple[tuple[int, ...], list[Boundary]]]] = []
        for mirrored in (False, True):
            bounds = []
            for boundary in region:
                walk = boundary[::-1] if mirrored else boundary
                turns = [walk[i:] + walk[:i] for i in range(len(walk))]
                forms = [tuple(token(s) for s in t) for t in turns]
                least = min(forms)
                bounds.append(
                    (
                        least,
                        list(
                            dict.fromkeys(
                                t for t, f in zip(turns, forms, strict=True) if f == least
                            )
                        ),
                    )
                )
            bounds.sort(key=lambda x: x[0])
            form = tuple(f for f, _ in bounds)
            if best is None or form < best:
                best, ways = form, [bounds]
            elif form == best:
                ways.append(bounds)
        assert best is not None
        shaped.append((best, ways))
    shaped.sort(key=lambda x: x[0])
    abstract = tuple(form for form, _ in shaped)
    return abstract, _least_writing(shaped, token)


def _least_writing(shaped: list[Any], token: Any) -> tuple[int, ...]:
    """The least sequence of marks over the writings ``shaped`` allows (regions in its
    order, ties in any order), letters named in order of appearance: a search with
    branches cut as soon as their marks exceed the best found."""
    best: list[int] | None = None
    # A branch below the best holds the count of bests found when it went below;
    # a best found since came from that branch, so the branch now only equals it.
    found = 0
    out: list[int] = []
    names: dict[int, int] = {}
    used = [False] * len(shaped)
    # The states met: the marks so far, the spots named (in order: their names), the
    # regions used and, within a region, the writing and its boundaries done. Two ways
    # to one state write the same from there on, so the second is not followed (a
    # land of symmetric regions was written out in every symmetric way).
    seen: set[tuple[Any, ...]] = set()

    def first_met(*within: Any) -> bool:
        state = (tuple(out), tuple(names), tuple(used), *within)
        if state in seen:
            return False
        seen.add(state)
        return True

    def emit(spots: Boundary, below: int) -> tuple[int, list[int]] | None:
        """Append a boundary's marks: the branch's mark of being below the best, and
        the spots named (to forget on return); None if it is above."""
        named = []
        for s in spots:
            t = token(s)
            if t >= 3:  # a letter: named in order of appearance
                if s not in names:
                    names[s] = len(names)
                    named.append(s)
                t = 3 + names[s]
            if best is not None and below != found:
                b = best[len(out)]
                if t > b:
                    for n in named:
                        del names[n]
                    return None
                if t < b:
                    below = found
            out.append(t)
        return below, named

    def regions(k: int, below: int) -> None:
        nonlocal best, found
        if k == len(shaped):
            if best is None or below == found:
                best, found = out.copy(), found + 1
            return
        if not first_met():
            return
        tried = set()
        for r, (form, ways) in enumerate(shaped):
            if used[r] or form != shaped[k][0]:
                continue
            for w, bounds in enumerate(ways):
                plain = all(token(s) < 3 for _, turns in bounds for s in turns[0])
                if plain and form in tried:
                    continue  # the same marks as a region already tried
                tried.add(form)
                used[r] = True
                boundaries(k, (r, w), bounds, [False] * len(bounds), 0, below)
                used[r] = False

    def boundaries(
        k: int, way: tuple[int, int], bounds: list[Any], done: list[bool], j: int, below: int
    ) -> None:
        if j == len(bounds):
            regions(k + 1, below)
            return
        if not first_met(way, tuple(done)):
            return
        tried = set()
        for i, (form, turns) in enumerate(bounds):
            if done[i] or form != bounds[j][0]:
                continue
            if max(form) < 3:
                if form in tried:
                    continue  # no letter: every such boundary writes the same
                tried.add(form)
                turns = turns[:1]
            for turn in turns:
                mark = len(out)
                emitted = emit(turn, below)
                if emitted is not None:
                    done[i] = True
                    boundaries(k, way, bounds, done, j + 1, emitted[0])
                    done[i] = False
                    for n in emitted[1]:
                        del names[n]
                del out[mark:]

    regions(0, -1)
    assert best is not None
    return tuple(best)


def _rotated(boundary: Boundary, i: int) -> Boundary:
    return boundary[i:] + boundary[:i]


def options(position: Plain) -> Iterator[Plain]:
    """Every drawing one move leaves (repeats included): a curve from a spot of a
    boundary to a spot of the same boundary (or a loop), the region's other
    boundaries divided between the curve's two sides in every way, or to a spot of
    another boundary of the region, joining the two; a new spot on the curve."""
    regions, curves = position
    x = len(curves)  # the new spot

    def lives(s: int) -> int:
        return 3 - curves[s]

    for r, region in enumerate(regions):
        before, after = regions[:r], regions[r + 1 :]
        for b, boundary in enumerate(region):
            rest = region[:b] + region[b + 1 :]
            for i in range(len(boundary)):
                for j in range(i, len(boundary)):
                    p, q = boundary[i], boundary[j]
                    if (p == q and lives(p) < 2) or lives(p) < 1 or lives(q) < 1:
                        continue
                    if i == j:
                        inside: Boundary = (p, x)
                        outside = (p, x) if len(boundary) == 1 else (*_rotated(boundary, i), p, x)
                    else:
                        inside = (*boundary[i : j + 1], x)
                        outside = boundary[j:] + boundary[: i + 1] + (x,)
                    grown = [*list(curves), 2]
                    grown[p] += 1
                    grown[q] += 1
                    for sides in product((0, 1), repeat=len(rest)):
                        one = (inside, *(c for c, s in zip(rest, sides, strict=True) if s == 0))
                        two = (outside, *(c for c, s in zip(rest, sides, strict=True) if s == 1))
                        yield tidy(((*before, one, two, *after), tuple(grown)))
        for a in range(len(region)):
            for c in range(a + 1, len(region)):
                for i in range(len(region[a])):
                    for j in range(len(region[c])):
                        p, q = region[a][i], region[c][j]
                        if (p == q and lives(p) < 2) or lives(p) < 1 or lives(q) < 1:
                            continue
                        walk: list[int] = []
                        for side, k in ((region[a], i), (region[c], j)):
                            walk += _rotated(side, k)
                            if len(side) > 1:
                                walk.append(side[k])
                            walk.append(x)
                        grown = [*list(curves), 2]
                        grown[p] += 1
                        grown[q] += 1
                        kept = tuple(g for k, g in enumerate(region) if k not in (a, c))
                        yield tidy(((*before, (*kept, tuple(walk)), *after), tuple(grown)))


def tidy(position: Plain) -> Plain:
    """The drawing with dead spots, empty boundaries and empty regions left out, its
    spots numbered in order of appearance, boundaries and regions sorted: a
    relabelling of the same drawing, not a canonical form."""
    regions, curves = position
    kept = tuple(
        region
        for region in (
            tuple(b for b in (tuple(s for s in b if curves[s] < 3) for b in region) if b)
            for region in regions
        )
        if region
    )
    for _ in range(2):
        order: dict[int, int] = {}
        for s in (s for region in kept for b in region for s in b):
            order.setdefault(s, len(order))
        kept = tuple(
            sorted(tuple(sorted(tuple(order[s] for s in b) for b in region)) for region in kept)
        )
        curves = tuple(c for _, c in sorted((n, curves[s]) for s, n in order.items()))
    return kept, curves


__all__ = ["SproutsVerified", "options", "tidy", "verify_data"]
