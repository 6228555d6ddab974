tracekit check tests/data/xray/fail/unknown-record-type.basic
