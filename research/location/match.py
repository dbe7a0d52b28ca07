"""`research.head_to_head` with ``located`` and ``sir_sharp`` registered (workers fork
after it).

    python -m research.location.match --game oh_hell --time 0.02 --deals 500 --seed 21 \\
        --planner 'p0=CKPT,belief={"name":"sir","plays":0}' \\
        --planner 'loc=CKPT,belief={"name":"located","weights":"W.npz","bids":true,"plays":0}' \\
        --baseline so_ismcts,belief=voids --output F.json
"""

from __future__ import annotations

from research.head_to_head import main
from research.location.belief import register

if __name__ == "__main__":
    register()
    main()
