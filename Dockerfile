# The web and worker image: Python 3.11, the project installed, translations compiled,
# static files collected.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# msgfmt (GNU gettext) compiles the translation catalogues below.
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir -e .
COPY . .
RUN sh deploy/compile_messages.sh
# In production mode (hashed names and their manifest), as the server runs.
RUN sh deploy/collect_static.sh
EXPOSE 8000
CMD ["python", "-m", "bloqueio_site.serve", "0.0.0.0", "8000"]
