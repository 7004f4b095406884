# The web and worker image: Python 3.11, the project installed, static files collected.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir -e .
COPY . .
RUN DJANGO_ENV=development python manage.py collectstatic --noinput -v 0
EXPOSE 8000
CMD ["python", "-m", "bloqueio_site.serve", "0.0.0.0", "8000"]
