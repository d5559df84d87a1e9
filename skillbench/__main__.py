import sys

from skillbench.cli import main

sys.exit(main())
