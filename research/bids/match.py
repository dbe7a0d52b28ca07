"""`research.head_to_head` with ``bid_shift`` registered (workers fork after it).

    python -m research.bids.match --game oh_hell --time 0.02 --deals 500 --seed 31 \\
        --planner p0=CKPT --baseline bid_shift,checkpoint=CKPT,shift=1 \\
        --baseline so_ismcts,belief=voids --output F.json
"""

from __future__ import annotations

from research.bids.agents import register
from research.head_to_head import main

if __name__ == "__main__":
    register()
    main()
