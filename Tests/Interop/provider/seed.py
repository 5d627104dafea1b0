"""Creates the interop users (a second one for the several-accounts test), two public clients and a
confidential one. Reads INTEROP_* variables (the secrets from the files they name); prints the
first user's id."""
import os
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interop_site.settings")
django.setup()

from django.contrib.auth.models import User  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402


def secret(variable):
    return Path(os.environ[variable]).read_text(encoding="utf-8").strip()


PASSWORD = secret("INTEROP_PASSWORD_FILE")

user, _ = User.objects.get_or_create(username=os.environ["INTEROP_USERNAME"])
user.set_password(PASSWORD)
user.email = "alice@example.com"
user.first_name = "Alice"
user.last_name = "Interop"
user.save()
# A second account, with the same password.
second, _ = User.objects.get_or_create(username=os.environ["INTEROP_SECOND_USERNAME"])
second.set_password(PASSWORD)
second.email = "bob@example.com"
second.save()

for client_id in ("interop-app", "interop-demo"):
    Application.objects.update_or_create(
        client_id=client_id,
        defaults={
            "name": client_id,
            "client_type": Application.CLIENT_PUBLIC,
            "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
            "redirect_uris": "http://127.0.0.1/callback com.example.interop:/callback",
            "post_logout_redirect_uris": "com.example.interop:/callback",
            "algorithm": Application.RS256_ALGORITHM,
            "skip_authorization": False,
            "client_secret": "",
        },
    )
# A confidential client, as a server-side relying party registers: its secret is stored hashed.
Application.objects.update_or_create(
    client_id=os.environ["INTEROP_CONFIDENTIAL_CLIENT_ID"],
    defaults={
        "name": "interop-confidential",
        "client_type": Application.CLIENT_CONFIDENTIAL,
        "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
        "redirect_uris": "http://127.0.0.1/callback com.example.interop:/callback",
        "algorithm": Application.RS256_ALGORITHM,
        "skip_authorization": False,
        "client_secret": secret("INTEROP_CLIENT_SECRET_FILE"),
    },
)
# A device (RFC 8628): a public client whose grant is the device code.
Application.objects.update_or_create(
    client_id="interop-device",
    defaults={
        "name": "interop-device",
        "client_type": Application.CLIENT_PUBLIC,
        "authorization_grant_type": Application.GRANT_DEVICE_CODE,
        "redirect_uris": "",
        "algorithm": Application.RS256_ALGORITHM,
        "skip_authorization": False,
        "client_secret": "",
    },
)
print(user.id)
