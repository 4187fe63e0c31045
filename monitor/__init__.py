"""ragmon: a Kafka-native quality monitor for production RAG services.

Errors raised by ragmon itself form one small hierarchy::

    MonitorError                  base of every ragmon error
    ├── ConfigError               settings that cannot be parsed or are inconsistent
    ├── EventError                an input message that cannot become a ``RagEvent``
    └── BrokerError               a broker could not be started or reached

Nothing happens at import: modules only define things.
"""

__version__ = "0.1.0"
