"""Notifications API routes under /api/."""

from django.urls import path

from notifications.api import views

urlpatterns = [
    path("notifications/", views.NotificationsView.as_view(), name="api-notifications"),
    path("notifications/read/", views.ReadView.as_view(), name="api-notifications-read"),
    path("notifications/settings/", views.SettingsView.as_view(),
         name="api-notification-settings"),
]
