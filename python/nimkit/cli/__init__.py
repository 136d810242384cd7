"""The ``nimkit`` command line: ``nimkit analyse``, ``classify``, ``play``,
``grundy`` and ``period`` (``nimkit --help``, ``nimkit COMMAND --help``).

>>> main(["analyse", "1", "2", "3", "--brief"])
Position: 1 2 3   (heaps numbered from 0)
...
Outcome:  P, the player to move loses against perfect play
Winning moves: none
0
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from .._core import DEFAULT_MAX_POSITIONS
from ..analysis import analyse
from ..games import Heaps, Sum
from ..rules import Rules
from . import _boards

if TYPE_CHECKING:
    from .._core import TakeAndBreak
    from ..playing import ComputerPlayer

#: Python parameter names in error messages, and the flags that set them.
_FLAGS = {
    "max_take": "--max-take",
    "max_positions": "--max-positions",
    "max_heap": "--max-heap",
    "max_memory": "--max-memory",
    "take": "--take",
    "code": "--code",
}


class _Parser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit status 2, never a traceback."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _whole(least: int, most: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` to ``most`` (argparse names the
    flag in its error)."""

    def parse(text: str) -> int:
        base, power, exponent = text.partition("**")
        try:
            if power and not 0 <= int(exponent) <= 64:
                raise ValueError
            value = int(base) ** int(exponent) if power else int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(
                f"{what} is from {least} to {_power(most)}, not {text}"
            )
        return value

    return parse


def _power(n: int) -> str:
    """``2**64 - 1`` for 18446744073709551615, ``2**32`` for 4294967296."""
    for exponent in range(8, 65):
        if n == 2**exponent:
            return f"2**{exponent}"
        if n == 2**exponent - 1:
            return f"2**{exponent} - 1"
    return str(n)


_U64 = 2**64 - 1
#: The most values ``grundy`` computes at once (the core's limit).
_MOST_VALUES = 2**32


def _heap(text: str) -> int:
    """A whole number; the core names the heap that is out of range."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a heap size is a whole number, not {text!r}") from None


def _max_take(text: str) -> int | tuple[int | None, ...] | None:
    """``K``, ``none``, or ``K1,K2,none,...`` (one per heap)."""

    def one(part: str) -> int | None:
        part = part.strip()
        if part.lower() == "none":
            return None
        try:
            return int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"a take limit is a whole number or 'none', not {part!r}"
            ) from None

    parts = text.split(",")
    return one(parts[0]) if len(parts) == 1 else tuple(one(p) for p in parts)


def _take(text: str) -> frozenset[int] | tuple[frozenset[int] | None, ...]:
    """``1,3,4`` (one subtraction set for every heap) or ``1,3,4/none/2`` (one per heap)."""

    def one(part: str) -> frozenset[int] | None:
        part = part.strip()
        if part.lower() == "none":
            return None
        try:
            return frozenset(int(s) for s in part.split(","))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"a subtraction set is whole numbers separated by commas, not {part!r}"
            ) from None

    parts = text.split("/")
    if len(parts) == 1:
        only = one(parts[0])
        if only is None:
            raise argparse.ArgumentTypeError("--take none: leave --take out for no limit")
        return only
    return tuple(one(p) for p in parts)


def _component(text: str) -> Heaps:
    """``RULE:HEAPS``: ``nim:2,7``, ``code=0.77:5,3``, ``take=1,3,4:10``, ``max-take=3:4,4``."""
    rule, colon, heaps_text = text.rpartition(":")
    if not colon:
        raise argparse.ArgumentTypeError(
            f"a part of a sum is RULE:HEAPS, e.g. nim:2,7 or code=0.77:5,3, not {text!r}"
        )
    heaps = [_heap(h) for h in heaps_text.split(",")]
    name, _, value = rule.partition("=")
    name = name.strip().lower()
    try:
        if name == "nim" and not value:
            rules = Rules()
        elif name == "code" and value:
            rules = Rules(code=value)
        elif name == "take" and value:
            rules = Rules(take=_take(value))
        elif name == "max-take" and value:
            rules = Rules(max_take=_max_take(value))
        else:
            raise argparse.ArgumentTypeError(
                f"the rule of a part is nim, code=CODE, take=SET or max-take=K, not {rule!r}"
            )
        return Heaps(heaps, rules)
    except (ValueError, TypeError, OverflowError) as err:
        # argparse turns only ValueError and TypeError from a type= into a usage error.
        raise argparse.ArgumentTypeError(f"{text}: {_in_flags(str(err))}") from None


def _analyse_sum(args: argparse.Namespace) -> int:
    """``nimkit analyse --sum``: the sum's outcome, value and winning moves."""
    if args.heaps:
        raise ValueError("give the heaps of each part in --sum, not as HEAP arguments")
    if any(getattr(args, name) is not None for name in ("max_take", "take", "code")):
        raise ValueError("give each part's rule in --sum (e.g. code=0.77:5,3), not as a flag")
    game = Sum(*args.sum)
    if args.outcome:
        print(game.outcome(args.misere, args.max_positions))
    elif args.json:
        print(json.dumps(game.to_dict(args.misere, args.max_positions), indent=2))
    else:
        lines = game.explain(args.misere).splitlines()
        print("\n".join(line if line.startswith(" ") else textwrap.fill(line) for line in lines))
    return 0


