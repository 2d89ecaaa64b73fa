"""An OTLP/HTTP sink for the worker benchmark's tracing side: answers every POST 200 with an empty
ExportTraceServiceResponse and counts requests and bytes, so the worker's exporter does its whole job
(encode, send, read the answer) while this process spends as little as it can. Prints the counts on SIGTERM.

    python otlp_sink.py --port 4318
"""
import argparse
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counts = {"requests": 0, "bytes": 0}


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        counts["requests"] += 1
        counts["bytes"] += length
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    server = ThreadingHTTPServer(("127.0.0.1", port), Sink)

    def stop(*_):
        print(f"otlp_sink: {counts['requests']} exports, {counts['bytes']} bytes", file=sys.stderr, flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()


if __name__ == "__main__":
    main()
