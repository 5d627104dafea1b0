"""An OpenID provider made of idpyoidc's server library, served over HTTP on 127.0.0.1 for the
interop tests. idpyoidc is a library, not a server: this file only maps HTTP requests onto its
endpoints (parse_request, process_request, do_response) and back. Everything a test checks --
DPoP proofs, pushed requests, PKCE, client authentication, tokens -- is idpyoidc's own code.

Usage: provider.py PORT WORKDIR USER, with the native client's INTEROP_IDPY_CLIENT_ID and
INTEROP_IDPY_REDIRECT_URI in the environment, the web client's origin in INTEROP_IDPY_WEB_ORIGIN,
and the clients' secret in the file (mode 0600) INTEROP_IDPY_CLIENT_SECRET_FILE names: neither on
the command line nor in an environment, where other processes could read it. USER is signed in
without a login page (idpyoidc's NoAuthn) and is the `sub`. It writes nothing secret to its log;
it stops on SIGTERM.

The web client (`interop-web`) is registered for back-channel logout at its origin's
/backchannel-logout. /logout stands for the provider's own "log out" page: for the session the
browser's cookie names it calls idpyoidc's logout, as idpyoidc's example web application does once
the user confirmed, and idpyoidc makes the logout token and POSTs it.
"""
import http.server
import json
import logging
import os
import signal
import sys
import threading
import traceback
from urllib.parse import parse_qsl, urlsplit

from idpyoidc.message.oauth2 import ResponseMessage
from idpyoidc.message.oidc import AccessTokenRequest
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.oidc.token import Token

PORT, WORKDIR, USER = sys.argv[1:4]
CLIENT_ID = os.environ["INTEROP_IDPY_CLIENT_ID"]
with open(os.environ["INTEROP_IDPY_CLIENT_SECRET_FILE"], encoding="utf-8") as secret_file:
    CLIENT_SECRET = secret_file.read().strip()
REDIRECT_URI = os.environ["INTEROP_IDPY_REDIRECT_URI"]
WEB_ORIGIN = os.environ["INTEROP_IDPY_WEB_ORIGIN"]
ISSUER = f"http://127.0.0.1:{PORT}"

KEY_DEFS = [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}]


