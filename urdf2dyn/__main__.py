"""python -m urdf2dyn: the command line (see urdf2dyn.cli)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
