"""Certificates of Sprouts values, checked by ``nimkit.sprouts_checker``: the values
they prove against published results and the brute force of the tests; forged facts,
missing facts and malformed files caught; the checker's canonical form of a land the
same for every writing of it, and never one for two lands of different values."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

import nimkit as nk
from nimkit import sprouts_checker as checker

from . import sprouts_reference as brute
from .test_board_certificates import failures_on


def _certified(tmp_path, game, name="s.json"):
    path = tmp_path / name
    value = game.grundy(certificate=path)
    return value, path, json.loads(path.read_text()) if name.endswith(".json") else None


@pytest.mark.parametrize(
    "spots", [*range(1, 5), *(pytest.param(n, marks=pytest.mark.research) for n in (5, 6))]
)
def test_the_n_spot_games_are_verified_with_their_published_outcomes(tmp_path, spots):
    # The first player wins n spots iff n mod 6 is 3, 4 or 5 (Applegate, Jacobson and
    # Sleator 1991, to 11 spots; Lemoine and Viennot to 44).
    value, path, _ = _certified(tmp_path, nk.Sprouts(spots))
    checked = nk.verify(path)
    assert isinstance(checked, checker.SproutsVerified)
    assert checked.value == value == nk.Sprouts(spots).grundy()
    assert (value != 0) == (spots % 6 in (3, 4, 5))


def test_positions_reached_by_play_are_verified_with_the_brute_forces_values(tmp_path):
    rng = random.Random(5)
    positions = rng.sample(sorted(brute.reachable(brute.start(3))), 12)
    positions += _played(rng, 4, 12, (3, 4))  # at most 9 lives
    for plain in positions:
        game = nk.Sprouts(brute.text(plain))
        value, path, _ = _certified(tmp_path, game)
        assert nk.verify(path).value == value == brute.grundy(plain), brute.text(plain)


def _played(rng, spots, count, moves):
    """``count`` positions of ``spots`` spots after a random number of random moves
    (one of ``moves``)."""
    out = []
    for _ in range(count):
        plain = brute.start(spots)
        for _ in range(rng.choice(moves)):
            plain = rng.choice(sorted(set(brute.options(plain))) or [plain])
        out.append(plain)
    return out


def _lands(rng):
    """The lands of every position from 3 spots and of positions played from 4."""
    positions = [*brute.reachable(brute.start(3)), *_played(rng, 4, 300, range(3, 9))]
    return [land for plain in positions for land in checker._settled(plain)]


def test_sums_of_lands_and_compressed_files_are_verified(tmp_path):
    game = nk.Sprouts("0*3+1a1a+0*2.AB|AB+0.1a1a")
    value, path, _ = _certified(tmp_path, game, "s.json.gz")
    assert nk.verify(path).value == value == game.grundy()
    assert str(nk.verify(path)).startswith(f"verified: sprouts at {game} has Grundy value")


def test_every_forged_fact_is_caught(tmp_path):
    _, path, data = _certified(tmp_path, nk.Sprouts(3))
    facts = data["facts"]
    assert len(facts) > 20
    # Facts of values and of values ruled out, small and large, and the root.
    stated = [i for i, f in enumerate(facts) if f[1] is not None]
    refuted = [i for i, f in enumerate(facts) if f[1] is None]
    checked = [*stated[::9], *refuted[::9], len(facts) - 1]
    assert refuted
    for i in checked:
        land, value, nots = facts[i]
        forged = json.loads(json.dumps(data))
        forged["facts"][i][1] = value + 1 if value is not None else nots[0]
        path.write_text(json.dumps(forged))
        with pytest.raises(nk.CertificateError, match=rf"fact {i} \(land {re.escape(land)}\)"):
            nk.verify(path)
        if value is not None:
            # The value it has, claimed not to be its value.
            forged["facts"][i][1:] = [value, sorted({*nots, value})]
            path.write_text(json.dumps(forged))
            with pytest.raises(nk.CertificateError, match=rf"fact {i} "):
                nk.verify(path)


def test_facts_shared_among_processes_are_checked_alike(tmp_path):
    _, path, data = _certified(tmp_path, nk.Sprouts(4))
    assert str(nk.verify(path, processes=2)) == str(nk.verify(path))
    # Two facts forged: the first of them named, however the facts are shared out.
    stated = [i for i, f in enumerate(data["facts"]) if f[1] is not None]
    for i in (stated[len(stated) // 2], stated[-2]):
        data["facts"][i][1] += 1
    path.write_text(json.dumps(data))
    failures = failures_on(path, (1, 2))
    assert failures[0] == failures[1]
    assert "fact " in failures[0]


def test_missing_facts_and_a_wrong_root_are_caught(tmp_path):
    _, path, data = _certified(tmp_path, nk.Sprouts(3))
    assert data["facts"][-1][0] == "0*3"  # the most lives last: the root
    path.write_text(json.dumps(dict(data, facts=data["facts"][:-1])))
    with pytest.raises(nk.CertificateError, match=r"the position's land .* has no proven value"):
        nk.verify(path)
    # Without the facts it needs, the root's options leave it more than one value.
    path.write_text(json.dumps(dict(data, facts=data["facts"][-1:])))
    with pytest.raises(nk.CertificateError, match=r"fact 0 \(land 0\*3\).* any of the values"):
        nk.verify(path)
    path.write_text(json.dumps(dict(data, value=data["value"] ^ 1)))
    with pytest.raises(nk.CertificateError, match="the position's value is 1, not 0"):
        nk.verify(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version 2"),
        ({"position": 7}, "is not a string"),
        ({"position": "0*2.x"}, "is no boundary"),
        ({"position": "2m"}, "is no boundary"),
        ({"position": "01"}, "a spot with no curve is a boundary of its own"),
        ({"position": "1a1"}, "lowercase letter not met twice"),
        ({"position": "AB|A"}, "uppercase letter not met twice"),
        ({"value": -1}, "is not a Grundy value"),
        ({"facts": {}}, "'facts' is not a list"),
        ({"facts": [["0*3", None, []]]}, "fact 0 states nothing"),
        ({"facts": [["0*3", 1]]}, "fact 0 is not"),
        ({"facts": [["0*3+0*4", 1, []]]}, "is 2 lands, not one"),
        ({"facts": [["0*3", 1, []], ["0.0.0", 0, []]]}, "facts 0 and 1 state two values"),
        ({"facts": [["0*18", 1, []]]}, "more than 17 boundaries"),
    ],
)
def test_malformed_certificates_are_refused_by_name(tmp_path, change, message):
    _, path, data = _certified(tmp_path, nk.Sprouts(3))
    path.write_text(json.dumps({**data, **change}))
    with pytest.raises(nk.CertificateError, match=message):
        nk.verify(path)


def _rewritten(land, rng):
    """The land written another way: spots renumbered, boundaries rotated, regions
    mirrored, boundaries and regions shuffled."""
    regions, curves = land
    spots = sorted({s for region in regions for b in region for s in b})
    numbers = dict(zip(spots, rng.sample(range(len(spots)), len(spots)), strict=True))
    out = []
    for region in regions:
        mirrored = rng.random() < 0.5
        bounds = []
        for b in region:
            b = [numbers[s] for s in (reversed(b) if mirrored else b)]
            k = rng.randrange(len(b))
            bounds.append(tuple(b[k:] + b[:k]))
        rng.shuffle(bounds)
        out.append(tuple(bounds))
    rng.shuffle(out)
    renumbered = [0] * len(spots)
    for s, n in numbers.items():
        renumbered[n] = curves[s]
    return tuple(out), tuple(renumbered)


def test_the_canonical_form_is_one_for_every_writing_and_tells_values_apart():
    rng = random.Random(11)
    values: dict[object, int] = {}
    for land in _lands(rng):
        key = checker._key(land)
        again = _rewritten(land, rng)
        assert checker._key(checker._settled(again)[0]) == key
        # One key, one value (a form for two different games would be unsound).
        value = brute.grundy(brute.tidy(land))
        assert values.setdefault(key, value) == value


def test_the_checker_reads_the_notation_as_the_core_writes_it():
    for land in _lands(random.Random(2)):
        written = str(nk.Sprouts(checker._written(land)))
        read = checker._settled(checker._read(written, "p"))
        assert [checker._key(r) for r in read] == [checker._key(land)], written


def test_the_command_line_writes_and_checks_a_certificate(tmp_path):
    path = tmp_path / "s.json"
    run = [sys.executable, "-m", "nimkit"]
    made = subprocess.run(
        [*run, "sprouts", "4", "--certificate", str(path)], capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    assert "value: 1" in made.stdout
    assert "nimkit verify" in made.stdout
    checked = subprocess.run([*run, "verify", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("verified: sprouts at 0*4 has Grundy value 1")
    refused = subprocess.run(
        [*run, "sprouts", "4", "--misere", "--certificate", str(path)],
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0
    assert "normal-play value" in refused.stderr


def test_a_certificate_takes_no_cluster_checkpoint_or_eviction(tmp_path):
    for bad in ({"checkpoint": tmp_path}, {"evict": True, "max_memory": 10**6}):
        with pytest.raises(ValueError, match="takes no client, no checkpoint and no evict"):
            nk.Sprouts(3).grundy(certificate=tmp_path / "s.json", **bad)
