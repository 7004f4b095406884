"""Registration form: fields and their checks that need no database.

The username's availability and the password rules are checked by
`accounts.services.register_user`, the one sign-up path for the page and the API
(which hashes before it queries, see there); its field errors land on this form.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import PasswordChangeForm
from django.utils.translation import gettext_lazy as _

from accounts import credentials
from accounts.models import User
from bloqueio_site import limits


class RegisterForm(forms.Form):
    username = forms.CharField(
        max_length=User._meta.get_field("username").max_length, label=_("Username"),
        help_text=_("Letters, digits and @/./+/-/_ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    email = forms.EmailField(required=False, label=_("E-mail"),
                             help_text=_("Optional; only for password resets."))
    password1 = forms.CharField(
        label=_("Password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password confirmation"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Enter the same password as before, for verification."),
    )

    def clean_password2(self) -> str:
        first, second = self.cleaned_data.get("password1"), self.cleaned_data["password2"]
        if first and first != second:
            raise forms.ValidationError(_("The two password fields didn't match."),
                                        code="password_mismatch")
        return second

    def add_service_errors(self, errors: dict[str, list[str]]) -> None:
        """Field errors from `register_user`, on this form's fields."""
        for field, messages in errors.items():
            for message in messages:
                self.add_error("password1" if field == "password" else field, message)


class GuardedPasswordChangeForm(PasswordChangeForm):
    """Django's form, its old password checked by `credentials.verify_password`: wrong
    guesses are counted per account, as on the API (PASSWORD_GUESS_LIMIT)."""

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        try:
            right = credentials.verify_password(self.user, old_password)
        except limits.REFUSALS as exc:
            raise forms.ValidationError(exc.detail, code=exc.code) from None
        if not right:
            raise forms.ValidationError(self.error_messages["password_incorrect"],
                                        code="password_incorrect")
        return old_password
