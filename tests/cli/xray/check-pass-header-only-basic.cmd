tracekit check -v tests/data/xray/pass/header-only.basic
