"""Account pages: register, log in/out, change password, API tokens, profiles."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("register/", views.register, name="register"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("tokens/", views.tokens, name="tokens"),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
