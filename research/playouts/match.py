"""`research.head_to_head` with the ``tricks_greedy`` leaf registered (workers fork after
it), so a ``so_ismcts`` seat can take ``leaf=tricks_greedy``.

    python -m research.playouts.match --game oh_hell --time 0.02 --deals 500 --seed 41 \\
        --baseline so_ismcts,belief=voids,leaf=tricks_greedy \\
        --baseline so_ismcts,belief=voids --output F.json
"""

from __future__ import annotations

from research.head_to_head import main
from research.playouts.greedy import register

if __name__ == "__main__":
    register()
    main()
