import sys

from liverpool.tools.cli import main

sys.exit(main())
