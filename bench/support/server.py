"""The site served by uvicorn for a benchmark that drives a browser against it."""

import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def start_uvicorn(env, port, *, seconds=30):
    """uvicorn on 127.0.0.1:``port`` with ``env``, once it accepts connections."""
    command = [
        sys.executable, "-m", "uvicorn", "clubsite.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--lifespan", "off",
        "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=BASE_DIR, env=env)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("uvicorn did not start")
