"""A minimal django-oauth-toolkit OpenID provider for SessionService's interop tests.

Everything it writes (database, signing key) lives under $INTEROP_WORK; run-interop.sh makes
that directory, the key and the secret, and starts the server on 127.0.0.1 only.
"""
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent
WORK = Path(os.environ["INTEROP_WORK"])

# The key comes from a file only its owner reads (run-interop.sh), not from the environment.
SECRET_KEY = Path(os.environ["INTEROP_DJANGO_SECRET_FILE"]).read_text(encoding="utf-8").strip()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "interop_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
            ]
        },
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": WORK / "db.sqlite3"}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
STATIC_URL = "/static/"
LOGIN_URL = "/accounts/login/"
LOGGING = {"version": 1, "disable_existing_loggers": False}

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (WORK / "oidc-rsa.pem").read_text(),
    "PKCE_REQUIRED": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "SCOPES": {"openid": "Sign you in", "profile": "Your name", "email": "Your email address"},
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "com.example.interop"],
    "OAUTH2_VALIDATOR_CLASS": "interop_site.validators.InteropValidator",
    # Device sign-ins (RFC 8628): where the user enters the code, with and without it filled in.
    "OAUTH_DEVICE_VERIFICATION_URI": os.environ.get("INTEROP_BASE_URL", "") + "/o/device/",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": os.environ.get("INTEROP_BASE_URL", "") + "/o/device/?user_code={user_code}",
    "DEVICE_FLOW_INTERVAL": 1,
    # RP-initiated logout: discovery names the end_session_endpoint.
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
}
