"""`research.head_to_head` with the ``tricks_greedy`` leaf registered, and with
``--learned WEIGHTS`` the ``tricks_learned`` one too (workers fork after it), so a
``so_ismcts`` seat or a planner can take ``leaf=...``. ``--learned DIR`` (a directory of
`research.playouts.iterate`) registers its generations ``tricks_learned_g{g}``.

    python -m research.playouts.match --game oh_hell --time 0.02 --deals 500 --seed 41 \\
        --baseline so_ismcts,belief=voids,leaf=tricks_greedy \\
        --baseline so_ismcts,belief=voids --output F.json
    python -m research.playouts.match --learned runs/playouts/weights.json ... \\
        --baseline so_ismcts,belief=voids,leaf=tricks_learned ...
"""

from __future__ import annotations

import argparse
from pathlib import Path

from research.head_to_head import main
from research.playouts import greedy, iterate, learned

if __name__ == "__main__":
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--learned", action="append", default=[])
    known, rest = ap.parse_known_args()
    greedy.register()
    for path in known.learned:
        if Path(path).is_dir():
            iterate.register_dir(path)
        else:
            learned.register(path)
    main(rest)
