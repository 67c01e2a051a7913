#!/usr/bin/env python3
"""Starts and stops a real shared-cache server on loopback for the tests.

    cache_server.py start --kind=redis|http --dir=DIR [--password=P]
    cache_server.py run --dir=DIR -- COMMAND...   ({url} and {port} replaced)
    cache_server.py stats --dir=DIR               (what the server was asked)
    cache_server.py corrupt --dir=DIR             (every entry made garbage)
    cache_server.py stop --dir=DIR

`start` runs redis-server, or nginx with its WebDAV module taking PUT, on a
free loopback port under a watchdog that stops it after --lifetime seconds
even when the test never reaches `stop`, and returns once it answers. nginx
serves DIR/data; a PUT under /full answers 507 (Insufficient Storage), as a
server whose disk is full does.

`stats` prints `PUT N` and `GET <hits> <misses>`: for nginx from its access
log, for Redis from INFO. Exits 2 on a usage error, 1 when the server does
not start.
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

NGINX_CONF = """daemon off;
master_process off;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 64; }}
http {{
  access_log {dir}/access.log;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {dir}/data;
    client_max_body_size 64m;
    location /full/ {{
      if ($request_method = PUT) {{ return 507; }}
    }}
    location / {{
      dav_methods PUT;
      create_full_put_path on;
    }}
  }}
}}
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def read(directory, name):
    with open(os.path.join(directory, name)) as f:
        return f.read().strip()


def server_command(kind, directory, port, password):
    if kind == "redis":
        redis = shutil.which("redis-server") or "/usr/sbin/redis-server"
        command = [redis, "--port", str(port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", directory,
                   "--protected-mode", "no", "--daemonize", "no",
                   "--logfile", os.path.join(directory, "redis.log")]
        if password:
            command += ["--requirepass", password]
        return command
    os.makedirs(os.path.join(directory, "data"), exist_ok=True)
    conf = os.path.join(directory, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONF.format(dir=directory, port=port))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    return [nginx, "-p", directory, "-c", conf, "-e",
            os.path.join(directory, "error.log")]


def watch(args):
    """The watchdog: runs the server until --lifetime or a signal."""
    server = subprocess.Popen(
        server_command(args.kind, args.dir, args.port, args.password),
        stdout=subprocess.DEVNULL, stderr=open(
            os.path.join(args.dir, "server.err"), "w"))
    with open(os.path.join(args.dir, "server.pid"), "w") as f:
        f.write(str(server.pid))
    signal.signal(signal.SIGTERM, lambda *_: (server.kill(), sys.exit(0)))
    try:
        server.wait(timeout=args.lifetime)
    except subprocess.TimeoutExpired:
        server.kill()


def stop(args):
    for name in ["watchdog.pid", "server.pid"]:
        try:
            os.kill(int(read(args.dir, name)), signal.SIGKILL)
        except (OSError, ValueError):
            pass
        try:
            os.remove(os.path.join(args.dir, name))
        except OSError:
            pass


def start(args):
    stop(args)
    os.makedirs(args.dir, exist_ok=True)
    port = free_port()
    watchdog = subprocess.Popen(
        [sys.executable, __file__, "_watch", "--kind", args.kind, "--dir",
         args.dir, "--port", str(port), "--lifetime", str(args.lifetime)] +
        (["--password", args.password] if args.password else []),
        start_new_session=True, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(args.dir, "watchdog.pid"), "w") as f:
        f.write(str(watchdog.pid))
    deadline = time.time() + 20
    while not answers(port):
        if time.time() > deadline or watchdog.poll() is not None:
            stop(args)
            sys.stderr.write(f"cache_server: {args.kind} did not start; see "
                             f"{args.dir}/server.err\n")
            return 1
        time.sleep(0.05)
    scheme = "redis" if args.kind == "redis" else "http"
    with open(os.path.join(args.dir, "kind"), "w") as f:
        f.write(args.kind)
    with open(os.path.join(args.dir, "port"), "w") as f:
        f.write(str(port))
    with open(os.path.join(args.dir, "url"), "w") as f:
        f.write(f"{scheme}://127.0.0.1:{port}")
    return 0


class Redis:
    """A connection speaking RESP, enough for the tests' few commands."""

    def __init__(self, port, password):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.stream = self.socket.makefile("rwb")
        if password:
            self.command("AUTH", password)

    def command(self, *words):
        self.stream.write(b"*%d\r\n" % len(words))
        for word in words:
            data = word.encode()
            self.stream.write(b"$%d\r\n%s\r\n" % (len(data), data))
        self.stream.flush()
        return self.reply()

    def reply(self):
        line = self.stream.readline().rstrip(b"\r\n")
        kind, rest = line[:1], line[1:]
        if kind in (b"+", b"-", b":"):
            return rest.decode()
        if kind == b"$":
            size = int(rest)
            return None if size < 0 else \
                self.stream.read(size + 2)[:-2].decode(errors="replace")
        if kind == b"*":
            return [self.reply() for _ in range(int(rest))]
        raise RuntimeError(f"unexpected reply {line!r}")


def stats(args):
    kind = read(args.dir, "kind")
    if kind == "http":
        puts = hits = misses = 0
        with open(os.path.join(args.dir, "access.log")) as log:
            for line in log:
                request = line.split('"')[1].split() if '"' in line else []
                status = line.split('"')[2].split()[0] if '"' in line else ""
                if request and request[0] == "PUT" and status in ("201", "204"):
                    puts += 1
                elif request and request[0] == "GET":
                    hits += status == "200"
                    misses += status == "404"
    else:
        port, password = int(read(args.dir, "port")), args.password
        info = Redis(port, password).command("INFO", "all")
        fields = {}
        for line in info.splitlines():
            if ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value
        calls = lambda name: int(fields.get("cmdstat_" + name, "calls=0")
                                 .split(",")[0].split("=")[1])
        puts = calls("set")
        hits = int(fields.get("keyspace_hits", 0))
        misses = int(fields.get("keyspace_misses", 0))
    print(f"PUT {puts}")
    print(f"GET {hits} {misses}")
    return 0


def corrupt(args):
    kind = read(args.dir, "kind")
    count = 0
    if kind == "http":
        for root, _, files in os.walk(os.path.join(args.dir, "data")):
            for name in files:
                with open(os.path.join(root, name), "w") as f:
                    f.write('{"schema": 1, "depend')
                count += 1
    else:
        redis = Redis(int(read(args.dir, "port")), args.password)
        for database in range(16):
            redis.command("SELECT", str(database))
            for key in redis.command("KEYS", "gpuguard:*"):
                # Not SET, so that `stats` counts gpuguard's stores alone.
                redis.command("SETRANGE", key, "0", '{"schema": 1, "depend')
                count += 1
    print(f"corrupted {count} entries")
    return 0


def run(args):
    url, port = read(args.dir, "url"), read(args.dir, "port")
    command = [word.replace("{url}", url).replace("{port}", port)
               for word in args.command]
    return subprocess.call(command)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["start", "run", "stats", "corrupt",
                                           "stop", "_watch"])
    parser.add_argument("--kind", choices=["redis", "http"])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--password", default="")
    parser.add_argument("--port", type=int)
    parser.add_argument("--lifetime", type=int, default=300)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.command = argv[split + 1:]
    args.dir = os.path.abspath(args.dir)
    if args.action in ("start", "_watch") and not args.kind:
        parser.error("start needs --kind")
    return {"start": start, "run": run, "stats": stats, "corrupt": corrupt,
            "stop": lambda a: stop(a) or 0, "_watch": watch}[args.action](args)


if __name__ == "__main__":
    sys.exit(main() or 0)
