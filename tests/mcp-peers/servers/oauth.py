"""A Python `mcp` SDK (2.3.x) server over Streamable HTTP that is also its own OAuth 2.1
authorization server (the SDK's authorization-server routes: metadata, /authorize, /token,
/register, PKCE checked by the SDK), for the OAuth flow tests.

    PORT=8766 [ACCESS_TTL=3600] [CLIENT_ID=toolreg-test CALLBACK=http://127.0.0.1:N/callback]
    [DENY=1] python oauth.py

Serves http://127.0.0.1:$PORT/mcp, protected: without a valid access token, 401 with a
`WWW-Authenticate` challenge pointing to the protected-resource metadata. The issuer is
http://127.0.0.1:$PORT. Clients register dynamically, or use the pre-registered public
client CLIENT_ID with the redirect URI CALLBACK. /authorize approves at once (no user to ask)
and redirects with `code`, `state` and `iss`; with DENY=1 it redirects with
`error=access_denied`. Access tokens live ACCESS_TTL seconds; refresh tokens rotate. Every
token issued is logged to stderr as `issued <grant> <client_id>`.
"""

import os
import secrets
import sys
import time

import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(os.environ.get("PORT", "8766"))
ACCESS_TTL = int(os.environ.get("ACCESS_TTL", "3600"))
ISSUER = f"http://127.0.0.1:{PORT}"
DENY = os.environ.get("DENY") == "1"


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Provider:
    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        client_id = os.environ.get("CLIENT_ID")
        callback = os.environ.get("CALLBACK")
        if client_id and callback:
            self.clients[client_id] = OAuthClientInformationFull(
                client_id=client_id,
                redirect_uris=[callback],
                token_endpoint_auth_method="none",
                grant_types=["authorization_code", "refresh_token"],
                response_types=["code"],
            )

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        log(f"registered {client_info.client_id}")
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        if DENY:
            return construct_redirect_uri(
                str(params.redirect_uri), error="access_denied", state=params.state, iss=ISSUER
            )
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=ISSUER)

    async def load_authorization_code(self, client, code: str) -> AuthorizationCode | None:
        found = self.codes.get(code)
        return found if found and found.client_id == client.client_id else None

    def issue(self, grant: str, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access = secrets.token_urlsafe(32)
        refresh = secrets.token_urlsafe(32)
        self.access[access] = AccessToken(
            token=access,
            client_id=client_id,
            scopes=scopes,
            expires_at=int(time.time()) + ACCESS_TTL,
            resource=resource,
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource)
        log(f"issued {grant} {client_id}")
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=ACCESS_TTL,
            refresh_token=refresh,
            scope=" ".join(scopes) or None,
        )

    async def exchange_authorization_code(self, client, authorization_code: AuthorizationCode) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self.issue("authorization_code", client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client, refresh_token: str) -> RefreshToken | None:
        found = self.refresh.get(refresh_token)
        return found if found and found.client_id == client.client_id else None

    async def exchange_refresh_token(self, client, refresh_token: RefreshToken, scopes: list[str]) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        return self.issue("refresh_token", client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


server = MCPServer(
    "py-oauth",
    auth_server_provider=Provider(),
    auth=AuthSettings(
        issuer_url=ISSUER,
        resource_server_url=f"{ISSUER}/mcp",
        client_registration_options=ClientRegistrationOptions(enabled=True),
        validate_token_resource=False,
    ),
)


@server.tool()
def whoami() -> str:
    """The OAuth client the call's access token was issued to."""
    token = get_access_token()
    return token.client_id if token else "nobody"


app = server.streamable_http_app(stateless_http=True, host="127.0.0.1")

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning")
