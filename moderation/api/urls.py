"""Moderation API routes under /api/."""

from django.urls import path

from moderation.api import views

urlpatterns = [
    path("reports/", views.ReportsView.as_view(), name="api-reports"),
]
