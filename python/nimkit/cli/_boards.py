"""The command line's games that split into parts: ``nimkit cram``, ``nimkit
cram-table``, ``nimkit node-kayles`` / ``nimkit arc-kayles`` of a graph read from a
file, ``nimkit sprouts`` and ``nimkit sprouts-table``.

>>> from nimkit.cli import main
>>> main(["cram", "2", "3"])
Cram on an empty 2 x 3 board
value: 1
outcome (normal play): N, the player to move wins against perfect play
winning move: domino on (row 0, col 0) and (row 1, col 0), counted from 0
time: ... s
0
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from ..outcome import Outcome

COMMANDS = (
    "cram",
    "cram-table",
    "node-kayles",
    "arc-kayles",
    "sprouts",
    "sprouts-table",
    "verify",
)


def add_commands(commands: Any, whole: Callable[[int, int, str], Callable[[str], int]]) -> None:
    """The commands, on the main parser's subparsers (``whole``: its number type)."""
    cram = commands.add_parser(
        "cram",
        help="the value and outcome of Cram on a ROWS x COLS board",
        description="Solve Cram (dominoes placed either way on the empty cells) on an "
        "empty ROWS x COLS board, or on the board of a text file (--board: one line "
        "per row, '.' empty, '#' filled): the Grundy value, the outcome in the ending "
        "asked, one winning move and the time taken.",
    )
    cram.add_argument("rows", nargs="?", type=whole(1, 2**16, "a row count"))
    cram.add_argument("cols", nargs="?", type=whole(1, 2**16, "a column count"))
    cram.add_argument("--board", metavar="FILE", help="the board as text ('.' empty, '#' filled)")
    _add_common(cram)
    _add_cluster(cram)
    row = commands.add_parser(
        "cram-table",
        help="the values of Cram on every ROWS x n board, n = 1 to MAX_COLS",
        description="The normal-play Grundy values of the empty ROWS x n Cram boards "
        "for n = 1 to MAX_COLS, one line per board, searched on one board so that each "
        "shape is met once for the whole row. With --checkpoint a run of hours goes on "
        "after a restart from its last save, the widths done read back at once.",
    )
    row.add_argument("rows", type=whole(1, 2**16, "a row count"), metavar="ROWS")
    row.add_argument("max_cols", type=whole(1, 2**16, "a column count"), metavar="MAX_COLS")
    _add_bounds(row)
    _add_cluster(row, depth=False)
    for name, game in (("node-kayles", "Node Kayles"), ("arc-kayles", "Arc Kayles")):
        command = commands.add_parser(
            name,
            help=f"the value and outcome of {game} on a graph read from FILE",
            description=f"Solve {game} on the graph in FILE: GraphML (.graphml) or an "
            "edge list (one edge 'u v' per line, networkx's read_edgelist; needs the "
            "'graph' extra): the Grundy value, the outcome in the ending asked, one "
            "winning move and the time taken.",
        )
        command.add_argument("file", metavar="FILE")
        _add_common(command)
        _add_cluster(command)
    sprouts = commands.add_parser(
        "sprouts",
        help="the value and outcome of Sprouts from N spots or a position",
        description="Solve Sprouts from N spots, or from a POSITION in the string "
        "notation (e.g. '0*4.1a1a'; the guide's Sprouts page): the Grundy value, the "
        "outcome in the ending asked, one winning move and the time taken.",
    )
    sprouts.add_argument("position", metavar="N|POSITION")
    _add_sprouts_bounds(sprouts)
    _add_cluster(sprouts)
    sprouts.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="save what the normal-play search learns in DIR (every --every seconds, on "
        "Ctrl-C, SIGTERM and at the end) and start from what DIR holds; with --scheduler: "
        "keep the answers of the lands there",
    )
    _add_every(sprouts)
    sprouts.add_argument(
        "--certificate",
        metavar="FILE",
        help="write the normal-play value with what proves it to FILE (JSON; .gz "
        "compressed), for nimkit verify to check",
    )
    table = commands.add_parser(
        "sprouts-table",
        help="the outcomes of Sprouts from n spots, n = 1 to MAX_SPOTS",
        description="The n-spot Sprouts games for n = 1 to MAX_SPOTS, one line each: "
        "the Grundy value and outcome in normal play, or the outcome in misère play, "
        "searched by one family so that what is learned for n is not searched again. "
        "With --checkpoint DIR each n is saved as it is found, and a later run goes on "
        "after the last one saved.",
    )
    table.add_argument("max_spots", type=whole(1, 40, "a number of spots"), metavar="MAX_SPOTS")
    _add_sprouts_bounds(table)
    table.add_argument(
        "--checkpoint", metavar="DIR", help="save each n found in DIR, and go on from it"
    )
    _add_verify(commands, whole)


