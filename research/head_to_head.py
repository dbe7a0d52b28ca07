"""Do two trained checkpoints (two runs, or two generations) differ in strength at equal
time per move, at one table with rollout baselines?

Each ``--planner LABEL=PATH[,key=value...]`` seat is that checkpoint's planner with
its recorded settings and the given knobs on top (``agent=guided_so_ismcts``,
``belief=sir``, ``belief={"name":"sir","plays":0}``, ...: a value is read as JSON
where it parses); ``--baseline NAME[,key=value...]`` seats are registered agents.
Every seat gets ``--time`` seconds a decision. ``--game-param KEY=VALUE`` (repeatable)
overrides a parameter of the game (``--game recon --game-param slots=5 ...`` is
``recon_hard``), ``--game-module`` imports a game defined outside isz first. Prints the
match table and the paired differences; writes the JSON result (and resumes from its
journal if interrupted).

    python -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 \\
        --planner new=runs/oh_hell/checkpoints/last.pt \\
        --planner old=runs/old/checkpoints/last.pt,agent=guided_so_ismcts,belief=sir \\
        --baseline so_ismcts,belief=voids --output h2h.json
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from isz.cli import key_values
from isz.evaluation.arena import play_match
from isz.evaluation.journal import resumable
from isz.evaluation.pool import LocalPool
from isz.evaluation.spec import PLANNER, MatchSpec, SeatSpec
from isz.fs import write_json_atomic


def seat(text: str, time: float, planner: bool) -> SeatSpec:
    """A seat from ``LABEL=PATH,k=v,...`` (planner) or ``NAME,k=v,...`` (baseline)."""
    head, *rest = re.split(r",(?![^{\[]*[}\]])", text)  # commas outside {...} and [...]
    knobs = {"time_budget": time, "iterations": None, **key_values(rest, "a seat's knob")}
    if planner:
        label, _, path = head.partition("=")
        return SeatSpec(PLANNER, knobs, checkpoint=str(Path(path).resolve()), label=label)
    return SeatSpec(head, knobs)


def match_args(ap: argparse.ArgumentParser, time: float, deals: int) -> None:
    """The options of a match: ``--game``, ``--time`` (seconds a decision, default
    ``time``), ``--deals`` (default ``deals``), ``--seed``, ``--workers``,
    ``--game-param``, ``--game-module`` and ``--output``."""
    ap.add_argument("--game", required=True)
    ap.add_argument("--time", type=float, default=time)
    ap.add_argument("--deals", type=int, default=deals)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--game-param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--game-module", default=None)
    ap.add_argument("--output", required=True)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--planner", action="append", default=[], metavar="LABEL=PATH[,k=v]")
    ap.add_argument("--baseline", action="append", default=[], metavar="NAME[,k=v]")
    match_args(ap, time=0.02, deals=300)
    a = ap.parse_args(argv)
    seats = tuple([seat(p, a.time, True) for p in a.planner]
                  + [seat(b, a.time, False) for b in a.baseline])
    spec = MatchSpec(a.game, seats, a.deals, a.seed,
                     key_values(a.game_param, "--game-param"), a.game_module)
    with resumable(a.output, spec.key()) as journal:
        result = play_match(spec, LocalPool(a.workers), journal=journal)
        payload = {"seats": [s.__dict__ for s in seats], "time": a.time, "seed": a.seed,
                   "game_params": spec.game_params, "game_module": spec.game_module,
                   "result": result.to_dict()}
        write_json_atomic(Path(a.output), payload)
    print(result.table())
    return payload


if __name__ == "__main__":
    main()
