"""Notification pages under /notifications/."""

from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.notifications, name="notifications"),
    path("<int:note_id>/open/", views.open_notification, name="notification-open"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notifications-unsubscribe"),
]