def _add_sprouts_bounds(command: argparse.ArgumentParser) -> None:
    """--misere, --progress, --max-memory and --evict of the Sprouts commands."""
    command.add_argument("--misere", action="store_true", help="misère play: the last mover loses")
    command.add_argument(
        "--progress", action="store_true", help="show a progress bar (the 'progress' extra)"
    )
    command.add_argument(
        "--max-memory", metavar="SIZE", help="the most memory the search may hold, e.g. '4 GB'"
    )
    command.add_argument(
        "--evict",
        action="store_true",
        help="with --max-memory: past it, drop what is known of the smallest lands and go on",
    )


def _add_cluster(command: argparse.ArgumentParser, depth: bool = True) -> None:
    """--scheduler (and --depth): the search on a Dask cluster (nimkit.cluster)."""
    command.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="search on the Dask cluster whose scheduler is at ADDRESS (e.g. "
        "tcp://10.0.0.1:8786; the 'dask' extra): the search's questions are its tasks, "
        "their answers kept with --checkpoint; no winning move is shown",
    )
    if depth:
        command.add_argument(
            "--depth",
            type=int,
            metavar="MOVES",
            help="with --scheduler --misere: the moves laid out before the positions "
            "go to the workers (1 to 4, default 2)",
        )


def _client(args: argparse.Namespace) -> Any:
    """A client of the cluster --scheduler names (None without one)."""
    if args.scheduler is None:
        return None
    from .._extras import require

    distributed = require("distributed", "dask")
    try:
        return distributed.Client(args.scheduler, timeout="10s")
    except OSError as err:
        raise OSError(f"no Dask scheduler answers at {args.scheduler} ({err})") from None


def _on_cluster(game: Any, args: argparse.Namespace, client: Any) -> int:
    """``nimkit cram`` (and the others) with --scheduler: the value and outcome."""
    started = time.perf_counter()
    how = {"client": client, "checkpoint": args.checkpoint}
    bounds = {"max_memory": args.max_memory, "evict": args.evict, "progress": args.progress}
    value = game.grundy(**how, **bounds)
    if args.misere:
        outcome = game.outcome(True, depth=args.depth, **how, **bounds)
    else:
        outcome = Outcome.N if value else Outcome.P
    return _report(game, value, outcome, args.misere, None, started)


def _add_common(command: argparse.ArgumentParser) -> None:
    command.add_argument("--misere", action="store_true", help="misère play: the last mover loses")
    _add_bounds(command)
    command.add_argument(
        "--certificate",
        metavar="FILE",
        help="write the value (with --misere, the misère outcome) with what proves it "
        "to FILE (JSON; .gz compressed), for nimkit verify to check (boards and grid graphs)",
    )


def _add_verify(commands: Any, whole: Callable[[int, int, str], Callable[[str], int]]) -> None:
    verify = commands.add_parser(
        "verify",
        help="check a certificate of a value or outcome with a checker of its own",
        description="Check a certificate written by --certificate (or grundy(certificate=)) "
        "with code that shares nothing with the search: its own moves, components, "
        "canonical forms and mex, every fact from the facts it needs. Prints what it "
        "proves, or the first fact that fails (exit 1).",
    )
    verify.add_argument("file", metavar="FILE", help="the certificate (JSON, or JSON.gz)")
    verify.add_argument(
        "--processes",
        type=whole(1, 1024, "a number of processes"),
        default=1,
        metavar="N",
        help="share the facts out among N processes, at most one a core (default 1)",
    )


def _add_bounds(command: argparse.ArgumentParser) -> None:
    """--progress, --max-memory, --checkpoint and --every."""
    command.add_argument(
        "--progress", action="store_true", help="show a progress bar (the 'progress' extra)"
    )
    command.add_argument(
        "--max-memory",
        metavar="SIZE",
        help="the most memory the search may hold, e.g. '4 GB' or '512 MiB' "
        "(an error past it, what was learned saved with --checkpoint)",
    )
    command.add_argument(
        "--evict",
        action="store_true",
        help="with --max-memory: when the table reaches it, drop what it knows of the "
        "smallest components (misère play: positions) and go on (an error only if "
        "the search cannot go on within the bound)",
    )
    command.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="save what the search learns in DIR (every --every seconds, on Ctrl-C, SIGTERM "
        "and at the end) and start from what DIR holds",
    )
    _add_every(command)


def _add_every(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--every",
        metavar="SECONDS",
        type=_seconds,
        default=600.0,
        help="seconds between two saves with --checkpoint (default 600)",
    )


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not seconds >= 0:
        raise argparse.ArgumentTypeError(f"a number of seconds, at least 0, not {text!r}")
    return seconds


