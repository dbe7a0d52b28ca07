"""Fit a model of an opponent to its moves (`isz.training.opponent_fit`).

    python scripts/fit_opponent.py runs/recon_hard/checkpoints/last.pt \\
        --opponent so_ismcts --knob time_budget=0.02 --output runs/recon_hard/so_model.pt

Same as the console command ``isz-fit-opponent``; ``--help`` lists the options. A planner
plays with the model as ``opponent_model=PATH`` (e.g. ``scripts/evaluate.py
knobs.planner.opponent_model=PATH``).
"""

import sys

from isz.training.opponent_fit import main

if __name__ == "__main__":
    sys.exit(main())
