from oauth2_provider.oauth2_validators import OAuth2Validator


class InteropValidator(OAuth2Validator):
    """Releases the user's name and email in the ID token and UserInfo."""

    oidc_claim_scope = None

    def get_additional_claims(self, request):
        user = request.user
        return {
            "email": user.email,
            "email_verified": True,
            "given_name": user.first_name,
            "family_name": user.last_name,
        }
