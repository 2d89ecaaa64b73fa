"""A small NTLM-protected HTTP/1.1 server for the network authentication tests (Tests/NetworkAuthFixture).

Debian's gss-ntlmssp behind mod_auth_gssapi accepts NTLM only inside SPNEGO ("Negotiate"); libcurl's NTLM
scheme sends raw "Authorization: NTLM" tokens, which it refuses. pyspnego's NTLM acceptor takes them.

Usage: ntlm_server.py PORT USER_FILE DOCUMENT_ROOT [UPSTREAM_ORIGIN PATH[,PATH...]]
USER_FILE holds DOMAIN:USER:PASSWORD lines (read through NTLM_USER_FILE). Once the connection has
authenticated, a GET under one of the PATHs is proxied to the same path and query on UPSTREAM_ORIGIN (with this
request's Host, without its Authorization); any other GET answers the file below DOCUMENT_ROOT. NTLM
authenticates the connection: the two legs must share it, so the server keeps connections alive (HTTP/1.1).
"""
import base64
import http.server
import os
import sys
import urllib.error
import urllib.request

import spnego


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        sys.stderr.write("%s\n" % (format % args))

    def send_text(self, status, body, headers=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if not getattr(self, "authenticated", False):
            header = self.headers.get("Authorization", "")
            if not header.startswith("NTLM "):
                self.context = None
                return self.send_text(401, "NTLM required\n", [("WWW-Authenticate", "NTLM")])
            if getattr(self, "context", None) is None:
                self.context = spnego.server(protocol="ntlm")
            try:
                answer = self.context.step(base64.b64decode(header[5:]))
            except Exception as error:  # a wrong password lands here
                self.context = None
                return self.send_text(401, "NTLM failed: %s\n" % type(error).__name__, [("WWW-Authenticate", "NTLM")])
            if not self.context.complete:
                token = base64.b64encode(answer or b"").decode()
                return self.send_text(401, "", [("WWW-Authenticate", "NTLM " + token)])
            self.authenticated = True
            self.user = self.context.client_principal
        self.serve()

    def serve(self):
        upstream, paths = (sys.argv[4], sys.argv[5].split(",")) if len(sys.argv) > 5 else (None, [])
        if any(self.path.startswith(prefix) for prefix in paths):
            request = urllib.request.Request(upstream + self.path, headers={"Host": self.headers.get("Host", "")})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    body, status, kind = response.read(), response.status, response.headers.get("Content-Type", "application/octet-stream")
            except urllib.error.HTTPError as error:
                body, status, kind = error.read(), error.code, error.headers.get("Content-Type", "text/plain")
            return self.send_text(status, body, [("Content-Type", kind)])
        path = os.path.normpath(os.path.join(sys.argv[3], self.path.split("?")[0].lstrip("/")))
        if not path.startswith(os.path.normpath(sys.argv[3]) + "/") or not os.path.isfile(path):
            return self.send_text(404, "not found\n")
        with open(path, "rb") as file:
            self.send_text(200, file.read(), [("Content-Type", "text/plain"), ("X-NTLM-User", str(self.user))])


def main():
    os.environ["NTLM_USER_FILE"] = sys.argv[2]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
