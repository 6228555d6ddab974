tracekit check tests/data/xray/pass/header-only.basic