def run(args: argparse.Namespace) -> int:
    from ..boards import ArcKayles, Cram, NodeKayles

    if args.command == "verify":
        return _verify(args.file, args.processes)
    if args.evict and args.max_memory is None:
        raise ValueError("--evict makes room past --max-memory: give --max-memory too")
    if getattr(args, "depth", None) is not None and not (args.scheduler and args.misere):
        raise ValueError(
            "--depth lays out the top of a misère search on a cluster: give --scheduler "
            "and --misere too"
        )
    if args.command == "cram-table":
        return _row(args)
    game: Any
    if args.command == "sprouts":
        return _sprouts(args)
    if args.command == "sprouts-table":
        return _sprouts_table(args)
    if args.command == "cram":
        if args.board is not None:
            if args.rows is not None:
                raise ValueError("give ROWS COLS or --board FILE, not both")
            text = _read_bounded(args.board, MOST_BOARD_BYTES, "board")
            game = Cram([line for line in text.splitlines() if line.strip()])
        elif args.rows is None or args.cols is None:
            raise ValueError("give the board's ROWS and COLS (e.g. nimkit cram 4 5), or --board")
        else:
            game = Cram(args.rows, args.cols)
    else:
        graph = _read_graph(args.file)
        game = (NodeKayles if args.command == "node-kayles" else ArcKayles)(graph)
    if args.certificate is not None and args.misere:
        return _misere_certificate(game, args)
    if args.scheduler is not None:
        if args.certificate is not None:
            raise ValueError(
                "--certificate is written by a search in one process, not on a cluster"
            )
        with _client(args) as client:
            return _on_cluster(game, args, client)
    started = time.perf_counter()
    memory = args.max_memory
    try:
        value: object = game.grundy(
            progress=args.progress,
            max_memory=memory,
            checkpoint=args.checkpoint,
            every=args.every,
            evict=args.evict,
            certificate=args.certificate,
        )
    except MemoryError:
        if not args.misere:
            raise
        # The misère question is asked apart: its search may fit where this one did not.
        value = "past --max-memory (the normal-play search)"
    bounds = {"max_memory": memory, "evict": args.evict}
    outcome = game.outcome(args.misere, progress=args.progress, **bounds)
    # One winning move is shown, so the options are asked until one is lost for the
    # player who moves next, not all of them.
    won = (o for o in game.options() if o.outcome(args.misere, **bounds).value == "P")
    move = next(won, None) if outcome.value == "N" else None
    shown = None if move is None else _move(game, move)
    _report(game, value, outcome, args.misere, shown, started)
    if args.certificate is not None:
        print(f"certificate: {args.certificate} (check it with nimkit verify)")
    return 0


def _misere_certificate(game: Any, args: argparse.Namespace) -> int:
    """``--misere --certificate FILE``: the misère outcome, proven in FILE."""
    started = time.perf_counter()
    bounds = {"max_memory": args.max_memory, "progress": args.progress}
    outcome = game.outcome(True, certificate=args.certificate, **bounds)
    _report(game, "not searched (--misere --certificate proves the outcome)", outcome, True,
            None, started)  # fmt: skip
    print(f"certificate: {args.certificate} (check it with nimkit verify)")
    return 0


def _verify(path: str, processes: int) -> int:
    """``nimkit verify FILE``: what the certificate proves (0), or why not (1)."""
    from .._facts import CertificateError
    from ..board_checker import verify

    try:
        print(verify(path, processes))
    except CertificateError as err:
        print(f"nimkit verify: {err}", file=sys.stderr)
        return 1
    return 0


def _report(
    game: Any, value: object, outcome: Any, misere: bool, move: str | None, started: float
) -> int:
    """What ``nimkit cram``, ``node-kayles``, ``arc-kayles`` and ``sprouts`` print."""
    ending = "misère" if misere else "normal"
    print(game.describe())
    print(f"value: {value}")
    print(f"outcome ({ending} play): {outcome.value}, {outcome.describe()}")
    if move is not None:
        print(f"winning move: {move}")
    print(f"time: {time.perf_counter() - started:.2f} s")
    return 0