def _add_rules(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--misere", action="store_true", help="misère play: taking the last object loses"
    )
    command.add_argument(
        "--max-take",
        type=_max_take,
        default=None,
        metavar="K",
        help="take at most K per turn; or one limit per heap, e.g. 3,5,none",
    )
    command.add_argument(
        "--take",
        type=_take,
        default=None,
        metavar="SET",
        help="take exactly one of these per turn, e.g. 1,3,4; or one set per heap "
        "separated by /, e.g. 1,3,4/none/2,5",
    )
    command.add_argument(
        "--code",
        default=None,
        metavar="CODE",
        help="a take-and-break code, e.g. 0.77 (Kayles), 0.07 (Dawson's Kayles), "
        "4!.0 (Grundy's game): moves may split a heap",
    )


def _parser() -> argparse.ArgumentParser:
    from .._core import __version__

    parser = _Parser(prog="nimkit", description="Solve Nim and its take-away relatives.")
    parser.add_argument("--version", action="version", version=f"nimkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    analyse_cmd = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="analyse one position: Grundy values, nim-sum, outcome, every winning move",
        description="Analyse one position: the digital-sum table, the outcome and every "
        "winning move. Heaps are numbered from 0.",
    )
    analyse_cmd.add_argument("heaps", nargs="*", type=_heap, metavar="HEAP", help="heap sizes")
    analyse_cmd.add_argument(
        "--sum",
        nargs="+",
        type=_component,
        default=None,
        metavar="PART",
        help="analyse a sum of games instead: each PART is RULE:HEAPS, RULE one of nim, "
        "code=CODE, take=SET, max-take=K, e.g. --sum code=0.77:5,3 nim:2,7 "
        "(--misere asks about misère play of the whole sum)",
    )
    _add_rules(analyse_cmd)
    _add_max_positions(analyse_cmd)
    report = analyse_cmd.add_mutually_exclusive_group()
    report.add_argument("--json", action="store_true", help="print the facts as JSON")
    report.add_argument(
        "--outcome",
        action="store_true",
        help="print the outcome only: P (the player to move loses) or N",
    )
    report.add_argument(
        "--brief", action="store_true", help="print the report only, not the explanation"
    )

    classify_cmd = commands.add_parser(
        "classify",
        help="classify every position of a file (.npy, or text/CSV with one per line)",
        description="Classify every position of a file: a .npy array (positions x heaps, "
        "any integer dtype, memory-mapped) or a text/CSV file with one position per line "
        "(short lines padded with empty heaps). Writes a .npy (written under a temporary "
        "name, renamed when complete) or text, one result per line.",
    )
    classify_cmd.add_argument(
        "input", type=Path, metavar="INPUT", help=".npy, .csv or .txt; - for text on stdin"
    )
    classify_cmd.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help="output .npy or text file; - or none: text on stdout",
    )
    _add_rules(classify_cmd)
    _add_max_positions(classify_cmd)
    classify_cmd.add_argument(
        "--what",
        choices=["p", "nim-sum", "winning-move"],
        default="p",
        help="p: P-position or not (bool); nim-sum (uint64); winning-move: the first "
        "winning move as heap (-1: none) and take",
    )
    classify_cmd.add_argument(
        "--chunk",
        type=_whole(1, _U64, "a chunk"),
        default=1 << 22,
        metavar="N",
        help="positions per chunk (default 4194304); memory use follows it",
    )
    classify_cmd.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (needs the 'progress' extra; default: on large inputs "
        "when tqdm is installed)",
    )
    play_cmd = commands.add_parser(
        "play",
        help="play against the computer in the terminal",
        description="Play against the computer. Type HEAP TAKE to move (heaps are "
        "numbered from 0), ? for a hint, u to undo, q to quit.",
    )
    board = play_cmd.add_mutually_exclusive_group()
    board.add_argument("--variant", help=f"a classic variant: {', '.join(_variants())}")
    board.add_argument("--heaps", nargs="+", type=_heap, metavar="HEAP", help="heap sizes")
    board.add_argument(
        "--sum",
        nargs="+",
        type=_component,
        metavar="PART",
        help="play a sum of games: each PART is RULE:HEAPS as for analyse --sum, and a "
        "move is chosen among the numbered options",
    )
    _add_rules(play_cmd)
    play_cmd.add_argument(
        "--opponent",
        default="perfect",
        type=_opponent,
        metavar="KIND",
        help="perfect, random or fallible:RATE (e.g. fallible:0.3); default perfect",
    )
    order = play_cmd.add_mutually_exclusive_group()
    order.add_argument(
        "--first", dest="order", action="store_const", const="first", help="you move first"
    )
    order.add_argument(
        "--second",
        dest="order",
        action="store_const",
        const="second",
        help="the computer moves first",
    )
    order.add_argument(
        "--choose",
        dest="order",
        action="store_const",
        const="choose",
        help="decide at the board whether to start or to pass",
    )
    play_cmd.add_argument(
        "--seed", type=_whole(0, _U64, "a seed"), default=None, help="seed of the computer's dice"
    )
    _add_max_positions(play_cmd)

    grundy_cmd = commands.add_parser(
        "grundy",
        help="the Grundy values of a take-and-break code's heaps",
        description="Compute the Grundy values of heaps 0..COUNT-1 of a take-and-break "
        "code (e.g. 0.77, Kayles): printed one per line, or saved as .npy with -o. With "
        "--statistics, a Markdown table of each code's largest value, sparse-space mask "
        "and rare heaps instead (e.g. nimkit grundy 0.6 4!.0 --count 2**21 --statistics).",
    )
    grundy_cmd.add_argument(
        "code",
        metavar="CODE",
        nargs="+",
        help="a take-and-break code, e.g. 0.77 (several with --statistics)",
    )
    grundy_cmd.add_argument(
        "--count",
        type=_whole(0, _MOST_VALUES, "a count"),
        required=True,
        metavar="N",
        help="how many values (heaps 0..N-1); a power such as 2**21 is accepted",
    )
    grundy_cmd.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        metavar="DIR",
        help="write the values and their SHA-256 to DIR as they grow, and resume from "
        "DIR (see nimkit.sequence_checkpoint); the values are then not printed unless -o is given",
    )
    grundy_cmd.add_argument(
        "--every",
        type=float,
        default=180.0,
        metavar="SECONDS",
        help="with --checkpoint: about how often to write it (default 180)",
    )
    grundy_cmd.add_argument(
        "--statistics",
        action="store_true",
        help="print the statistics published for unsolved games rather than the values",
    )
    grundy_cmd.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help="output .npy file; other names: text, one value per line; - or none: stdout",
    )
    _add_progress(grundy_cmd)

    period_cmd = commands.add_parser(
        "period",
        help="prove the period of a take-and-break code and print its certificate",
        description="Compute Grundy values of a take-and-break code up to heap MAX_HEAP "
        "until the octal periodicity theorem proves a period, check the certificate "
        "again by a second computation, and print it.",
    )
    period_cmd.add_argument("code", metavar="CODE", help="a take-and-break code, e.g. 0.354")
    period_cmd.add_argument(
        "--max-heap",
        type=_whole(0, _MOST_VALUES - 1, "a heap"),
        default=None,
        metavar="N",
        help="compute up to this heap",
    )
    period_cmd.add_argument("--json", action="store_true", help="print the certificate as JSON")
    period_cmd.add_argument(
        "--no-verify", action="store_true", help="skip the second computation that checks it"
    )
    _add_progress(period_cmd)

    octal_cmd = commands.add_parser(
        "octal-classes",
        help="the octal codes with up to N digits in classes of equal Grundy sequences",
        description="Print, as a Markdown table, every octal code 0.d1..dk and 4.d1..dk "
        "with k <= DIGITS in classes of equal Grundy sequences up to a shift (Czajka's "
        "GameLookup.md and TrivialGames.md): each class's representative, its period "
        "when one is proven within 1000 heaps, and its members with their offsets.",
    )
    octal_cmd.add_argument(
        "--digits", type=_whole(1, 4, "a count of digits"), default=3, metavar="N"
    )

    table_cmd = commands.add_parser(
        "misere-table",
        help="the misère quotient of every octal code with up to N digits, as CSV",
        description="Compute the misère quotient of every octal code 0.d1..dk with "
        "k <= DIGITS up to heap MAX_HEAP (stopping once proven periodic) and write one "
        "CSV row per code: its order, P-portion size, the heap where it last grew, the "
        "period when proven, and its status (stable from heap H, not stable by heap N, "
        "or too large at heap H: a candidate past MAX_ELEMENTS). With -o the file is "
        "rewritten after each code and a run stopped at any point resumes from it.",
    )
    table_cmd.add_argument(
        "--digits", type=_whole(1, 4, "a count of digits"), default=2, metavar="N"
    )
    table_cmd.add_argument(
        "--max-heap", type=_whole(0, 10**6, "a heap size"), default=300, metavar="N"
    )
    table_cmd.add_argument(
        "--max-elements",
        type=_whole(1, 2**28, "a count of elements"),
        default=4096,
        metavar="N",
        help="give up on a code whose candidates have more elements (default 4096)",
    )
    table_cmd.add_argument(
        "-o", "--output", metavar="FILE", help="the CSV file (resumed if it exists)"
    )
    _add_progress(table_cmd)
    _boards.add_commands(commands, _whole)
    return parser


