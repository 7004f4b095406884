"""Account API routes under /api/."""

from django.urls import path

from accounts.api import views

urlpatterns = [
    path("auth/register/", views.RegisterView.as_view(), name="api-register"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("auth/tokens/", views.TokensView.as_view(), name="api-tokens"),
    path("auth/tokens/<str:token_id>/", views.TokenRevokeView.as_view(), name="api-token-revoke"),
    path("auth/password/", views.PasswordView.as_view(), name="api-password"),
    path("me/", views.MeView.as_view(), name="api-me"),
]
