FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY monitor ./monitor
RUN pip install --no-cache-dir . && useradd --create-home ragmon
USER ragmon
ENV MONITOR_DATA_DIR=/home/ragmon/data
ENTRYPOINT ["ragmon"]
CMD ["worker"]
