"""Fit a checkpoint's playout to its planner's own moves (`isz.training.playout_fit`).

    python scripts/fit_playout.py runs/oh_hell/checkpoints/last.pt --games 600

Same as the console command ``isz-fit-playout``; ``--help`` lists the options.
"""

import sys

from isz.training.playout_fit import main

if __name__ == "__main__":
    sys.exit(main())