def _add_max_positions(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--max-positions",
        type=_whole(0, _U64, "a limit"),
        default=DEFAULT_MAX_POSITIONS,
        metavar="N",
        help="rules with no closed form are searched; refuse a search of more than N "
        f"positions (default {DEFAULT_MAX_POSITIONS})",
    )


def _add_progress(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--progress",
        action="store_true",
        help="show a progress bar (needs the 'progress' extra)",
    )


def _grundy(args: argparse.Namespace) -> int:
    from .._classify import STDIO, npy_output, text_output
    from .._core import TakeAndBreak

    if len(args.code) > 1 and not (args.statistics and args.checkpoint is None):
        raise SystemExit("nimkit grundy: one code at a time, unless --statistics")
    rule = TakeAndBreak(args.code[0])
    if args.checkpoint is not None:
        from ..sequence_checkpoint import read, run

        run(rule, args.count, args.progress, args.checkpoint, args.every)
        if args.output is None and not args.statistics:
            meta = read(args.checkpoint)
            print(
                f"{meta['count']} values of {meta['code']} in {args.checkpoint}, "
                f"sha256 {meta['sha256']}"
            )
            return 0
    if args.statistics:
        return _statistics(args, rule)
    values = rule.grundy_sequence(args.count, args.progress)
    if args.output is None or args.output == STDIO:
        sys.stdout.write("".join(f"{v}\n" for v in values.tolist()))
    elif args.output.suffix != ".npy":
        with text_output(args.output) as stream:
            stream.write("".join(f"{v}\n" for v in values.tolist()))
    else:
        with npy_output(args.output, values.dtype, len(values)) as out:
            out[:] = values
    return 0


