# The wheel is built where a C compiler is (the compiled parts of setup.py), and installed
# into the slim image.
FROM python:3.11 AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY monitor ./monitor
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
WORKDIR /app
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels && useradd --create-home ragmon
USER ragmon
ENV MONITOR_DATA_DIR=/home/ragmon/data
ENTRYPOINT ["ragmon"]
CMD ["worker"]
