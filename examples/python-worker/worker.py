#!/usr/bin/env python3
"""A Lineup worker in Python with the standard library only: a model for any language.

It long-polls the lease route, handles each job, and acks it with a result, or nacks it when the
handler raises. Every call is plain HTTP with a bearer token and a JSON body (docs/server.md).

    LINEUP_URL=http://127.0.0.1:7700 LINEUP_TOKEN=... python3 worker.py shop/thumbnails

Options: --max N stops after N jobs; --idle-exit S stops when no job came for S seconds.
"""

import argparse
import json
import os
import sys
import urllib.error
import urllib.request

URL = os.environ.get("LINEUP_URL", "http://127.0.0.1:7700").rstrip("/")
TOKEN = os.environ.get("LINEUP_TOKEN", "")


class LineupError(Exception):
    """An error answer: the HTTP status and the server's error code."""

    def __init__(self, status, body):
        self.status = status
        self.code = body.get("error")
        super().__init__(f"{status} {self.code}: {body.get('message')}")


def call(method, path, body=None, timeout=60):
    """Sends one request; answers the JSON body (None for 204), raises LineupError for an error."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(URL + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + TOKEN)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"message": raw.decode("utf-8", "replace")}
        raise LineupError(error.code, answer) from None


def handle(job):
    """The work for one job: here, count the words of its text. Raise to fail the attempt."""
    payload = job.get("payload")
    if not isinstance(payload, dict) or "text" not in payload:
        raise ValueError("the payload needs a text field")
    return {"words": len(payload["text"].split())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("queue", help="namespace/name, e.g. shop/thumbnails")
    parser.add_argument("--max", type=int, default=0, help="stop after this many jobs")
    parser.add_argument("--idle-exit", type=float, default=0, help="stop after this many idle seconds")
    parser.add_argument("--wait", type=float, default=20, help="longest wait of one lease, seconds")
    args = parser.parse_args()

    leases = f"/v1/queues/{args.queue}/leases"
    handled = 0
    while args.max == 0 or handled < args.max:
        wait_s = args.wait if args.idle_exit == 0 else min(args.wait, args.idle_exit)
        # A long-poll: answers as soon as a job is ready, or 204 (None) after wait_ms.
        answer = call("POST", leases, {"count": 1, "wait_ms": int(wait_s * 1000)}, timeout=wait_s + 30)
        if answer is None:
            if args.idle_exit:
                break
            continue
        for job in answer["jobs"]:
            job_path = f"/v1/queues/{job['queue']}/jobs/{job['id']}"
            try:
                result = handle(job)
            except Exception as error:  # the handler failed: the job is retried with backoff
                call("POST", job_path + "/nack", {"token": job["token"], "error": str(error)})
                print(f"failed {job['id']}: {error}", file=sys.stderr)
            else:
                call("POST", job_path + "/ack", {"token": job["token"], "result": result})
                print(f"done {job['id']}: {json.dumps(result)}")
            handled += 1
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