def _octal_classes(digits: int) -> int:
    from ..octal import octal_equivalences

    print("| game | preperiod | period | values | members (offset) |")
    print("|---|---:|---:|---|---|")
    for c in octal_equivalences(digits):
        members = ", ".join(f"{code} ({offset})" for code, offset in c.members.items())
        pre, period = ("", "") if c.period is None else (c.preperiod, c.period)
        print(f"| {c.representative} | {pre} | {period} | {c.pattern or ''} | {members} |")
    return 0


def _misere_table(args: argparse.Namespace) -> int:
    from ..misere_codes import misere_table, write_csv

    rows = misere_table(
        args.digits, args.max_heap, args.max_elements, path=args.output, progress=args.progress
    )
    if args.output is None:
        write_csv(rows, sys.stdout, args.max_heap, args.max_elements)
    else:
        stable = sum(r.stable for r in rows)
        print(f"{len(rows)} codes, {stable} stable: {args.output}")
    return 0


def _statistics(args: argparse.Namespace, first: TakeAndBreak) -> int:
    from .._core import TakeAndBreak

    print("| game | n | largest at | largest | mask | rare heaps | last rare |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rules = [first, *(TakeAndBreak(code) for code in args.code[1:])]
    for code, rule in zip(args.code, rules, strict=True):
        s = rule.statistics(args.count, args.progress)
        if s["mask"] is None:
            sparse = "| - | - | -"
        else:
            parity = " (heap parity)" if s["heap_parity"] else ""
            sparse = f"| {s['mask']:x}{parity} | {s['rare']} | {s['last_rare']}"
        print(
            f"| {code} | {_power(args.count)} | {s['largest_at']} | {s['largest']} {sparse} |",
            flush=True,
        )
    return 0


def _period(args: argparse.Namespace) -> int:
    from .._core import TakeAndBreak
    from ..certificate import verify_certificate

    cert = TakeAndBreak(args.code).certificate(args.max_heap, args.progress)
    if not args.no_verify:
        verify_certificate(cert, progress=args.progress)
    if args.json:
        print(json.dumps({**cert.to_dict(), "verified": not args.no_verify}, indent=2))
    else:
        print(cert)
        if not args.no_verify:
            print("verified        by a second computation from nothing")
    return 0


def _variants() -> list[str]:
    from ..presets import VARIANTS

    return list(VARIANTS)


def _opponent(text: str) -> tuple[str, float]:
    kind, _, rate = text.partition(":")
    if kind in {"perfect", "random"} and not rate:
        return kind, 0.0
    if kind == "fallible":
        try:
            return kind, float(rate or 0.2)
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(
        f"the opponent is perfect, random or fallible:RATE, not {text!r}"
    )


def _play(args: argparse.Namespace, rules: Rules) -> int:
    from .._terminal import play
    from ..playing import ComputerPlayer
    from ..position import Position
    from ..presets import CLASSIC, Variant, variant

    kind, rate = args.opponent
    opponent = ComputerPlayer(kind, rate, args.seed)
    human_first = {"first": True, "second": False, "choose": None}[args.order or "first"]
    if args.sum is not None:
        return _play_sum(args, opponent, human_first)
    if args.heaps is not None:
        chosen = Variant("custom", "your own heaps", Position(args.heaps), rules)
    else:
        chosen = variant(args.variant or CLASSIC.name)
        own = (args.max_take, args.take, args.code)
        if args.misere or any(rule is not None for rule in own):
            misere = args.misere or chosen.rules.misere
            if all(rule is None for rule in own):
                old = chosen.rules
                changed = Rules(misere, old.max_take, old.take, old.code)
            else:
                changed = Rules(misere, args.max_take, args.take, args.code)
            chosen = Variant(chosen.name, chosen.description, chosen.position, changed)
    try:
        play(chosen, opponent, human_first, max_positions=args.max_positions)
    except (EOFError, KeyboardInterrupt):
        print("\nGoodbye.")
    return 0


def _play_sum(args: argparse.Namespace, opponent: ComputerPlayer, human_first: bool | None) -> int:
    """``nimkit play --sum``: any sum, its options numbered."""
    from .._terminal import play_game

    if any(getattr(args, name) is not None for name in ("max_take", "take", "code")):
        raise ValueError("give each part's rule in --sum (e.g. code=0.77:5,3), not as a flag")
    try:
        game = Sum(*args.sum)
        play_game(game, opponent, human_first, args.misere, max_positions=args.max_positions)
    except (EOFError, KeyboardInterrupt):
        print("\nGoodbye.")
    return 0


def _rules(args: argparse.Namespace) -> Rules:
    """The rules the flags give; a flag's own mistake is named by the flag."""
    given = {"max_take": args.max_take, "take": args.take, "code": args.code}
    named = [_FLAGS[name] for name, value in given.items() if value is not None]
    if len(named) > 1:
        raise ValueError(f"give one of --max-take, --take and --code, not {' and '.join(named)}")
    for name, value in given.items():
        if value is not None:
            try:
                Rules(**{name: value})
            except (ValueError, TypeError) as err:
                message = _in_flags(str(err))
                if _FLAGS[name] not in message:
                    message = f"{_FLAGS[name]}: {message}"
                raise type(err)(message) from None
    return Rules(misere=args.misere, **given)


def _in_flags(message: str) -> str:
    """An error message with the Python parameters it names written as flags."""
    # Not where the name is a keyword argument of a Python call (`period(max_heap=...)`).
    named = r"\b(max_take|max_positions|max_heap|max_memory)\b(?!=)"
    return re.sub(named, lambda m: _FLAGS[m.group(1)], message)


def _run(args: argparse.Namespace) -> int:
    if args.command in _boards.COMMANDS:
        return _boards.run(args)
    if args.command == "grundy":
        return _grundy(args)
    if args.command == "octal-classes":
        return _octal_classes(args.digits)
    if args.command == "misere-table":
        return _misere_table(args)
    if args.command == "period":
        return _period(args)
    rules = _rules(args)
    if args.command == "play":
        return _play(args, rules)
    if args.command in ("analyse", "analyze") and args.sum is not None:
        return _analyse_sum(args)
    if args.command in ("analyse", "analyze") and not args.heaps:
        raise ValueError("give the heaps (e.g. nimkit analyse 3 4 5), or --sum")
    if args.command == "classify":
        from .._classify import classify_file

        classify_file(
            args.input,
            args.output,
            rules,
            args.what,
            args.chunk,
            progress=args.progress,
            max_positions=args.max_positions,
        )
        return 0
    if args.outcome:
        from ..position import Position

        print(Position(args.heaps).outcome(rules, args.max_positions))
        return 0
    analysis = analyse(args.heaps, rules, args.max_positions)
    if args.json:
        print(json.dumps(analysis.to_dict(), indent=2, ensure_ascii=False))
        return 0
    print(analysis)
    if not args.brief:
        from ..explain import explain

        # The teacher's reasoning (its table is the report's own).
        blocks = explain(analysis).blocks[1:]
        print()
        print("\n\n".join(textwrap.fill(text) for kind, text in blocks if kind == "p"))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if unknown:
        # As the command's own parser would say it (argparse says it as "nimkit").
        extra = " ".join(unknown)
        parser.exit(2, f"nimkit {args.command}: error: unrecognized arguments: {extra}\n")
    try:
        status = _run(args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        # Ctrl-C: what a long search saved (--checkpoint) is kept; no traceback.
        print(f"nimkit {args.command}: interrupted", file=sys.stderr)
        saved = getattr(args, "checkpoint", None)
        if saved is not None:
            print(
                f"What the search learned is saved in {saved}: the same command "
                "goes on from there.",
                file=sys.stderr,
            )
        return 128 + signal.SIGINT
    except BrokenPipeError:
        # The reader went away (`nimkit classify big.npy | head`): stop quietly, as a
        # process killed by SIGPIPE would. Output still buffered would fail again at
        # exit, so stdout goes to /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except (ValueError, TypeError, OverflowError, OSError, ImportError, MemoryError) as err:
        # Named as argparse names its own errors: by the command that was run.
        parser.exit(2, f"nimkit {args.command}: error: {_in_flags(str(err))}\n")
