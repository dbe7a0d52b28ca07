"""Does a knob of a trained planner pay against a rollout baseline? Two variants of one
checkpoint's planner (``--variant LABEL=k=v[,k=v...]``, on top of its recorded settings),
each in seat 0 against ``--baseline`` in the others, on the same deals at equal time per
move: the run's final checks (`isz.training.checks`) at any size. Prints each match and
the paired difference over deals (first variant minus second, in the game's returns);
writes both results and the difference as JSON.

    python -m research.paired_vs runs/leduc/checkpoints/last.pt --game leduc_poker \\
        --variant values=value_mix=0.25 --variant none=value_mix=0 --baseline so_ismcts \\
        --time 0.01 --deals 1000 --seed 125 --output leduc_values_paired.json
"""

from __future__ import annotations

import argparse
from pathlib import Path

from isz.cli import key_values
from isz.evaluation.arena import play_match
from isz.evaluation.pool import LocalPool
from isz.evaluation.scoring import mean_and_se
from isz.evaluation.spec import MatchSpec, build_game
from isz.fs import write_json_atomic
from research.head_to_head import match_args, seat


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--variant", action="append", required=True, metavar="LABEL=k=v[,k=v]")
    ap.add_argument("--baseline", default="so_ismcts", metavar="NAME[,k=v]")
    match_args(ap, time=0.01, deals=1000)
    a = ap.parse_args(argv)
    if len(a.variant) != 2:
        ap.error(f"--variant must be given twice (the two sides of the difference), got "
                 f"{len(a.variant)}")
    params = key_values(a.game_param, "--game-param")
    base = seat(a.baseline, a.time, False)
    out: dict = {"checkpoint": a.checkpoint, "time": a.time, "seed": a.seed,
                 "deals": a.deals, "baseline": a.baseline, "game_params": params}
    others = build_game(MatchSpec(a.game, (base,), 1, a.seed, params,
                                  a.game_module)).num_players - 1
    returns = []
    for text in a.variant:
        label, _, knobs = text.partition("=")
        me = seat(f"{label}={a.checkpoint},{knobs}", a.time, True)
        spec = MatchSpec(a.game, (me, *[base] * others), a.deals, a.seed, params,
                         a.game_module)
        res = play_match(spec, LocalPool(a.workers))
        print(f"{label}:\n{res.table()}")
        returns.append(res.deal_utilities[:, 0])
        out[label] = {"knobs": me.knobs, "result": res.to_dict()}
    m, se = mean_and_se((returns[0] - returns[1])[:, None])
    out["diff"], out["se"] = float(m[0]), float(se[0])
    print(f"{a.variant[0]} minus {a.variant[1]}: {out['diff']:+.4f} ± {out['se']:.4f} "
          f"in returns a deal, paired over {a.deals} deals")
    write_json_atomic(Path(a.output), out)
    return out


if __name__ == "__main__":
    main()
