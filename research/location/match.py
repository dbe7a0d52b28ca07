"""`research.head_to_head` with the ``located`` belief registered (workers fork after it).

    python -m research.location.match --game oh_hell --time 0.02 --deals 500 --seed 21 \\
        --planner 'p0=CKPT,belief={"name":"sir","plays":0}' \\
        --planner 'loc=CKPT,belief={"name":"located","weights":"W.npz","bids":true,"plays":0}' \\
        --baseline so_ismcts,belief=voids --output F.json
"""

from __future__ import annotations

import research.location.belief  # noqa: F401  (registers 'located')
from research.head_to_head import main

if __name__ == "__main__":
    main()
