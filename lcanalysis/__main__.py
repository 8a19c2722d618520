import sys

from lcanalysis.cli import main

sys.exit(main())
