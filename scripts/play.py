"""Play against isz agents in the terminal (the same as `isz-play`).

Usage and keys: `isz.cli.play`. This wrapper keeps ``python scripts/play.py ...`` working
in a checkout; the logic lives in the package.
"""

from isz.cli.play import main

if __name__ == "__main__":
    main()
