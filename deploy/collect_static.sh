#!/bin/sh
# Collects the static files the way production serves them: DJANGO_ENV=production, so
# whitenoise's manifest storage writes hashed names and staticfiles.json, which the
# production server needs for every `{% static %}` (without it every page is a 500).
# The Dockerfile runs this; tests/site/test_docker_static.py runs the Dockerfile's own
# RUN line and then serves pages from the result.
#
# Production settings demand a secret key and allowed hosts; collectstatic uses
# neither, so both are throwaway values that exist only for this command (the key is
# random and never stored). The real ones come from the environment at run time.
set -eu
cd "$(dirname "$0")/.."
DJANGO_ENV=production \
DJANGO_SECRET_KEY="collectstatic-only-$(python -c 'import secrets; print(secrets.token_hex(32))')" \
DJANGO_ALLOWED_HOSTS=collectstatic.invalid \
exec python manage.py collectstatic --noinput -v 0
