import sys

from liverpool.cli import main

sys.exit(main())
