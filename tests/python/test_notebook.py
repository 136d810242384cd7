"""Rich display, explanations, game graphs, widgets, frames and plots."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import nimkit as nk
from nimkit import batch

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    assert 0 < int(root.get("width")) <= 1200
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_position_draws_its_heaps():
    root = parse(nk.Position([1, 3, 5, 7])._repr_svg_())
    assert len(with_class(root, "token")) == 16
    labels = texts(root)
    for heap, size in enumerate([1, 3, 5, 7]):
        assert f"heap {heap}" in labels
        assert str(size) in labels
    big = parse(nk.Position([100])._repr_svg_())
    assert len(with_class(big, "token")) == 24
    assert "... 100" in texts(big)


def test_position_draws_from_a_list_and_marks_the_winning_moves_under_rules():
    # A list of sizes draws as its Position does; rules bring the outcome and the moves.
    assert nk.svg.position([1, 3, 5, 7]) == nk.svg.position(nk.Position([1, 3, 5, 7]))
    lost = parse(nk.svg.position([1, 3, 5, 7], nk.Rules(misere=True)))
    words = texts(lost)
    assert "rules: misère play (taking the last object loses), no take limit" in words
    assert any("P, the player to move loses" in t for t in words)
    assert not with_class(lost, "taken")
    won = parse(nk.svg.position((3, 4, 5), nk.Rules()))
    assert len(with_class(won, "taken")) == 2  # take 2 from heap 0
    assert any("winning: take 2 from heap 0" in t for t in texts(won))


def test_analysis_draws_moves_and_the_digital_sum_table():
    analysis = nk.analyse([3, 4, 5])  # nim-sum 2 (010): take 2 from heap 0
    root = parse(analysis._repr_svg_())
    assert len(with_class(root, "taken")) == 2
    assert len(with_class(root, "odd-column")) == 1  # one column holds an odd count of 1s
    digits = [e.text for e in with_class(root, "digit")]
    assert digits == list("011" + "100" + "101" + "010")
    # heap 0 goes from 3 (011) to 1 (001): the changed digit is outlined
    assert len(with_class(root, "changed")) == 1
    assert any("take 2 from heap 0" in t for t in texts(root))
    lost = parse(nk.analyse([1, 3, 5, 7], nk.Rules(misere=True))._repr_svg_())
    assert not with_class(lost, "taken")
    assert not with_class(lost, "odd-column")


def test_game_draws_board_and_moves():
    game = nk.Game([3, 4, 5])
    game.push(nk.Move(0, 2))
    root = parse(game._repr_svg_())
    assert "1. player 0: take 2 from heap 0" in texts(root)
    assert "Player 1 to move" in texts(root)
    assert "rules: normal play (taking the last object wins), no take limit" in texts(root)


def test_pictures_read_on_dark_backgrounds_and_state_the_rules():
    # Dark ink on a light background of the picture's own, whatever the page's theme.
    pictures = [
        nk.Position([3, 4])._repr_svg_(),
        nk.analyse([3, 4, 5], nk.Rules(misere=True, max_take=3))._repr_svg_(),
        nk.Game([1, 2])._repr_svg_(),
        nk.draw_game_graph([1, 2])._repr_svg_(),
    ]
    for svg in pictures:
        root = parse(svg)
        first = root[0]
        assert first.get("class") == "background", svg[:200]
        assert first.get("fill") == "#fff"
        assert first.get("width") == "100%"
    words = " ".join(texts(parse(pictures[1])))
    assert "misère play" in words
    assert "take at most 3" in words


def test_text_reprs_for_ipython():
    from IPython.lib.pretty import pretty

    for value, expected in [
        (nk.Position([1, 2]), "Position([1, 2])"),
        (nk.Move(0, 1), "Move(heap=0, take=1)"),
        (nk.Rules(misere=True), "misère play"),
        (nk.analyse([1, 2]), "Winning moves:"),
        (nk.Game([1, 2]), "player 0 to move"),
    ]:
        assert expected in pretty(value)
    assert "<code>" in nk.Rules()._repr_html_()


def test_explanations():
    limited = nk.explain([5, 9, 6], nk.Rules(max_take=3))
    text = str(limited)
    assert "remainder modulo 4" in text
    assert "5 -> 1, 9 -> 1, 6 -> 2" in text
    assert "the winning move" in text or "the winning moves" in text
    endgame = str(nk.explain([1, 1, 0], nk.Rules(misere=True)))
    assert "endgame of misère play" in endgame
    lost = nk.explain([1, 2, 3])
    assert "loses against perfect play" in str(lost)
    assert "take 1 from heap 0 is answered by take 1 from heap 2" in str(lost)
    assert "```" in lost.to_markdown()
    assert lost._repr_html_().startswith("<p>")
    assert "<pre>" in lost.to_html()
    won = str(nk.explain([3, 4, 5]))
    assert "The leftmost column with an odd number of 1s is the 2s column" in won
    assert "heap 0 goes from 3 to 1" in won


def test_game_graph_of_1_2_3():
    graph = nk.game_graph([1, 2, 3])
    # Sorted positions (a <= b <= c) below (1, 2, 3): 2 * 3 * 4 boxes, sorted.
    assert nk.Position([0, 0, 0]) in graph
    assert graph.nodes[nk.Position([1, 2, 3])]["outcome"] == nk.Outcome.P
    kernel = [n for n in graph if graph.nodes[n]["outcome"] == nk.Outcome.P]
    assert set(kernel) == {nk.Position(p) for p in [(0, 0, 0), (0, 1, 1), (0, 2, 2), (1, 2, 3)]}
    for node in graph:
        # A kernel: no edge inside it, and an edge into it from every other node.
        successors = [graph.nodes[s]["outcome"] for s in graph.successors(node)]
        if graph.nodes[node]["outcome"] == nk.Outcome.P:
            assert nk.Outcome.P not in successors
        else:
            assert nk.Outcome.P in successors
    full = nk.game_graph([1, 2, 3], symmetric=False)
    assert full.number_of_nodes() == 2 * 3 * 4
    with pytest.raises(ValueError, match="more than 10 positions"):
        nk.game_graph([5, 5, 5], max_nodes=10)
    picture = nk.draw_game_graph([1, 2, 3])
    root = parse(picture._repr_svg_())
    assert len(with_class(root, "p-position")) == 4
    assert "1 2 3" in texts(root)
    assert "the kernel" in " ".join(texts(root))
    assert len(with_class(root, "kernel")) == 4
    # Misère play: the P-positions are not a kernel (no move is N there).
    misere = parse(nk.draw_game_graph([1, 2, 3], nk.Rules(misere=True))._repr_svg_())
    words = " ".join(texts(misere))
    assert "kernel" not in words
    assert "misère play" in words


def test_game_graphs_record_moves_and_can_be_written(tmp_path):
    import networkx as nx

    graph = nk.game_graph([3, 1])  # symmetric: nodes sorted, (1, 3)
    edge = graph.edges[nk.Position([1, 3]), nk.Position([1, 1])]
    # The move from the node as sorted: heap 1 of (1, 3) is the heap of 3.
    assert edge == {"move": "take 2 from heap 1", "heap": 1, "take": 2}
    assert nk.Position([1, 3]).after(nk.Move(edge["heap"], edge["take"])) == nk.Position([1, 1])
    kayles = nk.game_graph([4], nk.Rules(code="0.77"))
    split = kayles.edges[nk.Position([4]), nk.Position([1, 2])]
    assert split["into"] == "1 2"
    path = tmp_path / "graph.graphml"
    nx.write_graphml(kayles, path)
    back = nx.read_graphml(path)
    assert back.number_of_nodes() == kayles.number_of_nodes()
    assert back.nodes["4"]["outcome"] == "N"


def test_outcomes_are_their_letters_and_not_booleans():
    assert nk.Outcome.P == "P"
    assert nk.Outcome("N") is nk.Outcome.N
    with pytest.raises(TypeError, match="neither true nor false"):
        bool(nk.Outcome.P)


def test_widget_plays_a_whole_game():
    board = nk.widgets.play([1, 2], opponent=nk.PerfectPlayer())
    assert "Your move" in board.status.value
    board.hint_button.click()
    assert "Hint: take 1 from heap 1" in board.status.value
    board.heap.value, board.take.value = 1, "1"
    board.move_button.click()  # 1 1: the computer must leave one object
    assert board.game.history[0] == nk.Move(1, 1)
    assert "The computer plays" in board.status.value
    board.undo_button.click()
    assert board.game.history == []
    board.heap.value, board.take.value = 1, "1"
    board.move_button.click()
    last = next(i for i, n in enumerate(board.game.position) if n)
    board.heap.value, board.take.value = last, "1"
    board.take._handle_string_msg(None, {"event": "submit"}, None)  # Enter in the box
    assert board.game.is_over
    assert "You win!" in board.status.value
    board.new_button.click()
    assert board.game.history == []
    assert "You to move" in board.board.value
    assert "player 0" not in board.board.value
    with_limit = nk.widgets.play("Thirteen lights", human_first=False)
    assert with_limit.game.history  # the computer opened
    # A take over the limit is refused with the reason, not played as the limit.
    before = list(with_limit.game.history)
    with_limit.take.value = "4"
    with_limit.move_button.click()
    assert with_limit.game.history == before
    assert "Not allowed" in with_limit.status.value
    assert "at most 3" in with_limit.status.value
    with_limit.take.value = "x"
    with_limit.move_button.click()
    assert "a take is a whole number, not 'x'" in with_limit.status.value


def test_frames_and_tables():
    heaps = np.array([[3, 4, 5], [1, 2, 3], [0, 0, 1]])
    frame = nk.to_frame(heaps, nk.Rules())
    assert list(frame.columns) == [
        "heap_0",
        "heap_1",
        "heap_2",
        "nim_sum",
        "outcome",
        "move_heap",
        "move_take",
    ]
    assert list(frame["outcome"]) == ["N", "P", "N"]
    assert list(frame["move_heap"]) == [0, -1, 2]
    # A DataFrame keeps its index and column names.
    import pandas as pd

    named = nk.to_frame(pd.DataFrame({"a": [1, 3], "b": [1, 4]}, index=["x", "y"]))
    assert list(named.index) == ["x", "y"]
    assert list(named.columns[:2]) == ["a", "b"]
    assert list(named["outcome"]) == ["P", "N"]
    table = nk.p_position_table(3, n_heaps=2)
    assert table.to_numpy().tolist() == [[0, 0], [1, 1], [2, 2], [3, 3]]


def test_plots_show_the_batch_results():
    import matplotlib

    matplotlib.use("Agg")
    ax = nk.plots.outcome_map(15, 15, nk.Rules(misere=True), others=[3])
    shown = ax.images[0].get_array()
    a, b = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
    expected = batch.is_p_position(np.stack([a, b, np.full_like(a, 3)], -1), nk.Rules(misere=True))
    np.testing.assert_array_equal(shown, expected)
    ax = nk.plots.grundy_map(7, 7, nk.Rules(max_take=2))
    assert ax.images[0].get_array()[4, 2] == (4 % 3) ^ (2 % 3)
    # Whole numbers on the axes and one colour band per nim-sum (0..3 here).
    ax.figure.canvas.draw()
    for ticks in (ax.get_xticks(), ax.get_yticks()):
        assert all(float(t).is_integer() for t in ticks)
    assert list(ax.images[0].norm.boundaries) == [-0.5, 0.5, 1.5, 2.5, 3.5]


def test_progress_bars(capsys):
    heaps = np.random.default_rng(0).integers(0, 9, size=(500, 3))
    np.testing.assert_array_equal(
        batch.is_p_position(heaps, progress=True), batch.is_p_position(heaps)
    )
    err = capsys.readouterr().err
    assert "positions" in err
    # The bar counts positions and ends full (a bar over slices ended empty).
    assert "100%" in err
    assert "500/500" in err


def test_progress_bars_of_misere_searches_and_quotients(capsys):
    kayles = nk.TakeAndBreak("0.77")
    values = kayles.misere_grundy_sequence(21, progress=True)
    assert values.tolist() == kayles.misere_grundy_sequence(21).tolist()
    err = capsys.readouterr().err
    assert "misère values" in err
    assert "100%" in err
    q = kayles.misere_quotient(max_heap=40, progress=True)
    assert q.order == kayles.misere_quotient(max_heap=40).order
    assert "heaps" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("module", "call", "extra"),
    [
        ("networkx", lambda: nk.game_graph([1]), "graph"),
        ("pandas", lambda: nk.to_frame([[1]]), "pandas"),
        ("matplotlib.pyplot", lambda: nk.plots.outcome_map(2, 2), "plot"),
        ("ipywidgets", lambda: nk.widgets.play([1]), "notebook"),
        ("tqdm.auto", lambda: batch.nim_sum([[1], [2]], progress=True), "progress"),
    ],
)
def test_missing_extras_name_the_extra(monkeypatch, module, call, extra):
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match=rf"pip install 'nimkit\[{extra}\]'"):
        call()


def boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """The position boxes of a game graph picture: x, y, width, height."""
    return [
        tuple(float(e.get(k)) for k in ("x", "y", "width", "height"))
        for e in root.iter(f"{SVG}rect")
        if any(c.endswith("-position") for c in (e.get("class") or "").split())
    ]


def test_game_graph_pictures_have_arrows_layers_and_a_legend():
    import networkx as nx

    picture = nk.draw_game_graph([2, 3], nk.Rules(max_take=2))
    root = parse(picture.svg)
    moves = with_class(root, "move")
    assert len(moves) == picture.graph.number_of_edges()
    assert all(m.get("marker-end") == "url(#arrow)" for m in moves)
    # Every move of a game that ends goes right, and its bends (one per column it
    # skips) lie outside every box: no move is drawn under a position.
    rects = boxes(root)
    for move in moves:
        points = [tuple(map(float, p.split())) for p in move.get("d")[2:].split(" L ")]
        assert points[0][0] < points[-1][0]
        for x, y in points[1:-1]:
            assert not any(bx <= x <= bx + w and by <= y <= by + h for bx, by, w, h in rects)
    words = " ".join(texts(root))
    assert "P: the player to move loses (the kernel)" in words
    assert "D:" not in words
    # A loopy game: draws in their own colour, moves back as dashed arcs.
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["e"], "e": []}
    loopy = parse(nk.draw_game_graph(nk.DigraphGame(graph, "a")).svg)
    assert len(with_class(loopy, "d-position")) == 3
    assert len(with_class(loopy, "back")) == 1
    words = " ".join(texts(loopy))
    assert "D: a draw" in words
    assert "kernel" not in words
    # Any game: a sum of different games.
    s = nk.Heaps([2], nk.Rules(code="0.77")) + nk.Impartial(3, lambda n: [n - 1] if n else [])
    summed = parse(nk.draw_game_graph(s).svg)
    assert len(boxes(summed)) == 3 * 4
    # Past 100 positions no picture is readable: refused, saying what to do.
    with pytest.raises(ValueError, match="more than 100 positions"):
        nk.draw_game_graph(nk.DigraphGame(nx.path_graph(200, create_using=nx.DiGraph), 0))
    with pytest.raises(ValueError, match="at most 100 positions"):
        nk.draw_game_graph([3, 3], max_nodes=500)


def test_every_picture_has_a_public_svg():
    # Pictures outside a notebook (issue 45): svg() wherever _repr_svg_ draws.
    drawn = [
        nk.Position([1, 3, 5]),
        nk.analyse([1, 3, 5]),
        nk.Game([1, 3, 5]),
        nk.Heaps([1, 2]),
        nk.Wythoff(3, 5),
        nk.StaircaseNim([0, 2, 1]),
        nk.MooreNim([1, 2, 3], k=2),
        nk.CoinTurning("mock_turtles", [1, 0, 1]),
        nk.TurningCorners([[1, 0], [0, 1]]),
        nk.GreenHackenbush([(0, 1), (1, 2)], ground=0),
    ]
    for thing in drawn:
        svg = thing.svg()
        assert svg.startswith("<svg"), type(thing)
        assert svg.rstrip().endswith("</svg>"), type(thing)
        assert thing._repr_svg_() == svg


@pytest.mark.parametrize(
    "rules",
    [nk.Rules(), nk.Rules(max_take=2), nk.Rules(code="0.77"), nk.Rules(code="4!.0")],
    ids=repr,
)
def test_game_graph_edges_are_the_moves(rules):
    # The core's explorer gives positions; each edge's move is read back from the two
    # and must be the move that joins them (splits included).
    from nimkit.graph import _move_between

    for heaps in [(5,), (3, 4), (1, 2, 6)]:
        start = nk.Position(heaps)
        for move in start.moves(rules):
            assert _move_between(start, start.after(move, rules)) == move
    graph = nk.game_graph([2, 5], rules, symmetric=False)
    for a, b, edge in graph.edges(data=True):
        into = tuple(map(int, edge["into"].split())) if "into" in edge else None
        assert a.after(nk.Move(edge["heap"], edge["take"], into), rules) == b


def test_one_name_for_the_graph_of_heaps_and_of_games():
    game = nk.Impartial(4, lambda n: [n - t for t in (1, 2) if t <= n])
    graph = nk.game_graph(game)
    assert sorted(graph.nodes[n]["value"] for n in graph.nodes) == [0, 0, 1, 1, 2]
    with pytest.raises(TypeError, match="a game has its own rules"):
        nk.game_graph(game, nk.Rules())


def test_cram_picture_is_readable_with_a_title_and_a_legend():
    root = parse(nk.Cram(4, 5).svg())
    assert int(root.get("width")) >= 300
    assert int(root.get("height")) >= 200
    cells = [e for e in root.iter(f"{SVG}rect") if (e.findtext(f"{SVG}title") or "") == "(0, 0)"]
    assert int(cells[0].get("width")) >= 28  # the board's own cell, before the small boards
    words = texts(root)
    assert "Cram 4 x 5: value 2, N (the player to move wins)" in words
    assert {"a filled cell", "an empty cell"} <= set(words)
    assert any(t.startswith("a winning domino") for t in words)
    lost = texts(parse(nk.Cram(3, 3).svg()))
    assert "Cram 3 x 3: value 0, P (the player to move loses)" in lost


def test_cram_draws_each_winning_domino_on_a_board_of_its_own():
    game = nk.Cram(["....", "..#.", "...."])
    moves = game.winning_moves()
    assert len(moves) == 9
    root = parse(game.svg())
    panels = with_class(root, "winning-move")
    assert len(panels) == len(moves)
    drawn = []
    for panel in panels:
        (domino,) = with_class(panel, "domino")  # one domino on each small board
        drawn.append(domino.findtext(f"{SVG}title"))
    dominoes = [sorted(game.removed(m)) for m in moves]
    assert sorted(drawn) == sorted(f"winning domino {a}-{b}" for a, b in dominoes)
    assert len(set(drawn)) == len(moves)
    # Past twelve winning moves the rest are counted, not drawn.
    many = nk.Cram(["...#..", "......", "...#.."])
    total = len(many.winning_moves())
    assert total == 17
    root = parse(many.svg())
    assert len(with_class(root, "winning-move")) == 12
    assert f"and {total - 12} more winning moves" in texts(root)


def test_kayles_pictures_have_a_title_and_say_what_red_means():
    import networkx as nx

    petersen = parse(nk.NodeKayles(nx.petersen_graph()).svg())
    words = texts(petersen)
    assert "Node Kayles on 10 vertices: value 1, N (the player to move wins)" in words
    red = "a winning move (normal play): a vertex to pick, deleting it and its neighbours"
    assert red in words
    assert len(with_class(petersen, "legend")) == 2
    assert len(with_class(petersen, "winning")) == 10  # every vertex, by symmetry
    arcs = parse(nk.ArcKayles(nx.path_graph(4)).svg())
    words = texts(arcs)
    assert "Arc Kayles on 4 vertices: value 2, N (the player to move wins)" in words
    assert "a winning move (normal play): an edge to take, deleting both its ends" in words
    assert [e.tag for e in with_class(arcs, "winning")] == [f"{SVG}line"]
