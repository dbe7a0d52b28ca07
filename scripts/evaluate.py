"""Play agents against each other in the arena (the same as `isz-evaluate`).

Usage and keys: `isz.cli.evaluate`. This wrapper keeps ``python scripts/evaluate.py ...`` working
in a checkout; the logic lives in the package.
"""

from isz.cli.evaluate import main

if __name__ == "__main__":
    main()
