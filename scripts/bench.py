"""isz benchmarks as JSON lines (the same as `isz-bench`).

Usage and keys: `isz.cli.bench`. This wrapper keeps ``python scripts/bench.py ...`` working
in a checkout; the logic lives in the package.
"""

import sys

from isz.cli.bench import main

if __name__ == "__main__":
    sys.exit(main())
