"""An MCP server protected by OAuth, built only from PyPI's `mcp` package: its authorization
server routes (RFC 8414 metadata, RFC 7591 registration, authorize, token, revoke) over a small
in-memory provider that approves every sign-in as one user, and a streamable HTTP MCP endpoint
at /mcp behind its bearer middleware (RFC 9728 metadata, tokens checked against the resource).

    server.py PORT

Listens on 127.0.0.1:PORT. Every token is bound to the `resource` the client asked for at the
authorization endpoint; a token request for another resource is refused. Refresh tokens rotate.
"""
import secrets
import sys
import time

import uvicorn
from mcp.server.auth.provider import (AccessToken, AuthorizationCode, AuthorizationParams, RefreshToken,
                                      construct_redirect_uri)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(sys.argv[1])
ISSUER = f"http://127.0.0.1:{PORT}"
RESOURCE = f"{ISSUER}/mcp"
SUBJECT = "mcp-user"
LIFETIME = 3600


class InMemoryProvider:
    """Approves every authorization as SUBJECT; keeps clients, codes and tokens in dictionaries."""

    def __init__(self):
        self.clients = {}
        self.codes = {}
        self.access = {}
        self.refresh = {}

    async def get_client(self, client_id):
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull):
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params: AuthorizationParams):
        code = secrets.token_urlsafe(24)
        self.codes[code] = AuthorizationCode(
            code=code, scopes=params.scopes or [], expires_at=time.time() + 300, client_id=client.client_id,
            code_challenge=params.code_challenge, redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly, resource=params.resource,
            subject=SUBJECT)
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client, authorization_code):
        code = self.codes.get(authorization_code)
        return code if code and code.client_id == client.client_id else None

    def _issue(self, client_id, scopes, resource):
        access = secrets.token_urlsafe(32)
        refresh = secrets.token_urlsafe(32)
        self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes, expires_at=int(time.time()) + LIFETIME,
                                          resource=resource, subject=SUBJECT)
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource, subject=SUBJECT)
        return OAuthToken(access_token=access, expires_in=LIFETIME, scope=" ".join(scopes), refresh_token=refresh)

    async def exchange_authorization_code(self, client, authorization_code):
        self.codes.pop(authorization_code.code, None)
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client, refresh_token):
        token = self.refresh.get(refresh_token)
        return token if token and token.client_id == client.client_id else None

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        # Rotation: the refresh token presented is spent.
        del self.refresh[refresh_token.token]
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token):
        found = self.access.get(token)
        return found if found and (found.expires_at or 0) > time.time() else None

    async def revoke_token(self, token):
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


server = MCPServer(
    name="interop",
    auth_server_provider=InMemoryProvider(),
    auth=AuthSettings(
        issuer_url=ISSUER,
        resource_server_url=RESOURCE,
        validate_token_resource=True,
        required_scopes=["mcp:tools"],
        client_registration_options=ClientRegistrationOptions(enabled=True, valid_scopes=["mcp:read", "mcp:tools"],
                                                              default_scopes=["mcp:read", "mcp:tools"]),
        revocation_options=RevocationOptions(enabled=True),
    ),
)


@server.tool()
def echo(text: str) -> str:
    """Returns its argument."""
    return text


uvicorn.run(server.streamable_http_app(json_response=True, stateless_http=True), host="127.0.0.1", port=PORT, log_level="warning")
