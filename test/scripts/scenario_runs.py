"""Every scenario of a LibTorch scenario program, run once and kept.

A program of GPUGUARD_SCENARIOs (test/integration/torch/Inputs/
torch_scenarios.h) started with `--each DIR` runs each scenario in a child it
forks after LibTorch's start-up, which costs most of a run, and leaves each
child's output and exit status in DIR. The results are kept beside the binary
until it changes, so the tests that ask for one scenario at a time pay the
start-up once per program, not once per scenario.
"""

import os
import shutil
import subprocess

STAMP = ".binary"


def _identity(binary):
    info = os.stat(binary)
    return f"{info.st_mtime_ns} {info.st_size}\n"


def _read(path):
    with open(path, errors="replace") as text:
        return text.read()


class ScenarioRuns:
    """The runs of one binary under one GPUGUARD_OPTIONS value."""

    def __init__(self, binary, directory, options=None, merge=False,
                 timeout=1800):
        self.binary = binary
        self.directory = directory
        self.options = options
        self.merge = merge
        self.timeout = timeout

    def _fresh(self):
        stamp = os.path.join(self.directory, STAMP)
        return (os.path.exists(stamp) and
                _read(stamp) == _identity(self.binary))

    def _run_all(self):
        shutil.rmtree(self.directory, ignore_errors=True)
        os.makedirs(self.directory)
        env = dict(os.environ)
        env.pop("GPUGUARD_OPTIONS", None)
        if self.options:
            env["GPUGUARD_OPTIONS"] = self.options
        command = [self.binary, "--each", self.directory]
        if self.merge:
            command.append("--merge")
        ran = subprocess.run(command, capture_output=True, text=True,
                             errors="replace", env=env, timeout=self.timeout)
        if ran.returncode != 0:
            raise RuntimeError(f"{self.binary} --each failed with exit code "
                               f"{ran.returncode}: {ran.stderr.strip()}")
        with open(os.path.join(self.directory, STAMP), "w") as stamp:
            stamp.write(_identity(self.binary))

    def result(self, scenario):
        """(exit code, stdout, stderr) of SCENARIO, or None when the program
        has no such scenario; stderr is '' and within stdout when merged."""
        if not self._fresh():
            self._run_all()
        base = os.path.join(self.directory, scenario)
        if not os.path.exists(base + ".status"):
            return None
        code = int(_read(base + ".status").strip())
        err = "" if self.merge else _read(base + ".err")
        return code, _read(base + ".out"), err
