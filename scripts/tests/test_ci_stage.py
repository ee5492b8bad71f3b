"""Tests of scripts/ci-stage, the stages .ci/run and the workflow share: with-poi-server gives the command a running
server's URL, passes the command's status on, and leaves no server behind.

Run with: python3 -m unittest discover -s scripts/tests
"""

import subprocess
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
STAGE = ROOT / "scripts" / "ci-stage"


@unittest.skipUnless((ROOT / ".build" / "debug" / "poi-server").exists(), "poi-server is not built")
class WithPOIServerTests(unittest.TestCase):
    def test_the_command_reaches_the_server_and_its_status_is_the_stages(self):
        command = 'curl -s -o /dev/null -w "%{http_code}" "$POI_SERVER_URL/health"; echo " $POI_SERVER_URL"; exit 3'
        ran = subprocess.run([str(STAGE), "with-poi-server", "bash", "-c", command], capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(ran.returncode, 3, ran.stderr)
        code, url = ran.stdout.strip().splitlines()[-1].split()
        self.assertEqual(code, "200")
        with self.assertRaises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"{url}/health", timeout=2)  # stopped once the command ended

    def test_no_command_is_a_usage_error(self):
        ran = subprocess.run([str(STAGE), "with-poi-server"], capture_output=True, text=True, timeout=60)
        self.assertEqual(ran.returncode, 64)
        self.assertIn("usage", ran.stderr)


class UsageTests(unittest.TestCase):
    def test_an_unknown_stage_is_a_usage_error(self):
        ran = subprocess.run([str(STAGE), "lint-everything"], capture_output=True, text=True, timeout=60)
        self.assertEqual(ran.returncode, 64)
        self.assertIn("with-poi-server", ran.stderr)


if __name__ == "__main__":
    unittest.main()
