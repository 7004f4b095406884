"""Project package: settings, URL routing and the ASGI entry point."""
