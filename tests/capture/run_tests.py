"""Runs one test module of the capture's tests, or exits 77 (ctest's SKIP_RETURN_CODE) with the
reason when torch cannot be imported, so that a machine without torch shows the tests skipped.

    /usr/bin/python3 tests/capture/run_tests.py test_fingerprint
"""

import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "python"))

try:
    import torch  # noqa: F401
except ImportError as e:
    print("SKIP: torch cannot be imported (%s): scripts/setup.sh installs python3-torch" % e)
    sys.exit(77)

if __name__ == "__main__":
    torch.set_num_threads(1)  # tiny tensors: threads cost more than they give on 2 cores
    names = sys.argv[1:] or [f[:-3] for f in sorted(os.listdir(here)) if f.startswith("test_")]
    suite = unittest.defaultTestLoader.loadTestsFromNames(names)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
