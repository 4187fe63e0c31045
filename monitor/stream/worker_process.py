"""``ragmon worker`` as a child process: used by the demo, the tests and the benchmark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from monitor.config import Settings
from monitor.stream.broker import die_with_parent

__all__ = ["settings_env", "start_worker", "stop_process"]


def settings_env(settings: Settings) -> dict[str, str]:
    """``MONITOR_*`` variables that reproduce ``settings`` in a child process."""
    env = {}
    data = settings.model_dump(mode="json")
    for name in type(settings).model_fields:
        value = getattr(settings, name)
        if value is None:
            continue
        if hasattr(value, "get_secret_value"):
            text = value.get_secret_value()
        elif isinstance(data[name], dict | list):
            text = json.dumps(data[name])  # complex settings are JSON in the environment
        else:
            text = str(data[name])
        env[f"MONITOR_{name.upper()}"] = text
    return env


def start_worker(settings: Settings, log_path: Path) -> subprocess.Popen[bytes]:
    """``ragmon worker`` as a child process configured by ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")}
    env |= settings_env(settings)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "monitor", "worker"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )


def stop_process(proc: subprocess.Popen[bytes], timeout_s: float = 20.0) -> int:
    """SIGTERM, then SIGKILL after ``timeout_s``; returns the exit code."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return int(proc.returncode)