def configuration():
    return {
        "issuer": ISSUER,
        # How idpyoidc POSTs logout tokens; bounded, so a client that never answers cannot hold the provider.
        "httpc_params": {"verify": False, "timeout": 10},
        "keys": {"private_path": os.path.join(WORKDIR, "jwks.json"), "key_defs": KEY_DEFS,
                 "uri_path": "jwks.json", "read_only": False},
        "token_handler_args": {
            "jwks_def": {"private_path": os.path.join(WORKDIR, "token_jwks.json"), "read_only": False,
                         "key_defs": [{"type": "OCT", "bytes": 24, "use": ["enc"], "kid": "code"}]},
            "code": {"kwargs": {"lifetime": 600}},
            "token": {"class": "idpyoidc.server.token.jwt_token.JWTToken",
                      "kwargs": {"lifetime": 3600, "aud": [ISSUER]}},
            "refresh": {"class": "idpyoidc.server.token.jwt_token.JWTToken",
                        "kwargs": {"lifetime": 86400, "aud": [ISSUER]}},
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "cookie_handler": {
            "class": "idpyoidc.server.cookie_handler.CookieHandler",
            "kwargs": {"keys": {"private_path": os.path.join(WORKDIR, "cookie_jwks.json"), "read_only": False,
                                "key_defs": [{"type": "OCT", "use": ["enc"], "kid": "enc"},
                                             {"type": "OCT", "use": ["sig"], "kid": "sig"}]}},
        },
        "endpoint": {
            "provider_config": {"path": ".well-known/openid-configuration",
                                "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration", "kwargs": {}},
            "authorization": {"path": "authorization", "class": "idpyoidc.server.oidc.authorization.Authorization",
                              "kwargs": {"response_types_supported": ["code"],
                                         "response_modes_supported": ["query"]}},
            "pushed_authorization": {"path": "par",
                                     "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                                     "kwargs": {"client_authn_method": ["client_secret_basic"]}},
            "token": {"path": "token", "class": "idpyoidc.server.oidc.token.Token",
                      "kwargs": {"client_authn_method": ["client_secret_basic"]}},
            "userinfo": {"path": "userinfo", "class": "idpyoidc.server.oidc.userinfo.UserInfo",
                         # The token's scheme decides (left open, "none" would match first).
                         "kwargs": {"client_authn_method": ["bearer_header", "dpop"]}},
            # (Its verification page, logout_verify_url, is not served: idpyoidc 5.0.0 refuses an
            # end-session request that carries client_id before sending the browser there.)
            "end_session": {"path": "session", "class": "idpyoidc.server.oidc.session.Session",
                            "kwargs": {"logout_verify_url": f"{ISSUER}/verify_logout", "post_logout_uri_path": "post_logout",
                                       "signing_alg": "ES256", "backchannel_logout_supported": True,
                                       "backchannel_logout_session_required": True}},
            "revocation": {"path": "revoke", "class": "idpyoidc.server.oauth2.token_revocation.TokenRevocation",
                           "kwargs": {"client_authn_method": ["client_secret_basic"]}},
        },
        "authentication": {
            "anon": {"acr": "urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified",
                     "class": "idpyoidc.server.user_authn.user.NoAuthn", "kwargs": {"user": USER}},
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo",
                     "kwargs": {"db": {USER: {"sub": USER, "name": "Diana Prince", "email": "diana@example.org",
                                              "email_verified": True}}}},
        "add_on": {
            "pkce": {"function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                     "kwargs": {"essential": True, "code_challenge_method": "S256"}},
            "dpop": {"function": "idpyoidc.server.oauth2.add_on.dpop.add_support",
                     "kwargs": {"dpop_signing_alg_values_supported": ["ES256"],
                                "dpop_endpoints": ["token", "userinfo"]}},
        },
        # `sub` is the user's name (idpyoidc's default is a salted hash), so a test can expect it.
        "session_params": {"sub_func": {"public": {"function": lambda uid, **_: uid}}},
        "template_dir": WORKDIR,
    }


server = Server(OPConfiguration(conf=configuration(), base_path=WORKDIR, domain="127.0.0.1", port=int(PORT)), cwd=WORKDIR)
server.context.cdb[CLIENT_ID] = {
    "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "redirect_uris": [(REDIRECT_URI, {})],
    "response_types_supported": ["code"], "token_endpoint_auth_method": "client_secret_basic",
    "grant_types_supported": ["authorization_code", "refresh_token"], "allowed_scopes": ["openid", "profile", "email", "offline_access"],
    "client_salt": "interop",
}
# A web application's registration: back-channel logout at its origin, sessions named by `sid`.
server.context.cdb["interop-web"] = {
    "client_id": "interop-web", "client_secret": CLIENT_SECRET, "redirect_uris": [(f"{WEB_ORIGIN}/callback", {})],
    "post_logout_redirect_uri": [(f"{WEB_ORIGIN}/signed-out", {})],
    "backchannel_logout_uri": f"{WEB_ORIGIN}/backchannel-logout", "backchannel_logout_session_required": True,
    "response_types_supported": ["code"], "token_endpoint_auth_method": "client_secret_basic",
    "grant_types_supported": ["authorization_code", "refresh_token"], "allowed_scopes": ["openid", "profile", "email"],
    "client_salt": "interop-web",
}
# idpyoidc 5.0.0's DPoP add-on puts dpop_signing_alg_values_supported into the metadata, but the
# server builds its metadata again after the add-ons ran and the entry is lost; put back what the
# add-on set up.
server.context.provider_info["dpop_signing_alg_values_supported"] = server.context.add_on["dpop"]["algs_supported"]
ROUTES = {"/" + endpoint.endpoint_path: endpoint for endpoint in server.endpoint.values()}
logger = logging.getLogger("interop-provider")
# Connections are served on threads (a client keeps its connection open between requests); the
# provider's state is touched by one request at a time.
PROVIDER_LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # the request line only: the query may hold a code
        logger.info("%s %s", self.command, urlsplit(self.path).path)

    def do_GET(self):
        if self.path == "/jwks.json":
            # Outside the lock: a client checking a logout token fetches the keys while a logout
            # under the lock waits for that client's answer.
            return self.reply(200, json.dumps(server.context.keyjar.export_jwks()), [("Content-Type", "application/json")])
        with PROVIDER_LOCK:
            self.serve()

    def do_POST(self):
        with PROVIDER_LOCK:
            self.serve()

    def reply(self, status, body=b"", headers=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, error, description):
        body = ResponseMessage(error=error, error_description=description).to_json()
        self.reply(status, body, [("Content-Type", "application/json")])

    def cookies(self):
        """The request's cookies as idpyoidc takes them."""
        pairs = [part.strip().split("=", 1) for part in (self.headers.get("Cookie") or "").split(";") if "=" in part]
        return [{"name": name, "value": value} for name, value in pairs]

    def set_cookies(self, cookies):
        return [("Set-Cookie", f"{cookie['name']}={cookie['value']}; Path=/; HttpOnly") for cookie in cookies or []]

    def serve(self):
        url = urlsplit(self.path)
        endpoint = ROUTES.get(url.path)
        if url.path == "/logout":
            found = server.context.cookie_handler.parse_cookie(server.context.cookie_handler.name["session"], self.cookies())
            if not found:
                return self.error(400, "invalid_request", "no provider session")
            # The session the cookie names, at its client. (With alla=True idpyoidc 5.0.0 sends
            # each client one token, for the user's first session there, not this one.)
            ROUTES["/session"].do_verified_logout(sid=json.loads(found[0]["value"])["sid"], alla=False)
            return self.reply(200, "logged out", [("Content-Type", "text/plain")])
        if endpoint is None:
            return self.reply(404)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        http_info = {"headers": {name.lower(): value for name, value in self.headers.items()},
                     "method": self.command, "url": ISSUER + self.path, "cookie": self.cookies()}
        try:
            arguments = dict(parse_qsl(url.query)) if self.command == "GET" else body
            request = endpoint.parse_request(arguments, http_info=http_info)
        except Exception as failure:
            logger.info("%s refused: %s", endpoint.name, "".join(traceback.format_exception(failure)))
            return self.error(400, "invalid_request", str(failure))
        if isinstance(request, ResponseMessage) and "error" in request:
            logger.info("%s refused: %s %s", endpoint.name, request.get("error"), request.get("error_description"))
            return self.reply(400, request.to_json(), [("Content-Type", "application/json")])
        try:
            if isinstance(endpoint, Token):
                request = AccessTokenRequest(**request)
            result = endpoint.process_request(request, http_info=http_info)
        except Exception as failure:
            logger.info("%s failed: %s", endpoint.name, "".join(traceback.format_exception_only(failure)).strip())
            return self.error(400, "invalid_request", str(failure))
        if "redirect_location" in result:
            return self.reply(302, headers=[("Location", result["redirect_location"])])
        if "http_response" in result:
            # idpyoidc leaves the status to the web layer; RFC 9126 §2.2 answers a push with 201.
            return self.reply(201 if endpoint.name == "pushed_authorization" else 200,
                              json.dumps(result["http_response"]), [("Content-Type", "application/json")])
        info = endpoint.do_response(request=request, **result)
        placement = info.get("response_placement", endpoint.response_placement)
        if placement == "url":
            return self.reply(302, headers=[("Location", info["response"])] + list(info.get("http_headers", []))
                              + self.set_cookies(info.get("cookie")))
        headers = [(name, value) for name, value in info.get("http_headers", []) if name.lower() != "content-length"]
        self.reply(info.get("response_code", 200), info["response"], headers)


def stop(*_):
    raise KeyboardInterrupt


def main():
    # idpyoidc logs whole requests (headers with credentials) at INFO: only its warnings are kept.
    logging.basicConfig(filename=os.path.join(WORKDIR, "provider.log"), level=logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logger.setLevel(logging.INFO)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", int(PORT)), Handler)
    signal.signal(signal.SIGTERM, stop)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
