# syntax=docker/dockerfile:1
# Tabula in a container: `docker compose up -d` (see compose.yaml and .env.example).
#
# Two stages: `build` installs the project into a virtual environment, exactly as .ci/run does
# (minus the test extra, and not editable); `runtime` copies only that environment, so no
# build tools or sources beyond the installed package end up in the image.

ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY renderers ./renderers
COPY sandbox ./sandbox
RUN python -m pip install --quiet --upgrade pip
# The solver extra (numpy, numba) is for `tabula ur-table build`; the bot never imports it.
RUN python -m pip install --quiet ".[solver]"

FROM ${PYTHON_IMAGE} AS runtime
# FriBiDi: Pillow's wheels bring libraqm and HarfBuzz and load FriBiDi from the system; with
# it, names in Devanagari are drawn with their conjuncts (renderers/fonts.py; without it they
# are still drawn, letter by letter).
RUN apt-get update \
    && apt-get install --yes --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
# A fixed uid, so the /data volume's owner is the same in every image version.
RUN groupadd --system --gid 10001 tabula \
    && useradd --system --uid 10001 --gid tabula --home-dir /data --shell /usr/sbin/nologin tabula \
    && mkdir -p /data \
    && chown tabula:tabula /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_PATH=/data/tabula.db \
    HEALTH_FILE=/tmp/tabula-health.json \
    LOG_FORMAT=json \
    NUMBA_CACHE_DIR=/tmp/numba-cache
WORKDIR /data
VOLUME ["/data"]
USER tabula
# The bot finishes clicks in flight on SIGTERM (up to 10 s); give it time (compose.yaml).
STOPSIGNAL SIGTERM
# Healthy = a heartbeat younger than 3 x HEALTH_INTERVAL_SECONDS saying that the gateway is
# connected and a database write succeeded (bot/health.py). Exit 1 = unhealthy.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["tabula", "health"]
CMD ["tabula", "run"]
