"""A real OTLP/HTTP trace receiver for the worker's OTLP end-to-end test.

Listens on 127.0.0.1 (port 0: the kernel picks), prints `PORT` as its first line, then decodes every
`POST /v1/traces` body (application/x-protobuf, gzip accepted) as an ExportTraceServiceRequest with PyPI's
opentelemetry-proto and appends one JSON line per span to OUTPUT: ids in hex, kind as the proto enum's
number, attributes as plain values, the resource's service.name, and the request's path and content type.
Anything else is answered 404 (wrong path) or 400 (an undecodable body), and counted in the output too.
"""

import gzip
import http.server
import json
import os
import signal
import sys
import threading
import time

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    if kind is None:
        return None
    value = getattr(any_value, kind)
    if kind == "array_value":
        return [value_of(item) for item in value.values]
    if kind == "kvlist_value":
        return {item.key: value_of(item.value) for item in value.values}
    if kind == "bytes_value":
        return value.hex()
    return value


def main():
    output = sys.argv[1]
    last_post = [None]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            last_post[0] = time.monotonic()
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            if self.path != "/v1/traces":
                self.reply(404, b"")
                self.record({"error": "path", "path": self.path})
                return
            try:
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                request = ExportTraceServiceRequest()
                request.ParseFromString(body)
            except Exception as error:  # any undecodable body is the worker's defect, reported to the test
                self.reply(400, b"")
                self.record({"error": "decode", "message": str(error)})
                return
            lines = []
            for resource_spans in request.resource_spans:
                resource = {a.key: value_of(a.value) for a in resource_spans.resource.attributes}
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        lines.append({
                            "path": self.path,
                            "contentType": self.headers.get("Content-Type"),
                            "service": resource.get("service.name"),
                            "traceId": span.trace_id.hex(),
                            "spanId": span.span_id.hex(),
                            "parentSpanId": span.parent_span_id.hex(),
                            "name": span.name,
                            "kind": span.kind,
                            "status": span.status.code,
                            "attributes": {a.key: value_of(a.value) for a in span.attributes},
                        })
            self.reply(200, ExportTraceServiceResponse().SerializeToString())
            for line in lines:
                self.record(line)

        def reply(self, status, body):
            self.send_response(status)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def record(self, line):
            with open(output, "a", encoding="utf-8") as file:
                file.write(json.dumps(line) + "\n")

        def log_message(self, *arguments):
            pass

    # The test stops the receiver with SIGTERM: exit at once, whatever a handler thread is doing.
    # A test process may pass SIGTERM on ignored or blocked (signal handlers of its own): undo both.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    # SIGTERM did not end it when the test spawned it from a cooperative thread (SIGTERM blocked in the
    # inherited mask; CommandChild now spawns from a thread with an empty one). As a safety net it also ends
    # itself 60 s after the last export (or 10 minutes after its start).
    started = time.monotonic()

    def watchdog():
        while True:
            time.sleep(1)
            now = time.monotonic()
            if now - started > 600 or (last_post[0] is not None and now - last_post[0] > 60):
                os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
