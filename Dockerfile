# Production image: the API only, runtime dependencies from the hash-checked lock.
FROM python:3.13-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WARDEN_DATA_DIR=/data HF_HUB_OFFLINE=1
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md ./
COPY service ./service
COPY pipelines ./pipelines
COPY ingestion ./ingestion
COPY prompts ./prompts
COPY sample_kb ./sample_kb
RUN pip install --no-cache-dir --no-deps --no-build-isolation . \
    && groupadd --system --gid 10001 warden \
    && useradd --system --uid 10001 --gid 10001 --no-create-home warden \
    && mkdir -p /data && chown 10001:10001 /data
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["warden", "serve", "--host", "0.0.0.0", "--port", "8000"]
