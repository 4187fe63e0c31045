"""The only code that touches Kafka: the faust app, the scoring loop, topics and the
embedded broker used by ``ragmon demo`` and the tests."""