def _sprouts(args: argparse.Namespace) -> int:
    """``nimkit sprouts``: as the boards'; ``--checkpoint`` saves the normal-play
    search (``nimkit.sprouts_checkpoint``).

    >>> from nimkit.cli import main
    >>> main(["sprouts", "4"])
    Sprouts at 0*4
    value: 1
    outcome (normal play): N, the player to move wins against perfect play
    winning move: to 0*3.AB|AB
    time: ... s
    0
    """
    from ..sprouts import Sprouts

    text = args.position.strip()
    game = Sprouts(int(text)) if text.isdigit() else Sprouts(text)
    if args.scheduler is not None:
        with _client(args) as client:
            return _on_cluster(game, args, client)
    started = time.perf_counter()
    bounds = {"max_memory": args.max_memory, "evict": args.evict}
    if args.checkpoint is not None:
        if args.misere or args.certificate is not None:
            raise ValueError(
                "--checkpoint saves the normal-play search: no --misere (saved on a "
                "cluster only, with --scheduler) and no --certificate"
            )
        bounds.update(checkpoint=args.checkpoint, every=args.every)
    if args.certificate is not None:
        if args.misere:
            raise ValueError("a Sprouts certificate proves the normal-play value: no --misere")
        value = game.grundy(progress=args.progress, certificate=args.certificate, **bounds)
        outcome = Outcome.N if value else Outcome.P
        _report(game, value, outcome, False, None, started)
        print(f"certificate: {args.certificate} (check it with nimkit verify)")
        return 0
    value = game.grundy(progress=args.progress, **bounds)
    for saving in ("checkpoint", "every"):
        bounds.pop(saving, None)  # the options' searches meet what it learned
    if args.misere:
        outcome = game.outcome(True, progress=args.progress, **bounds)
    else:
        outcome = Outcome.N if value else Outcome.P
    won = (o for o in game.options() if o.outcome(args.misere, **bounds).value == "P")
    move = next(won, None) if outcome.value == "N" else None
    shown = None if move is None else f"to {move}"
    return _report(game, value, outcome, args.misere, shown, started)


def _sprouts_table(args: argparse.Namespace) -> int:
    """``nimkit sprouts-table``.

    >>> from nimkit.cli import main
    >>> main(["sprouts-table", "4", "--misere"])
    1 spot: N
    2 spots: P
    3 spots: P
    4 spots: P
    time: ... s
    0
    """
    from ..sprouts_table import sprouts_table

    started = time.perf_counter()
    rows = sprouts_table(
        args.max_spots,
        args.misere,
        args.progress,
        checkpoint=args.checkpoint,
        max_memory=args.max_memory,
        evict=args.evict,
    )
    for row in rows:
        spots = f"{row.spots} spot{'s' * (row.spots > 1)}"
        value = "" if row.grundy is None else f"value {row.grundy}, "
        print(f"{spots}: {value}{row.outcome.value}")
    print(f"time: {time.perf_counter() - started:.2f} s")
    return 0


def _row(args: argparse.Namespace) -> int:
    from ..boards import cram_table

    started = time.perf_counter()
    client = _client(args)
    try:
        values = cram_table(
            args.rows,
            args.max_cols,
            args.progress,
            max_memory=args.max_memory,
            checkpoint=args.checkpoint,
            every=args.every,
            evict=args.evict,
            client=client,
        )
    finally:
        if client is not None:
            client.close()
    for n, value in enumerate(values, 1):
        print(f"{args.rows} x {n}: {value}")
    print(f"time: {time.perf_counter() - started:.2f} s")
    return 0


def _move(game: Any, option: Any) -> str:
    if game.family == "cram":
        cells = " and ".join(f"(row {r}, col {c})" for r, c in sorted(game.removed(option)))
        return f"domino on {cells}, counted from 0"
    removed = sorted(game.removed(option), key=repr)
    if game.family == "arc_kayles":
        return f"take the edge {removed[0]!r} - {removed[1]!r}"
    gone = set(removed)
    picked = [v for v in removed if (set(game.graph.neighbors(v)) | {v}) == gone]
    return f"pick the vertex {picked[0]!r} (deleting {', '.join(map(repr, removed))})"


def _read_graph(path: str) -> Any:
    from .._extras import require

    nx = require("networkx", "graph")
    text = _read_bounded(path, MOST_GRAPH_BYTES, "graph")
    if path.endswith(".graphml"):
        return nx.parse_graphml(text)
    return nx.parse_edgelist(text.splitlines())


#: The most bytes of a board file: the largest board has 2**14 cells, each a
#: character, and a row may end in '\r\n' (a board one cell wide) or blanks.
MOST_BOARD_BYTES = 4 * 2**14
#: The most bytes of a graph file: millions of edges, more than a search of a
#: graph of 2**14 vertices (the most these games take) ever ends on.
MOST_GRAPH_BYTES = 64 * 2**20


def _read_bounded(path: str, most: int, what: str) -> str:
    """The text of ``path``, read no further than ``most`` bytes (a file past that,
    or /dev/zero, is refused before it fills memory)."""
    with open(path, "rb") as file:
        data = file.read(most + 1)
    if len(data) > most:
        raise ValueError(
            f"{path} is larger than any {what} these games are searched on (at most {most} bytes)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file of a {what} (not UTF-8)") from None
