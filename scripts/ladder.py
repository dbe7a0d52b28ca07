"""Rate a training run's checkpoints at equal time per move (`isz.evaluation.ladder`).

    python scripts/ladder.py runs/tricks                    # 0.02 s a move, 100 deals
    python scripts/ladder.py runs/oh_hell --time 0.05 --deals 300 --workers 2

Same as the console command ``isz-ladder``; ``--help`` lists the options and the
layout of ``RUN_DIR/ladder/ladder.json``.
"""

import sys

from isz.evaluation.ladder import main

if __name__ == "__main__":
    sys.exit(main())
