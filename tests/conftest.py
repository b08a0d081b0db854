import sys
from pathlib import Path

# Let tests import tests/helpers.py as a plain module.
sys.path.insert(0, str(Path(__file__).resolve().parent))
