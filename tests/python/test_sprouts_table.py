"""nk.sprouts_table: the n-spot games in one family, its checkpoint, its command line,
and the picture of a Sprouts position."""

from __future__ import annotations

import json
import re

import pytest

import nimkit as nk
from nimkit import Outcome, _core
from nimkit.cli import main

# Published: normal play a first-player win iff n mod 6 is 3, 4 or 5, the value then
# 1 (Applegate, Jacobson and Sleator 1991; Lemoine and Viennot, arXiv 1008.2320);
# misère play a first-player win at n = 1 and 5 of 1..5 (OEIS A164950).
NORMAL = [0, 0, 1, 1, 1]
MISERE = "NPPPN"


def test_the_table_gives_the_published_games_and_each_games_own_search() -> None:
    rows = nk.sprouts_table(5)
    assert [r.spots for r in rows] == [1, 2, 3, 4, 5]
    assert [r.grundy for r in rows] == NORMAL
    assert [r.outcome for r in rows] == [Outcome.N if v else Outcome.P for v in NORMAL]
    # One family for the whole table gives what a search of each game alone gives.
    assert [r.grundy for r in rows] == [nk.Sprouts(n).grundy() for n in range(1, 6)]
    misere = nk.sprouts_table(5, misere=True)
    assert "".join(r.outcome.name for r in misere) == MISERE
    assert all(r.grundy is None for r in misere)


def test_a_checkpoint_goes_on_from_the_last_n_saved(tmp_path) -> None:
    assert [r.grundy for r in nk.sprouts_table(3, checkpoint=tmp_path)] == NORMAL[:3]
    saved = json.loads((tmp_path / "sprouts-normal.json").read_text())
    assert saved["rows"] == [[1, 0], [2, 0], [3, 1]]
    # The rows saved are read back, not searched: a forged but well-formed file
    # (its checksum made again) shows it, and is believed only as far as it is
    # plausible.
    forged = [[1, 0], [2, 1], [3, 1]]
    saved["rows"], saved["sha256"] = forged, nk.sprouts_table.__globals__["_digest"](False, forged)
    (tmp_path / "sprouts-normal.json").write_text(json.dumps(saved))
    assert [r.grundy for r in nk.sprouts_table(2, checkpoint=tmp_path)] == [0, 1]
    (tmp_path / "sprouts-normal.json").unlink()
    assert [r.grundy for r in nk.sprouts_table(3, checkpoint=tmp_path)] == NORMAL[:3]
    assert [r.grundy for r in nk.sprouts_table(5, checkpoint=tmp_path)] == NORMAL
    assert len(json.loads((tmp_path / "sprouts-normal.json").read_text())["rows"]) == 5
    misere = nk.sprouts_table(4, misere=True, checkpoint=tmp_path)
    assert "".join(r.outcome.name for r in misere) == MISERE[:4]
    assert json.loads((tmp_path / "sprouts-misere.json").read_text())["rows"][0] == [1, "N"]


def _edited(path, change) -> None:
    saved = json.loads(path.read_text())
    change(saved)
    path.write_text(json.dumps(saved))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda s: s["rows"].__setitem__(2, [3, 5]), "checksum"),
        (lambda s: s.__setitem__("misere", True), "ending"),
        (lambda s: s.__setitem__("format", "other"), "format"),
        (lambda s: s.__setitem__("sha256", None), "checksum"),
    ],
)
def test_a_damaged_checkpoint_is_refused(tmp_path, change, says) -> None:
    nk.sprouts_table(3, checkpoint=tmp_path)
    path = tmp_path / "sprouts-normal.json"
    _edited(path, change)
    with pytest.raises(ValueError, match=f"damaged or not one: .*{says}"):
        nk.sprouts_table(4, checkpoint=tmp_path)


def test_implausible_or_unreadable_checkpoints_are_refused(tmp_path) -> None:
    digest = nk.sprouts_table.__globals__["_digest"]
    path = tmp_path / "sprouts-normal.json"
    for rows, says in (([[1, 3]], "answer 3"), ([[2, 0]], "row 1"), ([[1, "P"]], "answer 'P'")):
        saved = {"format": "nimkit sprouts table 1", "misere": False, "rows": rows}
        path.write_text(json.dumps({**saved, "sha256": digest(False, rows)}))
        with pytest.raises(ValueError, match=re.escape(says)):
            nk.sprouts_table(2, checkpoint=tmp_path)
    path.write_bytes(b"\x00\xff")
    with pytest.raises(ValueError, match="JSON"):
        nk.sprouts_table(2, checkpoint=tmp_path)
    with pytest.raises(NotADirectoryError):
        nk.sprouts_table(2, checkpoint=path)


def test_what_a_row_raises_stops_the_table() -> None:
    seen = []

    def row(n: int, value: object) -> None:
        seen.append((n, value))
        if n == 2:
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        _core.sprouts_table(1, 5, False, row)
    assert seen == [(1, 0), (2, 0)]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        nk.sprouts_table(0)
    with pytest.raises(TypeError, match="int"):
        nk.sprouts_table(2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="misere"):
        nk.sprouts_table(2, misere="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="40"):
        nk.sprouts_table(41)


def test_the_command_line_table_with_a_checkpoint(tmp_path, capsys) -> None:
    assert main(["sprouts-table", "3", "--checkpoint", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["1 spot: value 0, P", "2 spots: value 0, P", "3 spots: value 1, N"]
    assert (tmp_path / "sprouts-normal.json").exists()


def test_the_picture_shows_lands_regions_boundaries_and_spots() -> None:
    game = nk.Sprouts("0*3.1a2a|2b1c.c2b+0.0")
    lands = _core.sprouts_spots(str(game))
    picture = game.svg()
    assert picture == game._repr_svg_()
    assert picture.count('class="land"') == len(lands) == 3
    assert picture.count('class="region"') == sum(len(land) for land in lands) == 3
    spots = sum(len(b) for land in lands for region in land for b in region)
    assert picture.count('class="spot"') == spots == 16
    # A letter is one spot met twice: both places share a colour; the same letter
    # in another region (lowercase letters are named within their region) need not.
    fills = re.findall(r'<circle [^>]*fill="(#[0-9a-f]+)"[^>]*><title>(\w): one life', picture)
    by_letter: dict[str, list[str]] = {}
    for fill, letter in fills:
        by_letter.setdefault(letter, []).append(fill)
    assert sorted(by_letter) == ["a", "b"]
    assert len(by_letter["a"]) == 4
    assert len(set(by_letter["a"])) == 2
    assert "Sprouts: no move left" in nk.Sprouts("!").svg()
    assert "more than the 400 drawn" in nk.svg.sprouts(nk.Sprouts("+".join(["0*40"] * 11)))
