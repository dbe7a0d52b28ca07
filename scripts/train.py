"""Train a network by self-play through information-set search (the same as `isz-train`).

Usage and keys: `isz.cli.train`. This wrapper keeps ``python scripts/train.py ...`` working
in a checkout; the logic lives in the package.
"""

from isz.cli.train import main

if __name__ == "__main__":
    main()
