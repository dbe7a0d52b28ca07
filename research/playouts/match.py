"""`research.head_to_head` with the ``tricks_greedy`` leaf registered, and with
``--learned WEIGHTS`` the ``tricks_learned`` one too (workers fork after it), so a
``so_ismcts`` seat or a planner can take ``leaf=...``.

    python -m research.playouts.match --game oh_hell --time 0.02 --deals 500 --seed 41 \\
        --baseline so_ismcts,belief=voids,leaf=tricks_greedy \\
        --baseline so_ismcts,belief=voids --output F.json
    python -m research.playouts.match --learned runs/playouts/weights.json ... \\
        --baseline so_ismcts,belief=voids,leaf=tricks_learned ...
"""

from __future__ import annotations

import argparse

from research.head_to_head import main
from research.playouts import greedy, learned

if __name__ == "__main__":
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--learned")
    known, rest = ap.parse_known_args()
    greedy.register()
    if known.learned:
        learned.register(known.learned)
    main(rest)
